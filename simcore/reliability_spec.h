#pragma once
// What the user says about failures and checkpoints: storage, checkpoint policy,
// mitigations and injected chaos events. Plain values, read from the scenario's
// optional `reliability:` section; the defaults come from resources/reliability.
#include <string>
#include <string_view>
#include <vector>

namespace dtsim {

enum class LinkLevel { ScaleUp, ScaleOut };

// An injected event ("at day 12 lose switch leaf-7", "from day 3 GPU 1042 runs 15%
// slow", "checkpoint at day 20 is corrupt"), or an incident that lasts a while (issue
// 45: a node drained, a link degraded, the checkpoint store down, two pods partitioned,
// a host out of memory). docs/reliability.md, "Chaos events", gives each one's effect.
struct ChaosEvent {
    enum class Kind { Failure, Straggler, CorruptCheckpoint, Drain, LinkDegraded, StorageOutage, Partition, HostOom };
    Kind kind = Kind::Failure;
    double atSeconds = 0; // of wall-clock time since the run started
    double slowdown = 0;  // straggler: fractional step slowdown from then on
    std::string target;   // what it hits, for labels ("switch leaf-7", "gpu 1042")
    // A failure's blast radius: one node, or every GPU below a rack (leaf) or pod switch.
    enum class Scope { Node, Rack, Pod };
    Scope scope = Scope::Node;
    double duration = 0;  // drain, link_degraded, storage_outage, partition: seconds it lasts
    // link_degraded: the level's share of its bandwidth (0 < f < 1); storage_outage: the
    // store's share of its write bandwidth, 0 when writes fail.
    double fraction = 0;
    LinkLevel level = LinkLevel::ScaleOut; // link_degraded: which fabric
    int tier = 0; // link_degraded on scale-out: 0 every switch tier and the NICs, k only tier k (1 = leaf)

    bool operator==(const ChaosEvent&) const = default;
};

const char* chaosKindName(ChaosEvent::Kind k);
// Whether an event of kind `k` lasts a while (`duration`), and whether it reads `fraction`.
inline bool chaosKindLasts(ChaosEvent::Kind k)
{
    using K = ChaosEvent::Kind;
    return k == K::Drain || k == K::LinkDegraded || k == K::StorageOutage || k == K::Partition;
}
inline bool chaosKindHasFraction(ChaosEvent::Kind k)
{
    return k == ChaosEvent::Kind::LinkDegraded || k == ChaosEvent::Kind::StorageOutage;
}
// Whether an event of kind `k` reads the member keyed `key` in files (`scope`,
// `slowdown`, `duration`, `fraction`, `level`, `tier`); every kind reads `at`, `event`
// and `target`. The field registry's checks and the chaos editor's form ask this.
inline bool chaosKindUses(ChaosEvent::Kind k, std::string_view key)
{
    using K = ChaosEvent::Kind;
    if (key == "at" || key == "event" || key == "target")
        return true;
    if (key == "scope")
        return k == K::Failure;
    if (key == "slowdown")
        return k == K::Straggler;
    if (key == "duration")
        return chaosKindLasts(k);
    if (key == "fraction")
        return chaosKindHasFraction(k);
    return (key == "level" || key == "tier") && k == K::LinkDegraded;
}

// How a run gets back its state after a failure (docs/reliability.md):
// - Storage: periodic checkpoints to remote storage, synchronous or asynchronous;
// - InMemory: Gemini (Wang et al., SOSP 2023): frequent copies in peer hosts' CPU
//   memory, with storage checkpoints as the backstop when every copy is lost;
// - JustInTime: Gupta et al. (EuroSys 2024): the healthy ranks write the state when a
//   failure is detected; storage checkpoints as the backstop.
enum class RecoveryStrategy { Storage, InMemory, JustInTime };
// Where an in-memory checkpoint's peer copies live: the smallest failure domain that
// holds them all, so a failure of that domain loses them.
enum class CopyPlacement { SameRack, OtherRack, OtherPod };

// Whose failure census the run assumes (resources/reliability/reliability.yaml): Meta's
// Llama 3 per-cause census on H100s, or another fleet's failures per node-day with the
// same split among causes: Meta's RSC-1 and RSC-2 A100 clusters (Kokolis et al. 2024),
// BLOOM's new A100 cluster and OPT-175B's cloud A100 fleet (their logbooks).
enum class RateSet { Llama3H100, Rsc1A100, Rsc2A100, BloomA100, OptA100 };
inline constexpr int kRateSetCount = 5;

struct ReliabilitySpec {
    // Storage, aggregate over the job; 0 means the per-GPU default times the GPUs.
    double storageWriteBandwidth = 0;
    double storageReadBandwidth = 0;
    bool asyncCheckpoint = false;      // snapshot to host memory, flush in the background
    double stagingBandwidth = 0;       // per GPU, device to host; 0: the default
    double checkpointInterval = 0;     // seconds of wall clock; 0: Young's optimum
    bool spares = true;                // hot spares: replace a node in minutes, not hours
    double stragglerSlowdown = 0;      // one GPU slower by this fraction slows every step
    bool backupWorkers = false;        // mitigation: extra ranks, drop the slowest each step
    double degradedLinkFraction = 1;   // one link at this share of its bandwidth
    LinkLevel degradedLinkLevel = LinkLevel::ScaleOut;
    std::vector<ChaosEvent> chaos;
    // The run's own failure rates and recovery phases, over resources/reliability's:
    // mean time between failures of one unit (a GPU, a host, a GPU's NIC, its switch or
    // cable path per level, its software stack) and the phases of a restart. 0: shipped.
    double mtbfGpu = 0, mtbfHost = 0, mtbfNic = 0, mtbfSwitchOrCable = 0, mtbfSoftware = 0;
    double drain = 0, provision = 0, reinit = 0;
    // Correlated failures (per rack or leaf switch, per pod) and spot preemption (per
    // node): 0 keeps the shipped rate (preemption: the cost model's spot rate).
    double mtbfRack = 0, mtbfPod = 0, mtbfPreemption = 0;
    double detect = 0;         // seconds from the fault to the job knowing; 0: shipped
    double spareFraction = 0;  // hot-spare nodes per node of the job; 0: shipped
    RateSet failureRates = RateSet::Llama3H100;
    RecoveryStrategy strategy = RecoveryStrategy::Storage;
    int inMemoryCopies = 1;    // peer hosts holding each host's in-memory checkpoint
    CopyPlacement copyPlacement = CopyPlacement::SameRack;

    bool operator==(const ReliabilitySpec&) const = default;
};

} // namespace dtsim
