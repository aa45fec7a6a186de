#include "advice.h"

#include "scenario_diff.h"
#include "sweep.h"

#include "../fields/scenario_fields.h"
#include "../grad_compression.h"
#include "../memory.h"
#include "../planner/search.h"
#include "../report_check.h"
#include "../scenario_limits.h"
#include "../scenario_rules.h"
#include "../step.h"
#include "../units.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdio>

namespace dtsim {

namespace {

std::string percent(double x)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100 * x);
    return buf;
}

// Seed 002's reading of a step's efficiency, checked against dtsim's presets: below about
// 70% of the step in compute, communication and the bubble hold the gains; above about
// 85% the run is near what its kernels allow.
constexpr double kLowComputeShare = 0.70, kHighComputeShare = 0.85;
// A part of the step this large decides the regime.
constexpr double kDominantShare = 0.25;

} // namespace

const char* regimeName(Regime r)
{
    switch (r) {
    case Regime::Compute: return "compute-bound";
    case Regime::Communication: return "communication-bound";
    case Regime::Bubble: return "pipeline-bubble-bound";
    case Regime::Memory: return "memory-capacity-bound";
    case Regime::Latency: return "host- or latency-bound";
    }
    return "?";
}

Diagnosis diagnose(const Scenario& s, const Report& r)
{
    Diagnosis d;
    const StepReport& st = r.step;
    const StepBreakdown& b = st.breakdown;
    const double step = std::max(st.stepTime, 1e-12);
    d.computeShare = (b.forward + b.backward) / step;
    d.shares.push_back({ "compute", d.computeShare });
    d.shares.push_back({ "recomputation", b.recompute / step });
    d.shares.push_back({ "pipeline bubble", b.bubble / step });
    d.shares.push_back({ "optimizer", b.optimizer / step });
    d.shares.push_back({ "framework overhead", b.overhead / step });
    d.shares.push_back({ "compute slowed by overlapped communication", b.contention / step });
    d.shares.push_back({ "waiting for the host's input pipeline", b.inputStall / step });
    double comm = 0;
    int worst = 0;
    auto groupLabel = [](int g) {
        std::string name(commGroupName(CommGroup(g)));
        for (char& ch : name)
            ch = char(std::toupper(static_cast<unsigned char>(ch)));
        return name;
    };
    for (int g = 0; g < kCommGroupCount; ++g) {
        d.shares.push_back({ groupLabel(g) + " communication", b.exposedComm[g] / step });
        comm += b.exposedComm[g];
        if (b.exposedComm[g] > b.exposedComm[worst])
            worst = g;
    }
    comm /= step;
    std::stable_sort(d.shares.begin(), d.shares.end(), [](const StepShare& x, const StepShare& y) { return x.share > y.share; });

    const double bubble = b.bubble / step, recompute = b.recompute / step, overhead = (b.overhead + b.optimizer) / step;
    const std::string group = groupLabel(worst);
    // Compute-bound at 70% of the step and above; otherwise the largest of the rest
    // names the regime.
    const double largest = std::max({ comm, bubble, recompute, overhead });
    if (d.computeShare >= kLowComputeShare && largest < kDominantShare) {
        d.regime = Regime::Compute;
        d.summary = "compute-bound: compute is " + percent(d.computeShare) + " of the step";
    } else if (comm == largest) {
        d.regime = Regime::Communication;
        const CommReport& cr = st.comm[std::size_t(worst)];
        const std::string tier = cr.domains > 1 ? " across " + std::to_string(cr.domains) + " scale-up domains (the scale-out network)"
                                                : " inside the scale-up domain";
        d.summary = "communication-bound: exposed communication is " + percent(comm) + " of the step, most of it " + group + tier;
    } else if (bubble == largest) {
        d.regime = Regime::Bubble;
        d.summary = "pipeline-bubble-bound: the pipeline's fill and drain are " + percent(bubble) + " of the step";
    } else if (recompute == largest) {
        d.regime = Regime::Memory;
        const bool roomLeft = st.memory.capacity > 0 && st.memory.total < 0.85 * st.memory.capacity;
        d.summary = "memory-capacity-bound: recomputation, which buys memory with compute, takes " + percent(recompute)
            + " of the step (" + formatMemory(st.memory.total) + " of " + formatMemory(st.memory.capacity) + " in use"
            + (roomLeft ? ": room to recompute less)" : ")");
    } else {
        d.regime = Regime::Latency;
        d.summary = "host- or latency-bound: framework overhead and the optimizer are " + percent(overhead)
            + " of the step; each GPU's work is too small to hide them";
    }
    if (d.computeShare < kLowComputeShare && s.model.isLayerTable())
        d.reading = "compute is under 70% of the step: the gains are in communication and the host, not in kernels; a layer table's "
                    "plan is its data parallelism, so they take a faster network, fewer exchanges or a leaner step";
    else if (d.computeShare < kLowComputeShare)
        d.reading = "compute is under 70% of the step: the gains are in communication, the bubble and recomputation, not in kernels";
    else if (d.computeShare > kHighComputeShare)
        d.reading = "compute is over 85% of the step: the run is near what its kernels allow; faster means lower precision, faster GPUs or more of them";
    else
        d.reading = "compute is 70-85% of the step: some gain is left in the plan, the rest in the hardware";
    return d;
}

namespace {

struct Candidate {
    std::string title;
    Scenario scenario;
    std::string note;
    Suggestion::Kind kind = Suggestion::Kind::Plan;
};

// As the panel sets it (the field's own edit keeps dependent fields consistent).
void setField(Scenario& s, const char* path, double value) { applyFieldValue(s, *findField(path), value); }

std::string planText(const Scenario& s)
{
    char buf[160];
    std::snprintf(buf, sizeof buf, "TP %d, PP %d, DP %d, CP %d, EP %d, micro-batch %d, ZeRO %d", s.plan.tp, s.plan.pp, s.plan.dp, s.plan.cp,
        s.plan.ep, s.training.microBatch, s.plan.zeroStage);
    return buf;
}

// The planner's fastest plan on the same GPUs, other micro-batches and recomputation policies.
void addPlanCandidates(std::vector<Candidate>& out, const Scenario& s, const Calibration& c, const std::atomic<bool>* cancel)
{
    SearchOptions o;
    o.topN = 1;
    o.cancel = cancel;
    const SearchResult best = searchPlans(s, c, o);
    if (!best.top.empty()) {
        Scenario b = s;
        b.plan = best.top.front().plan;
        b.training.microBatch = best.top.front().microBatch;
        if (!(b.plan == s.plan) || b.training.microBatch != s.training.microBatch)
            out.push_back({ "the planner's fastest plan: " + planText(b)
                    + (b.plan.offload == s.plan.offload ? "" : ", offloading to the host (nothing fits without)"), b, "" });
    }
    // The micro-batch, halved and doubled.
    for (int mb : { s.training.microBatch * 2, s.training.microBatch / 2 }) {
        if (mb < 1 || mb == s.training.microBatch)
            continue;
        Scenario b = s;
        setField(b, "training.micro_batch", mb);
        out.push_back({ "micro-batch " + std::to_string(mb), b, "" });
    }
    // Recomputation: each other policy that fits.
    const char* names[] = { "no recomputation", "selective recomputation", "full recomputation" };
    for (Recompute r : { Recompute::None, Recompute::Selective, Recompute::Full }) {
        if (r == s.plan.recompute || s.model.isLayerTable()) // a layer table keeps every activation
            continue;
        Scenario b = s;
        b.plan.recompute = r;
        out.push_back({ names[int(r)], b, "" });
    }
}

// Widths that leave cuBLAS's fast kernels (a row of a GEMM operand not a multiple of 16
// bytes: step_layer.cpp's gemmAlignment): pad them to the next multiple of 64 per
// tensor-parallel rank. Extra vocabulary rows are never looked up, so padding the
// vocabulary changes no result (nanoGPT pads GPT-2's 50,257 to 50,304; Megatron-LM
// pads to a multiple of 128 x TP); a wider hidden or MLP layer changes the model.
void addWidthPaddingCandidates(std::vector<Candidate>& out, const Scenario& s)
{
    if (!s.model.isLayerTable()) {
        auto padded = [&](int width) {
            const long long unit = 64LL * s.plan.tp;
            return int((width + unit - 1) / unit * unit);
        };
        auto misaligned = [&](int width) {
            const double bytes = double(width) / s.plan.tp * storageBytes(s.training.precision);
            return width % s.plan.tp != 0 || std::fmod(bytes, 16.0) != 0;
        };
        const struct {
            const char* path;
            int ModelSpec::*width;
            const char* what;
            const char* note;
        } widths[] = {
            { "model.vocab", &ModelSpec::vocab, "vocabulary", "the padded rows are never looked up: the model trains the same" },
            { "model.hidden", &ModelSpec::hidden, "hidden width", "a wider model: more parameters and FLOPs per token" },
            { "model.ffn_hidden", &ModelSpec::ffnHidden, "MLP width", "a wider MLP: more parameters and FLOPs per token" },
        };
        for (const auto& w : widths) {
            const int width = s.model.*(w.width);
            if (width <= 0 || !misaligned(width) || padded(width) == width)
                continue;
            if (w.width == &ModelSpec::vocab && s.plan.tp > 1)
                continue; // a vocabulary split over TP is padded by the framework (step.cpp)
            Scenario b = s;
            setField(b, w.path, padded(width));
            out.push_back({ std::string("pad the ") + w.what + " from " + std::to_string(width) + " to " + std::to_string(padded(width))
                    + " (a multiple of 64 per GPU keeps cuBLAS's fast GEMM kernels)",
                b, w.note });
        }
    }
}

// More ZeRO sharding for a plan short of memory, and the overlap switches that are off.
void addShardingAndOverlapCandidates(std::vector<Candidate>& out, const Scenario& s, bool fits)
{
    // Sharding more of the model's states (ZeRO 1, 2, 3), for a plan that needs memory.
    if (!s.model.isLayerTable() && !fits)
        for (int stage = s.plan.zeroStage + 1; stage <= 3; ++stage) {
            Scenario b = s;
            setField(b, "parallel.zero", stage);
            out.push_back({ "ZeRO stage " + std::to_string(stage) + " (shard the optimizer states" + (stage >= 2 ? ", gradients" : "")
                    + (stage >= 3 ? " and weights" : "") + " over data parallelism)",
                b, "" });
        }
    // Overlap switches that are off.
    const struct {
        const char* path;
        bool ParallelPlan::*member;
        const char* title;
    } overlaps[] = {
        { "parallel.overlap_grad_reduce", &ParallelPlan::overlapGradReduce, "overlap the gradient reduction with the backward pass" },
        { "parallel.overlap_param_gather", &ParallelPlan::overlapParamGather, "overlap the ZeRO all-gather with the forward pass" },
        { "parallel.tp_comm_overlap", &ParallelPlan::tpCommOverlap, "overlap tensor-parallel collectives with their GEMMs" },
        { "parallel.overlap_ep_comm", &ParallelPlan::epCommOverlap, "overlap expert all-to-alls with another micro-batch" },
    };
    for (const auto& ov : overlaps) {
        if (s.plan.*(ov.member))
            continue;
        Scenario b = s;
        b.plan.*(ov.member) = true;
        out.push_back({ ov.title, b, "" });
    }
}

// For a plan that does not fit: ZeRO-Offload's placement (optimizer states and gradients in
// CPU memory), and ZeRO-Infinity's (the parameters too, under ZeRO 3 without pipelining).
void addOffloadCandidates(std::vector<Candidate>& out, const Scenario& s, bool fits)
{
    if (fits || s.model.isLayerTable() || s.plan.offload.any() || s.hardware.hostLinkBandwidth <= 0)
        return;
    Scenario b = s;
    b.plan.zeroStage = std::max(1, s.plan.zeroStage);
    b.plan.offload.optimizer = b.plan.offload.gradients = OffloadTarget::Cpu;
    out.push_back({ "offload the optimizer states and gradients to CPU memory (ZeRO-Offload)", b, "" });
    if (s.plan.pp == 1) {
        b.plan.zeroStage = 3;
        b.plan.offload.parameters = OffloadTarget::Cpu;
        out.push_back({ "offload the optimizer states, gradients and parameters to CPU memory (ZeRO-Infinity, ZeRO 3)", b, "" });
    }
}

// Changes beyond the plan: FP8, more GPUs, a faster network.
void addPrecisionAndScaleCandidates(std::vector<Candidate>& out, const Scenario& s, const Calibration& c, bool fits,
    const std::atomic<bool>* cancel)
{
    // FP8 where the GPU has it and the run trains in 16 bits.
    if ((s.training.precision == Precision::BF16 || s.training.precision == Precision::FP16) && s.hardware.supports(Precision::FP8)) {
        Scenario b = s;
        setPrecision(b, Precision::FP8);
        out.push_back({ "train in FP8", b, "changes the numerics: validate the loss", Suggestion::Kind::Precision });
    }
    // A plan that fits nowhere on these GPUs: the fewest more (doubling, up to 1,024 times
    // as many) on which the planner finds one that fits, with its fastest plan there.
    if (!fits) {
        SearchOptions more;
        more.topN = 1;
        more.cancel = cancel;
        for (long long gpus = s.cluster.gpus * 2; gpus <= s.cluster.gpus * 1024; gpus *= 2) {
            Scenario b = s;
            setField(b, "cluster.gpus", double(gpus));
            keepGpuCount(b);
            const SearchResult found = searchPlans(b, c, more);
            if (found.top.empty())
                continue;
            b.plan = found.top.front().plan;
            b.training.microBatch = found.top.front().microBatch;
            out.push_back({ formatCount(double(gpus)) + " GPUs, the fewest on which a plan fits: " + planText(b), b, "",
                Suggestion::Kind::Hardware });
            break;
        }
    }
    // Twice the GPUs (DP takes them), and a network twice as fast.
    {
        Scenario b = s;
        setField(b, "cluster.gpus", double(s.cluster.gpus * 2));
        keepGpuCount(b);
        // Each replica takes half the samples when the batch leaves no room for more replicas.
        if (microbatchesPerStep(b) == 0 && b.training.microBatch % 2 == 0)
            setField(b, "training.micro_batch", b.training.microBatch / 2);
        out.push_back({ "twice the GPUs (" + formatCount(double(b.cluster.gpus)) + ", data parallelism " + std::to_string(b.plan.dp) + ")", b, "",
            Suggestion::Kind::Hardware });
    }
    if (s.cluster.scaleOutBandwidth > 0) {
        Scenario b = s;
        setField(b, "cluster.scale_out_bandwidth", 2 * s.cluster.scaleOutBandwidth);
        out.push_back({ "a scale-out network twice as fast (" + formatRate(2 * s.cluster.scaleOutBandwidth) + " per GPU)", b,
            "a faster NIC tier: price it on the Cost tab", Suggestion::Kind::Hardware });
    }
}

// The vendor's next generation or two, at the same count and plan: the best that fits.
// Not on a shipped topology: that machine's network does not come with another GPU,
// and no --set could name the hand-made one the switch leaves. Nor when the scenario
// overrides its GPU's catalogue figures (a power cap, a memory size): the new part
// drops them, and no --set can clear them, so the suggestion could not be reproduced.
void addNextGenerationCandidates(std::vector<Candidate>& out, const Scenario& s, const std::vector<HardwareSpec>& catalog)
{
    const auto listed = std::find_if(catalog.begin(), catalog.end(), [&](const HardwareSpec& h) { return h.id == s.hardware.id; });
    const bool catalogueGpu = listed != catalog.end() && *listed == s.hardware;
    for (const HardwareSpec& h : catalog) {
        if (!s.cluster.topology.empty() || !catalogueGpu)
            break;
        if (h.id == s.hardware.id || h.vendor != s.hardware.vendor || h.launchYear <= s.hardware.launchYear
            || h.launchYear > s.hardware.launchYear + 2)
            continue;
        Scenario b = s;
        switchGpu(b, h);
        out.push_back({ "the same plan on " + h.name + " (new hardware: compare prices on the Cost tab)", b, "gpu", Suggestion::Kind::Hardware });
    }
}

// Gradient compression, where the data-parallel sync holds the step up: at least this
// share of the step is exposed DP communication (a tenth: below it, halving the sync
// gains under 5%, less than PowerSGD's and 1-bit's own GPU time in most runs).
constexpr double kExposedDpShareForCompression = 0.10;

// The methods the plan's framework can run (grad_compression.h refuses the rest):
// FP8 under any ZeRO stage; PowerSGD (rank 4) and 1-bit Adam without ZeRO.
void addCompressionCandidates(std::vector<Candidate>& out, const Scenario& s, const Report& base)
{
    const double step = base.step.stepTime;
    const double exposed = base.step.breakdown.exposedComm[int(CommGroup::DP)];
    if (s.training.gradCompression != GradCompression::None || !(step > 0) || exposed < kExposedDpShareForCompression * step)
        return;
    const std::string why = "data-parallel communication is " + percent(exposed / step)
        + " of the step; the published runs converged in the same tokens (docs/model.md, \"Gradient compression\")";
    const struct {
        GradCompression method;
        const char* title;
    } methods[] = {
        { GradCompression::Fp8, "FP8 gradient communication (MS-AMP / FP8-LM)" },
        { GradCompression::PowerSgd, "PowerSGD gradient compression, rank 4 (a DDP communication hook)" },
        { GradCompression::OneBit, "1-bit Adam (DeepSpeed), after a 15% warm-up" },
    };
    for (const auto& m : methods) {
        Scenario b = s;
        setField(b, "training.grad_compression", double(int(m.method)));
        if (gradCompressionRefused(b))
            continue;
        out.push_back({ m.title, b, why, Suggestion::Kind::Precision });
    }
}

// Every change worth simulating, in the order they are listed when their gains tie.
// `base`: the scenario as it stands (when it does not fit in memory, the candidates
// include the changes that only a plan short of memory needs).
std::vector<Candidate> candidates(const Scenario& s, const Calibration& c, const std::vector<HardwareSpec>& catalog, const Report& base,
    const std::atomic<bool>* cancel)
{
    const bool fits = base.step.memory.fits;
    std::vector<Candidate> out;
    addPlanCandidates(out, s, c, cancel);
    addWidthPaddingCandidates(out, s);
    addShardingAndOverlapCandidates(out, s, fits);
    addOffloadCandidates(out, s, fits);
    if (fits)
        addCompressionCandidates(out, s, base);
    addPrecisionAndScaleCandidates(out, s, c, fits, cancel);
    addNextGenerationCandidates(out, s, catalog);
    return out;
}

} // namespace

Advice advise(const Scenario& s, const Calibration& c, const std::vector<HardwareSpec>& catalog, const std::atomic<bool>* cancel)
{
    Advice a;
    const Report base = predictRun(s, c);
    a.diagnosis = diagnose(s, base);
    a.timeToTrain = base.timeToTrain;
    a.gpuHours = base.gpuHours;
    // A plan that does not fit does not run: no regime, no gain; what makes it fit.
    a.fits = base.step.memory.fits;
    if (!a.fits) {
        a.diagnosis.regime = Regime::Memory;
        a.diagnosis.summary = "does not fit in memory: " + memoryShortfall(base.step.memory);
        a.diagnosis.reading = "no step runs until it fits: each change below makes it fit, fastest first";
    }
    Suggestion bestGpu;
    for (Candidate& cand : candidates(s, c, catalog, base, cancel)) {
        if (cancel && cancel->load())
            break;
        if (!fieldValueIssue(cand.scenario).field.empty() || checkScenario(cand.scenario))
            continue;
        const Report r = predictRun(cand.scenario, c);
        if (badQuantity(r) || !r.step.memory.fits || !(r.timeToTrain > 0))
            continue;
        Suggestion sg;
        sg.kind = cand.kind;
        sg.title = cand.title;
        sg.timeToTrain = r.timeToTrain;
        sg.gpuHours = r.gpuHours;
        sg.makesItFit = !a.fits;
        sg.gain = a.fits ? base.timeToTrain / r.timeToTrain - 1 : 0.0;
        sg.gpuHoursChange = a.fits && base.gpuHours > 0 ? r.gpuHours / base.gpuHours - 1 : 0.0;
        // The overrides that reproduce it; a new GPU brings its catalogue figures along.
        for (const FieldDifference& d : diffScenarios(s, cand.scenario))
            if (!(cand.note == "gpu" && d.path.starts_with("hardware.") && d.path != "hardware.gpu"))
                sg.sets.emplace_back(d.path, d.b);
        const bool gpuType = cand.note == "gpu";
        sg.note = gpuType ? std::string() : cand.note;
        // Against the scenario's deadline, where it has one and the change crosses it.
        const double deadline = s.training.deadline;
        if (deadline > 0 && (!a.fits || (base.timeToTrain > deadline) != (r.timeToTrain > deadline)))
            sg.note += std::string(sg.note.empty() ? "" : "; ") + (r.timeToTrain <= deadline ? "meets" : "misses") + " the "
                + formatDuration(deadline) + " deadline";
        sg.scenario = std::move(cand.scenario);
        if ((a.fits && sg.gain < 0.001) || sg.sets.empty())
            continue;
        if (gpuType) { // keep only the best other GPU
            if (bestGpu.sets.empty() || sg.timeToTrain < bestGpu.timeToTrain)
                bestGpu = std::move(sg);
            continue;
        }
        a.suggestions.push_back(std::move(sg));
    }
    if (!bestGpu.sets.empty())
        a.suggestions.push_back(std::move(bestGpu));
    // Fastest first (for a plan that runs, the same as the largest gain).
    std::stable_sort(a.suggestions.begin(), a.suggestions.end(), [](const Suggestion& x, const Suggestion& y) { return x.timeToTrain < y.timeToTrain; });
    return a;
}

} // namespace dtsim
