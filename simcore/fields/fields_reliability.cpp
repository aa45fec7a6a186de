// The `reliability` section: checkpoints, storage, mitigations, a degraded link and
// injected chaos events (docs/reliability.md explains the model).
#include "field_builder.h"
#include "field_tables.h"

namespace dtsim::fields {

namespace {

// A ReliabilitySpec member, left out of the file at its default of 0 (the shipped value).
Field shippedUnlessSet(std::string path, Dimension dim, std::string unit, double ReliabilitySpec::*member, std::string byDefault,
    std::string help)
{
    return std::move(quantity(std::move(path), dim, std::move(unit)).bind(&Scenario::reliability, member)
                         .byDefault(std::move(byDefault)).help(std::move(help))
                         .writtenWhen([member](const Scenario& s, int) { return s.reliability.*member > 0; }));
}

template <typename T>
Field& bindChaos(Field& f, T ChaosEvent::*member)
{
    return f.access([member](const Scenario& s, int i) { return static_cast<double>(s.reliability.chaos[std::size_t(i)].*member); },
        [member](Scenario& s, double v, int i) { s.reliability.chaos[std::size_t(i)].*member = fromDouble<T>(v); });
}

bool straggler(const Scenario& s, int i) { return s.reliability.chaos[std::size_t(i)].kind == ChaosEvent::Kind::Straggler; }
bool degradedLink(const Scenario& s, int i) { return s.reliability.chaos[std::size_t(i)].kind == ChaosEvent::Kind::LinkDegraded; }
// Whether entry i's kind reads the member keyed `key` (reliability_spec.h).
bool uses(const Scenario& s, int i, std::string_view key) { return chaosKindUses(s.reliability.chaos[std::size_t(i)].kind, key); }

// A GPU more than ten times slower than its peers is not a straggler but a fault: the
// job's health checks take it out (NCCL's and PyTorch's collective timeouts fire long
// before a step of that length ends).
const char* stragglerLimit(double slowdown)
{
    return slowdown > 10 ? "a GPU over 10 times slower (1000%) is a fault that health checks remove, not a straggler" : "";
}

// Checkpoint storage and the straggler mitigations.
void addCheckpointFields(std::vector<FieldDef>& f)
{
    f.push_back(shippedUnlessSet("reliability.storage_write_bandwidth", Dimension::BytesPerSecond, "B/s",
        &ReliabilitySpec::storageWriteBandwidth, "427 MB/s per GPU", "aggregate checkpoint write bandwidth")
            .typeText("bandwidth")
            .panel("Reliability", "Storage write (0 = default)", 0, 1e6, SliderScale::Linear,
                "Aggregate checkpoint write bandwidth of the job's storage. 0: 427 MB/s per GPU (Llama 3's Tectonic peak).")
            .shown("GB/s", 1e9));
    f.push_back(shippedUnlessSet("reliability.storage_read_bandwidth", Dimension::BytesPerSecond, "B/s",
        &ReliabilitySpec::storageReadBandwidth, "427 MB/s per GPU", "aggregate reload bandwidth")
            .typeText("bandwidth")
            .panel("Reliability", "Storage read (0 = default)", 0, 1e6, SliderScale::Linear,
                "Aggregate bandwidth to read a checkpoint back after a failure. 0: 427 MB/s per GPU (Llama 3's Tectonic peak).")
            .shown("GB/s", 1e9));
    f.push_back(flag("reliability.async_checkpoint").byDefault("`false`").help("stage in host memory, flush in the background")
            .bind(&Scenario::reliability, &ReliabilitySpec::asyncCheckpoint)
            .panel("Reliability", "Asynchronous checkpoints", 0, 1, SliderScale::Linear,
                "Copy the state to host memory and flush it to storage in the background: training stalls only for the copy."));
    f.push_back(shippedUnlessSet("reliability.staging_bandwidth", Dimension::BytesPerSecond, "B/s", &ReliabilitySpec::stagingBandwidth,
        "25 GB/s", "per GPU, device to host (async only)")
            .typeText("bandwidth")
            .panel("Reliability", "Staging, device to host (0 = default)", 0, 100, SliderScale::Linear,
                "Per GPU: how fast an asynchronous checkpoint is copied to host memory (training stalls for it). 0: 25 GB/s.")
            .shown("GB/s", 1e9));
    f.push_back(shippedUnlessSet("reliability.checkpoint_interval", Dimension::Seconds, "s", &ReliabilitySpec::checkpointInterval,
        "Young's optimum", "training time between checkpoints (rounded to whole steps)")
            .typeText("time")
            .panel("Reliability", "Checkpoint interval (0 = optimal)", 0, 10000, SliderScale::Linear,
                "Training time between checkpoints. 0 uses Young's optimum sqrt(2 x checkpoint stall x cluster MTBF).")
            .shown("min", 60));
    f.push_back(flag("reliability.spares").byDefault("`true`").help("hot spares: 5 min to replace a node instead of 1 h")
            .bind(&Scenario::reliability, &ReliabilitySpec::spares)
            .panel("Reliability", "Hot spares", 0, 1, SliderScale::Linear,
                "Keep 1% spare nodes powered: a failed node is replaced in 5 minutes instead of about an hour."));
    f.push_back(quantity("reliability.straggler_slowdown", Dimension::Count, "", Bound::NonNegative).byDefault("`0`")
            .help("one GPU slower by this fraction (0.15 = 15%), at most 10")
            .check([](const Scenario&, double v, int) { return stragglerLimit(v); })
            .bind(&Scenario::reliability, &ReliabilitySpec::stragglerSlowdown)
            .panel("Reliability", "One slow GPU", 0, 100, SliderScale::Linear, "One GPU slower by this much slows every synchronous step by as much.")
            .shown("%", 0.01));
    f.push_back(flag("reliability.backup_workers").byDefault("`false`").help("4% extra ranks hide the straggler")
            .bind(&Scenario::reliability, &ReliabilitySpec::backupWorkers)
            .panel("Reliability", "Backup workers", 0, 1, SliderScale::Linear,
                "4% extra data-parallel ranks; each step drops the slowest, hiding the straggler at the cost of the extra GPUs."));
}

// --- how the run recovers -----------------------------------------------------------
void addRecoveryStrategyFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("reliability.strategy", { { "storage", int(RecoveryStrategy::Storage) }, { "in_memory", int(RecoveryStrategy::InMemory) },
                                                   { "just_in_time", int(RecoveryStrategy::JustInTime) } })
            .bind(&Scenario::reliability, &ReliabilitySpec::strategy).byDefault("`storage`")
            .help("periodic storage checkpoints; Gemini's in-memory copies; just-in-time checkpoints (both over storage)")
            .panel("Reliability", "Recovery strategy", 0, 2, SliderScale::Linear,
                "Storage: periodic checkpoints to remote storage. In memory (Gemini, SOSP 2023): frequent copies in peer hosts' "
                "CPU memory, in the network's idle time. Just in time (Gupta et al., EuroSys 2024): the healthy ranks write the "
                "state when a failure is detected. Both keep storage checkpoints for failures their copies do not survive.")
            .labels({ "storage checkpoints", "in memory (Gemini)", "just in time" }));
    f.push_back(integer("reliability.in_memory.copies").min(1).max(7).byDefault("`1`")
            .help("peer hosts holding each host's in-memory checkpoint (Gemini's m - 1)")
            .bind(&Scenario::reliability, &ReliabilitySpec::inMemoryCopies)
            .writtenWhen([](const Scenario& s, int) { return s.reliability.inMemoryCopies != 1; })
            .panel("Reliability", "In-memory peer copies", 1, 7, SliderScale::Linear,
                "Peer hosts holding each host's in-memory checkpoint; each copy crosses the network."));
    f.push_back(choice("reliability.in_memory.placement", { { "same_rack", int(CopyPlacement::SameRack) },
                                                             { "other_rack", int(CopyPlacement::OtherRack) },
                                                             { "other_pod", int(CopyPlacement::OtherPod) } })
            .bind(&Scenario::reliability, &ReliabilitySpec::copyPlacement).byDefault("`same_rack`")
            .help("where the peer copies live: a rack or pod failure loses copies inside it")
            .writtenWhen([](const Scenario& s, int) { return s.reliability.copyPlacement != CopyPlacement::SameRack; })
            .panel("Reliability", "In-memory copy placement", 0, 2, SliderScale::Linear,
                "Gemini groups neighbouring hosts (the same rack); a rack failure then takes every copy and the run goes back to "
                "its storage checkpoint. Copies in another rack or pod survive it.")
            .labels({ "same rack", "another rack", "another pod" }));
    f.push_back(choice("reliability.failure_rates", { { "llama3-h100", int(RateSet::Llama3H100) }, { "rsc1-a100", int(RateSet::Rsc1A100) },
                                                        { "rsc2-a100", int(RateSet::Rsc2A100) }, { "bloom-a100", int(RateSet::BloomA100) },
                                                        { "opt-a100", int(RateSet::OptA100) } })
            .bind(&Scenario::reliability, &ReliabilitySpec::failureRates).byDefault("`llama3-h100`")
            .help("whose failure census: Llama 3 (H100), Meta's RSC-1/RSC-2, BLOOM's or OPT's A100 fleets")
            .writtenWhen([](const Scenario& s, int) { return s.reliability.failureRates != RateSet::Llama3H100; })
            .panel("Reliability", "Failure census", 0, kRateSetCount - 1, SliderScale::Linear,
                "Llama 3's per-cause census on 16,384 H100s, or another fleet's failures per node-day with the same split: "
                "Meta's RSC-1 (6.5 per 1,000 node-days) and RSC-2 (2.34) A100 clusters, BLOOM's new A100 cluster (4.5), "
                "OPT-175B's cloud A100 fleet (16). The MTBF fields below override single causes.")
            .labels({ "Llama 3, H100 (3.8)", "Meta RSC-1, A100 (6.5)", "Meta RSC-2, A100 (2.3)", "BLOOM, A100 (4.5)", "OPT, cloud A100 (16)" }));
    f.push_back(quantity("reliability.spare_fraction", Dimension::Count, "", Bound::NonNegative).byDefault("`0.01` (shipped)")
            .help("hot-spare nodes per node of the job; a failure taking more waits for new ones")
            .bind(&Scenario::reliability, &ReliabilitySpec::spareFraction)
            .check([](const Scenario&, double v, int) { return v > 1 ? "at most one spare per node (write 0.05 for 5%)" : ""; })
            .writtenWhen([](const Scenario& s, int) { return s.reliability.spareFraction > 0; })
            .panel("Reliability", "Hot spares (0 = shipped 1%)", 0, 20, SliderScale::Linear,
                "Spare nodes held powered, as a share of the job's nodes. A rack or pod failure needs one per node it took; "
                "beyond the pool, the run waits for new nodes.")
            .shown("%", 0.01));
}

// --- reliability.mtbf and reliability.recovery: the run's own rates ---------------
// Each unit's mean time between failures (resources/reliability/reliability.yaml holds
// the shipped ones, from Meta's Llama 3 census) and the restart's phases.
void addOwnRateFields(std::vector<FieldDef>& f)
{
    const struct {
        const char* key;
        double ReliabilitySpec::*member;
        const char* shipped;
        const char* label;
        const char* help;
    } own[] = {
        { "reliability.mtbf.gpu", &ReliabilitySpec::mtbfGpu, "Llama 3's census", "GPU MTBF (0 = shipped)", "mean time between failures of one GPU" },
        { "reliability.mtbf.host", &ReliabilitySpec::mtbfHost, "Llama 3's census", "Host MTBF (0 = shipped)", "of one host (CPU, memory, power, disk)" },
        { "reliability.mtbf.nic", &ReliabilitySpec::mtbfNic, "Llama 3's census", "NIC MTBF (0 = shipped)", "of one GPU's NIC" },
        { "reliability.mtbf.switch_or_cable", &ReliabilitySpec::mtbfSwitchOrCable, "Llama 3's census", "Switch/cable MTBF (0 = shipped)",
            "of one GPU's path through one switch level" },
        { "reliability.mtbf.software", &ReliabilitySpec::mtbfSoftware, "Llama 3's census", "Software MTBF (0 = shipped)",
            "of one GPU's software stack (driver, framework, collective hangs)" },
        { "reliability.mtbf.rack", &ReliabilitySpec::mtbfRack, "none (no census)", "Rack MTBF (0 = shipped)",
            "of one rack or leaf switch: takes every GPU below it (correlated)" },
        { "reliability.mtbf.pod", &ReliabilitySpec::mtbfPod, "none (no census)", "Pod MTBF (0 = shipped)",
            "of one pod (power, cooling, spine): takes every GPU below it" },
        { "reliability.mtbf.preemption", &ReliabilitySpec::mtbfPreemption, "spot pricing's, else none", "Preemption MTBF (0 = shipped)",
            "of one node's capacity being taken back" },
        { "reliability.recovery.detect", &ReliabilitySpec::detect, "30 s", "Detect (0 = shipped)", "from the fault to the job knowing" },
        { "reliability.recovery.drain", &ReliabilitySpec::drain, "30 s", "Drain (0 = shipped)", "stop every rank and tear the job down" },
        { "reliability.recovery.provision", &ReliabilitySpec::provision, "5 min with spares, 1 h without", "Provision (0 = shipped)",
            "replace the failed node" },
        { "reliability.recovery.reinit", &ReliabilitySpec::reinit, "2 min", "Re-initialize (0 = shipped)", "restart the job: processes, NCCL, data loaders" },
    };
    for (const auto& o : own) {
        const bool mtbf = std::string_view(o.key).starts_with("reliability.mtbf.");
        f.push_back(shippedUnlessSet(o.key, Dimension::Seconds, "s", o.member, o.shipped, o.help)
                .typeText("time")
                .panel("Reliability", o.label, 0, mtbf ? 1e7 : 1e4, SliderScale::Linear, std::string(o.help) + ". 0 keeps the shipped value ("
                        + o.shipped + ").")
                .shown(mtbf ? "h" : "s", mtbf ? 3600 : 1));
    }
}

// --- reliability.degraded_link ---------------------------------------------------
void addDegradedLinkFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("reliability.degraded_link.level", { { "scale_out", int(LinkLevel::ScaleOut) }, { "scale_up", int(LinkLevel::ScaleUp) } })
            .byDefault("`scale_out`").help("which fabric the slow link is on")
            .bind(&Scenario::reliability, &ReliabilitySpec::degradedLinkLevel));
    f.push_back(quantity("reliability.degraded_link.bandwidth_fraction", Dimension::Count, "").required().typeText("0-1")
            .byDefault("required").help("the link's share of its bandwidth")
            .bind(&Scenario::reliability, &ReliabilitySpec::degradedLinkFraction)
            .check([](const Scenario&, double v, int) { return v > 1 ? "a fraction must be at most 1 (write 0.15 for 15%)" : ""; })
            .panel("Reliability", "Degraded scale-out link", 1, 100, SliderScale::Linear,
                "One scale-out link at this share of its bandwidth (100% = healthy); rings and all-to-alls run at their slowest link's pace.")
            .shown("%", 0.01)
            .edit([](Scenario& s, double v) {
                s.reliability.degradedLinkFraction = v;
                s.reliability.degradedLinkLevel = LinkLevel::ScaleOut;
            }));
}

// --- reliability.chaos[]: what an incident that lasts reads (issue 45) -----------
// Each is written only for the kinds that read it, and only off its default, so a file
// of older kinds writes back unchanged.
void addLastingChaosFields(std::vector<FieldDef>& f)
{
    {
        Field d = quantity("reliability.chaos[].duration", Dimension::Seconds, "s");
        bindChaos(d, &ChaosEvent::duration);
        f.push_back(std::move(d.typeText("time").byDefault("drain, link_degraded, storage_outage, partition: required")
                .help("how long the incident lasts")
                .derived([](const Scenario& s, int i) {
                    return uses(s, i, "duration") ? DerivedDefault::fail("reliability.chaos[" + std::to_string(i) + "].duration",
                                                        "this event lasts a while: give its duration (4 h)")
                                                  : DerivedDefault::of(0);
                })
                .check([](const Scenario& s, double, int i) {
                    return uses(s, i, "duration") ? "" : "only a drain, link_degraded, storage_outage or partition event has a duration";
                })
                // Off its kind and off 0 it is written too, for the check to refuse.
                .writtenWhen([](const Scenario& s, int i) { return uses(s, i, "duration") || s.reliability.chaos[std::size_t(i)].duration != 0; })
                .form("Duration", 0, 2400, SliderScale::Linear, "How long the incident lasts.").shown("h", 3600)));
    }
    {
        Field fr = quantity("reliability.chaos[].fraction", Dimension::Count, "", Bound::NonNegative);
        bindChaos(fr, &ChaosEvent::fraction);
        f.push_back(std::move(fr.typeText("0-1").byDefault("link_degraded: required; storage_outage: `0` (writes fail)")
                .help("a degraded link's share of its bandwidth; the store's share of its write bandwidth in an outage")
                .derived([](const Scenario& s, int i) {
                    return degradedLink(s, i) ? DerivedDefault::fail("reliability.chaos[" + std::to_string(i) + "].fraction",
                                                    "a degraded link needs its share of bandwidth (0.25 for 25%)")
                                              : DerivedDefault::of(0);
                })
                .check([](const Scenario& s, double v, int i) {
                    return !uses(s, i, "fraction") ? "only a link_degraded or storage_outage event has a fraction"
                        : v > 1                    ? "a fraction must be at most 1 (write 0.25 for 25%)"
                        : degradedLink(s, i) && !(v > 0) ? "a link at 0 is down: write a partition or a failure"
                                                         : "";
                })
                .writtenWhen([](const Scenario& s, int i) { return degradedLink(s, i) || s.reliability.chaos[std::size_t(i)].fraction != 0; })
                .form("Share of bandwidth", 0, 100, SliderScale::Linear,
                    "A degraded link's share of its bandwidth, or the checkpoint store's in an outage (0: writes fail).")
                .shown("%", 0.01)));
    }
    {
        Field level = choice("reliability.chaos[].level", { { "scale_out", int(LinkLevel::ScaleOut) }, { "scale_up", int(LinkLevel::ScaleUp) } });
        bindChaos(level, &ChaosEvent::level);
        f.push_back(std::move(level.byDefault("`scale_out`").help("a degraded link's fabric")
                .check([](const Scenario& s, double v, int i) {
                    return v != int(LinkLevel::ScaleOut) && !degradedLink(s, i) ? "only a link_degraded event has a level" : "";
                })
                .writtenWhen([](const Scenario& s, int i) { return s.reliability.chaos[std::size_t(i)].level != LinkLevel::ScaleOut; })
                .form("Fabric", 0, 1).labels({ "scale-out", "scale-up" })));
    }
    {
        Field tier = integer("reliability.chaos[].tier").min(0).max(kMaxTiers);
        bindChaos(tier, &ChaosEvent::tier);
        f.push_back(std::move(tier.byDefault("`0` (the NICs and every tier)").help("a degraded scale-out link's switch tier: 1 the leaf, 2 the spine...")
                .check([](const Scenario& s, double v, int i) -> std::string {
                    if (v == 0)
                        return "";
                    if (!degradedLink(s, i))
                        return "only a link_degraded event has a tier";
                    if (s.reliability.chaos[std::size_t(i)].level == LinkLevel::ScaleUp)
                        return "a tier is a scale-out switch level; leave it out for scale_up";
                    return v > s.cluster.tierCount ? "the cluster has " + std::to_string(s.cluster.tierCount) + " switch tiers" : "";
                })
                .writtenWhen([](const Scenario& s, int i) { return s.reliability.chaos[std::size_t(i)].tier != 0; })
                .form("Switch tier (0 = all)", 0, kMaxTiers)));
    }
}

// --- reliability.chaos[] -----------------------------------------------------------
void addChaosFields(std::vector<FieldDef>& f)
{
    {
        Field at = quantity("reliability.chaos[].at", Dimension::Seconds, "s", Bound::NonNegative);
        bindChaos(at, &ChaosEvent::atSeconds);
        f.push_back(std::move(at.required().typeText("time").byDefault("required").help("wall-clock time since the start")
                .form("At", 0, 1000, SliderScale::Linear, "Wall-clock time since the run started.").shown("d", 86400)));
    }
    {
        Field kind = choice("reliability.chaos[].event", { { "failure", int(ChaosEvent::Kind::Failure) },
                                                             { "straggler", int(ChaosEvent::Kind::Straggler) },
                                                             { "corrupt_checkpoint", int(ChaosEvent::Kind::CorruptCheckpoint) },
                                                             { "drain", int(ChaosEvent::Kind::Drain) },
                                                             { "link_degraded", int(ChaosEvent::Kind::LinkDegraded) },
                                                             { "storage_outage", int(ChaosEvent::Kind::StorageOutage) },
                                                             { "partition", int(ChaosEvent::Kind::Partition) },
                                                             { "host_oom", int(ChaosEvent::Kind::HostOom) } });
        bindChaos(kind, &ChaosEvent::kind);
        f.push_back(std::move(kind.required().byDefault("required").help("what happens (docs/reliability.md, \"Chaos events\")")));
    }
    {
        Field scope = choice("reliability.chaos[].scope", { { "node", int(ChaosEvent::Scope::Node) }, { "rack", int(ChaosEvent::Scope::Rack) },
                                                              { "pod", int(ChaosEvent::Scope::Pod) } });
        bindChaos(scope, &ChaosEvent::scope);
        f.push_back(std::move(scope.byDefault("`node`").help("a failure's reach: one node, or every GPU of its rack or pod")
                .check([](const Scenario& s, double v, int i) {
                    return v != int(ChaosEvent::Scope::Node) && s.reliability.chaos[std::size_t(i)].kind != ChaosEvent::Kind::Failure
                        ? "only a failure event has a scope" : "";
                })
                .writtenWhen([](const Scenario& s, int i) { return s.reliability.chaos[std::size_t(i)].scope != ChaosEvent::Scope::Node; })
                .form("Blast radius", 0, 2, SliderScale::Linear, "A failure takes one node, or every GPU of its rack or pod.")
                .labels({ "node", "rack", "pod" })));
    }
    f.push_back(text("reliability.chaos[].target").byDefault("empty").help("a label such as `switch leaf-7`")
            .text([](const Scenario& s, int i) { return s.reliability.chaos[std::size_t(i)].target; },
                [](Scenario& s, const std::string& v, int i) { s.reliability.chaos[std::size_t(i)].target = v; })
            .writtenWhen([](const Scenario& s, int i) { return !s.reliability.chaos[std::size_t(i)].target.empty(); })
            .form("Target", 0, 0, SliderScale::Linear, "A label for what the event hits (switch leaf-7, gpu 1042)."));
    {
        Field slow = quantity("reliability.chaos[].slowdown", Dimension::Count, "");
        bindChaos(slow, &ChaosEvent::slowdown);
        f.push_back(std::move(slow.typeText("number > 0").byDefault("straggler: required").help("the straggler's fractional slowdown from then on")
                .derived([](const Scenario& s, int i) {
                    return straggler(s, i) ? DerivedDefault::fail("reliability.chaos[" + std::to_string(i) + "].slowdown",
                                                 "a straggler needs its slowdown (0.15 for 15% slower)")
                                           : DerivedDefault::of(0);
                })
                .check([](const Scenario& s, double v, int i) { return straggler(s, i) ? stragglerLimit(v) : "only a straggler event has a slowdown"; })
                .writtenWhen([](const Scenario& s, int i) { return straggler(s, i) || s.reliability.chaos[std::size_t(i)].slowdown != 0; })
                .form("Slowdown", 0, 1000, SliderScale::Linear, "The straggler's fractional slowdown from then on.").shown("%", 0.01)));
    }
    addLastingChaosFields(f);
}

} // namespace

// In declaration order, which the docs and the derived defaults follow.
void addReliabilityFields(std::vector<FieldDef>& f)
{
    addCheckpointFields(f);
    addRecoveryStrategyFields(f);
    addOwnRateFields(f);
    addDegradedLinkFields(f);
    addChaosFields(f);
}

} // namespace dtsim::fields
