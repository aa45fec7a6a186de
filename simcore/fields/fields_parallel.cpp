// The `parallel` section.
#include "field_builder.h"
#include "field_tables.h"

#include <algorithm>

namespace dtsim::fields {

namespace {

// Every rank order, in one fixed order (the choice's values index it).
const std::vector<std::array<Axis, kAxisCount>>& rankOrders()
{
    static const std::vector<std::array<Axis, kAxisCount>> orders = [] {
        std::array<Axis, kAxisCount> axes { Axis::TP, Axis::CP, Axis::DP, Axis::PP };
        std::sort(axes.begin(), axes.end());
        std::vector<std::array<Axis, kAxisCount>> all;
        do
            all.push_back(axes);
        while (std::next_permutation(axes.begin(), axes.end()));
        return all;
    }();
    return orders;
}

std::vector<ChoiceName> rankOrderNames()
{
    std::vector<ChoiceName> names;
    const auto& orders = rankOrders();
    for (std::size_t i = 0; i < orders.size(); ++i) {
        std::string name;
        for (Axis a : orders[i])
            name += (name.empty() ? "" : "-") + std::string(axisName(a));
        names.push_back({ name, int(i) });
    }
    return names;
}

// First and last stage sizes are written together, or neither (an even split).
bool unevenStages(const Scenario& s, int) { return s.plan.firstStageLayers > 0 || s.plan.lastStageLayers > 0; }

Field degree(std::string path, int ParallelPlan::*member, std::string label, std::string tooltip)
{
    return std::move(integer(std::move(path)).byDefault("`1`").bind(&Scenario::plan, member)
                         .panel("Parallelism", std::move(label), 1, 65536, SliderScale::Powers2, std::move(tooltip)));
}

// The parallel degrees, and sequence parallelism with TP.
void addDegreeFields(std::vector<FieldDef>& f)
{
    f.push_back(degree("parallel.tp", &ParallelPlan::tp, "Tensor parallel (TP)",
        "Splits every layer's matrices; 2-4 collectives per layer on T h elements. Must divide heads.")
            .help("tensor parallel; divides heads, KV heads, FFN widths").shapesModelParallel());
    f.push_back(degree("parallel.pp", &ParallelPlan::pp, "Pipeline parallel (PP)", "Stages of consecutive layers; bubble (PP-1)/(v m).")
            .help("pipeline stages; <= layers (uneven splits allowed)").shapesModelParallel());
    f.push_back(degree("parallel.cp", &ParallelPlan::cp, "Context parallel (CP)",
        "Splits each sequence; ring attention passes K/V (CP-1) times per layer.")
            .help("context parallel; divides `seq_len`").shapesModelParallel());
    f.push_back(degree("parallel.dp", &ParallelPlan::dp, "Data parallel (DP)", "Model replicas; gradient all-reduce or reduce-scatter per step.")
            .byDefault("`gpus / (tp * pp * cp)`").help("data parallel")
            .derived([](const Scenario& s, int) {
                const long long model = static_cast<long long>(s.plan.tp) * s.plan.pp * s.plan.cp;
                if (model > 0 && s.cluster.gpus % model == 0)
                    return DerivedDefault::of(double(s.cluster.gpus / model));
                return DerivedDefault::fail("parallel", "tp*pp*cp = " + std::to_string(model) + " does not divide cluster.gpus = "
                        + std::to_string(s.cluster.gpus) + ", so dp cannot be derived");
            }));
    f.push_back(degree("parallel.ep", &ParallelPlan::ep, "Expert parallel (EP)",
        "Splits experts across data-parallel ranks; two all-to-alls per MoE layer each way.")
            .help("expert parallel; divides the experts, and `ep * expert_tp` divides `tp * cp * dp`"));
    f.push_back(integer("parallel.expert_tp").byDefault("`tp`")
            .help("the experts' own tensor-parallel degree (Megatron-Core's `--expert-tensor-parallel-size`); below `tp` the expert "
                  "layers fold the stage's TP x CP x DP ranks into expert-TP x EP x expert-DP (MoE parallel folding), so `ep` may "
                  "exceed `dp * cp`; must divide `moe.expert_ffn_hidden`")
            .bind(&Scenario::plan, &ParallelPlan::expertTp)
            .writtenWhen([](const Scenario& s, int) { return s.plan.expertTp > 0; })
            .panel("Parallelism", "Expert TP (0 = TP)", 0, 64, SliderScale::Linear,
                "The experts' own tensor-parallel degree. 0 splits them like attention (TP); smaller values fold the "
                "stage's TP x CP x DP ranks into expert-TP x EP x expert-DP, so EP may exceed DP x CP (MoE parallel folding)."));
    f.push_back(flag("parallel.sequence_parallel").byDefault("`false`").help("Megatron sequence parallelism with TP")
            .bind(&Scenario::plan, &ParallelPlan::sequenceParallel)
            .panel("Parallelism", "Sequence parallel", 0, 1, SliderScale::Linear,
                "Shards norms and dropout along the sequence within a TP group; same traffic as TP all-reduces."));
}

// The pipeline's schedule and how its stages split the layers.
void addPipelineFields(std::vector<FieldDef>& f)
{
    std::vector<ChoiceName> schedules;
    for (Schedule s : { Schedule::GPipe, Schedule::OneFOneB, Schedule::Interleaved1F1B, Schedule::DualPipe })
        schedules.push_back({ std::string(scheduleName(s)), int(s) });
    f.push_back(choice("parallel.schedule", std::move(schedules)).byDefault("`1f1b`")
            .help("pipeline schedule; `dualpipe` (DeepSeek-V3) needs an even `pp` and an even number of micro-batches, about halves "
                  "the bubble, hides the expert all-to-alls and keeps two copies of the parameters")
            .bind(&Scenario::plan, &ParallelPlan::schedule)
            .panel("Parallelism", "Pipeline schedule", 0, 3, SliderScale::Linear,
                "GPipe and 1F1B share the bubble (PP-1)/m; interleaving divides it by the virtual stages; "
                "DualPipe (DeepSeek-V3) feeds both ends, about halves it and hides the expert all-to-alls, "
                "at twice the parameter memory.")
            .labels({ "GPipe", "1F1B", "Interleaved 1F1B", "DualPipe" }));
    f.push_back(integer("parallel.virtual_stages").byDefault("`1`").help("model chunks per stage (interleaved only)")
            .bind(&Scenario::plan, &ParallelPlan::virtualStages)
            .panel("Parallelism", "Virtual stages", 1, 64, SliderScale::Linear, "Model chunks per pipeline rank (interleaved schedule only)."));
    f.push_back(integer("parallel.first_stage_layers").min(0).byDefault("`0` (even split)")
            .help("layers on the first pipeline stage, which also runs the embedding (Megatron-Core's "
                  "`--decoder-first-pipeline-num-layers`); set together with `last_stage_layers`; the middle stages split the rest evenly")
            .bind(&Scenario::plan, &ParallelPlan::firstStageLayers)
            .writtenWhen(unevenStages)
            .panel("Parallelism", "First-stage layers (0 = even)", 0, 1000, SliderScale::Linear,
                "Layers on the first pipeline stage, which also runs the embedding. Set with the last stage's: "
                "Llama 3 puts one layer fewer on each end (0 splits all stages evenly)."));
    f.push_back(integer("parallel.last_stage_layers").min(0).byDefault("`0` (even split)")
            .help("layers on the last stage, which also runs the output layer and the loss; Llama 3 puts 7 on each end of 126 "
                  "layers over 16 stages")
            .bind(&Scenario::plan, &ParallelPlan::lastStageLayers)
            .writtenWhen(unevenStages)
            .panel("Parallelism", "Last-stage layers (0 = even)", 0, 1000, SliderScale::Linear,
                "Layers on the last pipeline stage, which also runs the output layer and the loss."));
}

// What buys memory: sharding the states (ZeRO) and recomputing activations.
void addMemorySavingFields(std::vector<FieldDef>& f)
{
    f.push_back(integer("parallel.zero").min(0).typeText("0-3").byDefault("`0`").help("ZeRO stage / FSDP (3)")
            .bind(&Scenario::plan, &ParallelPlan::zeroStage)
            .check([](const Scenario&, double v, int) { return v > 3 ? "ZeRO stage must be 0, 1, 2 or 3" : ""; })
            .panel("Parallelism", "ZeRO stage", 0, 3, SliderScale::Linear, "Shards optimizer states, gradients and weights over the data-parallel ranks.")
            .labels({ "0: replicated", "1: optimizer states", "2: + gradients", "3: + weights (FSDP)" }));
    std::vector<ChoiceName> recomputes;
    for (Recompute r : kRecomputePolicies)
        recomputes.push_back({ std::string(recomputeName(r)), int(r) });
    f.push_back(choice("parallel.recompute", std::move(recomputes)).byDefault("`none`")
            .help("activation recomputation: `selective` is Megatron's (core attention only); `per-op` is torchtitan's per-op "
                  "checkpointing (backward reruns the elementwise ops and the unsaved matmuls it needs: wk and w3, or under FP8 "
                  "wq, wk, wv, w1 and w3; eager stacks add wo); `projections` keeps the Q/K/V and output projections' outputs "
                  "(MaxText's custom remat policy) and reruns the norms, the attention core and the MLP but its down projection")
            .bind(&Scenario::plan, &ParallelPlan::recompute)
            .panel("Parallelism", "Recomputation", 0, 4, SliderScale::Linear,
                "Full recomputation keeps only each layer's input and reruns its forward in backward (+1/3 compute). "
                "Per-op (torchtitan) saves matmul outputs but every second one, and reruns those and the elementwise ops. "
                "Projections (MaxText) keeps the attention projections' outputs and reruns the attention core and the MLP's "
                "input projections."));
    f.push_back(integer("parallel.recompute_layers").min(0).byDefault("`0`")
            .help("with `recompute: full`, how many layers of each stage recompute (Megatron's `--recompute-num-layers` with the "
                  "block method); `0` = all")
            .bind(&Scenario::plan, &ParallelPlan::recomputeLayers)
            .writtenWhen([](const Scenario& s, int) { return s.plan.recomputeLayers > 0; })
            .panel("Parallelism", "Recomputed layers", 0, 1000, SliderScale::Linear,
                "With full recomputation: how many layers of each pipeline stage rerun their forward (0 = all). "
                "Fewer layers cost less time and keep more activations."));
}

// Where the collectives run and how: the rank order, the overlap switches, token dispatch
// and two-dimensional TP.
void addCommunicationFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("parallel.order", rankOrderNames()).typeText("e.g. `tp-cp-pp-dp`").byDefault("`tp-cp-pp-dp`")
            .choices(rankOrderNames(), "must list tp, cp, dp and pp once each, innermost first, e.g. tp-cp-dp-pp")
            .help("rank layout, innermost first (TP innermost, DP outermost by default)")
            .access(
                [](const Scenario& s, int) {
                    const auto& orders = rankOrders();
                    return double(std::find(orders.begin(), orders.end(), s.plan.order) - orders.begin());
                },
                [](Scenario& s, double v, int) {
                    const auto& orders = rankOrders();
                    s.plan.order = orders[std::size_t(std::clamp<long>(std::lround(v), 0, long(orders.size()) - 1))];
                })
            .panel("Parallelism", "Rank order (innermost first)", 0, 23, SliderScale::Linear,
                "Which groups get consecutive ranks: the innermost stays inside a node, the outermost crosses the most switch tiers."));
    f.push_back(flag("parallel.overlap_grad_reduce").byDefault("`true`").help("hide DP reduction behind backward")
            .bind(&Scenario::plan, &ParallelPlan::overlapGradReduce));
    f.push_back(flag("parallel.overlap_param_gather").byDefault("`true`").help("hide ZeRO all-gather behind forward")
            .bind(&Scenario::plan, &ParallelPlan::overlapParamGather));
    f.push_back(flag("parallel.tp_comm_overlap").byDefault("`false`").help("pipeline TP collectives with GEMMs")
            .bind(&Scenario::plan, &ParallelPlan::tpCommOverlap));
    f.push_back(flag("parallel.tp_comm_overlap_backward").byDefault("`true`")
            .help("the overlap covers the backward pass too (Transformer Engine's userbuffers); `false` for PyTorch's async TP, "
                  "which micro-pipelines the forward only")
            .bind(&Scenario::plan, &ParallelPlan::tpCommOverlapBackward)
            .writtenWhen([](const Scenario& s, int) { return !s.plan.tpCommOverlapBackward; }));
    f.push_back(flag("parallel.overlap_ep_comm").byDefault("`false`")
            .help("hide expert-parallel all-to-alls behind another micro-batch's compute (Megatron-Core's "
                  "`--overlap-moe-expert-parallel-comm`, DeepSeek-V3's DualPipe); the pipeline's warm-up and cool-down micro-batches "
                  "run without a partner")
            .bind(&Scenario::plan, &ParallelPlan::epCommOverlap)
            .writtenWhen([](const Scenario& s, int) { return s.plan.epCommOverlap; })
            .panel("Parallelism", "Overlap EP all-to-alls", 0, 1, SliderScale::Linear,
                "A micro-batch's expert all-to-alls run under another micro-batch's compute "
                "(Megatron-Core --overlap-moe-expert-parallel-comm, DeepSeek-V3's DualPipe)."));
    f.push_back(choice("parallel.ep_dispatcher", { { "alltoall", 0 }, { "deepep", 1 } }).byDefault("`alltoall`")
            .help("`deepep`: a token crosses the scale-out network once per node that holds any of its experts and is forwarded over "
                  "NVLink (DeepEP, HybridEP); `alltoall` sends one copy per chosen expert")
            .bind(&Scenario::plan, &ParallelPlan::epNodeDispatch)
            .writtenWhen([](const Scenario& s, int) { return s.plan.epNodeDispatch; })
            .panel("Parallelism", "Token dispatch", 0, 1, SliderScale::Linear,
                "Per node (DeepEP, HybridEP): tokens cross the scale-out network once per destination node and are forwarded "
                "over NVLink, not once per chosen expert.")
            .labels({ "all-to-all per expert", "per node (DeepEP)" }));
    f.push_back(flag("parallel.tp_2d").byDefault("`false`")
            .help("two-dimensional TP: weights split a x b (a the largest divisor of tp not above its square root); heads must divide by b")
            .bind(&Scenario::plan, &ParallelPlan::tp2d));
}

// parallel.diloco: workers that synchronize every inner_steps steps (parallel.h, DilocoSpec).
void addDilocoFields(std::vector<FieldDef>& f)
{
    f.push_back(integer("parallel.diloco.workers").required().byDefault("required")
            .help("groups of data-parallel replicas (datacenters, islands) that reduce gradients among themselves every step; "
                  "must divide `dp`; the published token cost covers 1 to 8")
            .bind(&Scenario::plan, &ParallelPlan::diloco, &DilocoSpec::workers)
            .check([](const Scenario& s, double v, int) -> std::string {
                return s.plan.dp % static_cast<long long>(v) == 0 ? std::string()
                                                                 : "must divide parallel.dp = " + std::to_string(s.plan.dp);
            }));
    f.push_back(integer("parallel.diloco.inner_steps").byDefault("`30`")
            .help("optimizer steps between outer synchronizations (H); the token cost is from fits at H = 30")
            .bind(&Scenario::plan, &ParallelPlan::diloco, &DilocoSpec::innerSteps));
    f.push_back(flag("parallel.diloco.streaming").byDefault("`false`")
            .help("Streaming DiLoCo: the outer gradient goes in fragments under the next inner steps' compute instead of "
                  "stopping the workers")
            .bind(&Scenario::plan, &ParallelPlan::diloco, &DilocoSpec::streaming));
    std::vector<ChoiceName> formats;
    for (Precision p : { Precision::FP32, Precision::BF16, Precision::FP8, Precision::FP4 })
        formats.push_back({ std::string(precisionName(p)), int(p) });
    f.push_back(choice("parallel.diloco.outer_precision", std::move(formats)).byDefault("`fp32`")
            .help("format of the outer gradient on the wire (Streaming DiLoCo sends fp4)")
            .bind(&Scenario::plan, &ParallelPlan::diloco, &DilocoSpec::outerPrecision));
}

// parallel.offload: where state lives when it leaves GPU memory (parallel.h, OffloadSpec).
std::vector<ChoiceName> offloadTargets(bool nvme)
{
    std::vector<ChoiceName> t { { "none", int(OffloadTarget::None) }, { "cpu", int(OffloadTarget::Cpu) } };
    if (nvme)
        t.push_back({ "nvme", int(OffloadTarget::Nvme) });
    return t;
}

void addOffloadFields(std::vector<FieldDef>& f)
{
    f.push_back(choice("parallel.offload.optimizer", offloadTargets(true)).byDefault("`none`")
            .help("fp32 master weights and moments in CPU memory or on NVMe; the optimizer step runs on the CPU "
                  "(ZeRO-Offload, ZeRO-Infinity, Megatron's --optimizer-cpu-offload)")
            .bind(&Scenario::plan, &ParallelPlan::offload, &OffloadSpec::optimizer)
            .writtenWhen([](const Scenario& s, int) { return s.plan.offload.optimizer != OffloadTarget::None; })
            .panel("Parallelism", "Offload optimizer", 0, 2, SliderScale::Linear,
                "Optimizer states to CPU memory or NVMe; the step runs on the CPU and its copies cross the host link.")
            .labels({ "on the GPU", "CPU memory", "NVMe" }));
    f.push_back(quantity("parallel.offload.optimizer_fraction", Dimension::Count, "", Bound::Positive).typeText("0-1")
            .byDefault("`1`").help("share of the optimizer states offloaded (Megatron's --optimizer-offload-fraction)")
            .bind(&Scenario::plan, &ParallelPlan::offload, &OffloadSpec::optimizerFraction)
            .check([](const Scenario&, double v, int) -> std::string { return v <= 1 ? std::string() : "must be at most 1"; })
            .writtenWhen([](const Scenario& s, int) { return s.plan.offload.optimizerFraction != 1; }));
    f.push_back(choice("parallel.offload.gradients", offloadTargets(false)).byDefault("`none`")
            .help("gradients streamed to CPU memory during backward and accumulated there (DeepSpeed's offload_optimizer "
                  "does this); needs the optimizer offloaded")
            .bind(&Scenario::plan, &ParallelPlan::offload, &OffloadSpec::gradients)
            .writtenWhen([](const Scenario& s, int) { return s.plan.offload.gradients != OffloadTarget::None; })
            .panel("Parallelism", "Offload gradients", 0, 1, SliderScale::Linear, "Gradients to CPU memory as backward makes them.")
            .labels({ "on the GPU", "CPU memory" }));
    f.push_back(choice("parallel.offload.parameters", offloadTargets(true)).byDefault("`none`")
            .help("ZeRO-3's parameter shard in CPU memory or on NVMe, fetched before each gather (ZeRO-Infinity's offload_param); "
                  "needs `zero: 3`")
            .bind(&Scenario::plan, &ParallelPlan::offload, &OffloadSpec::parameters)
            .writtenWhen([](const Scenario& s, int) { return s.plan.offload.parameters != OffloadTarget::None; })
            .panel("Parallelism", "Offload parameters", 0, 2, SliderScale::Linear,
                "ZeRO-3's parameter shard to CPU memory or NVMe, copied in before every gather.")
            .labels({ "on the GPU", "CPU memory", "NVMe" }));
    f.push_back(choice("parallel.offload.activations", offloadTargets(false)).byDefault("`none`")
            .help("saved activations copied to CPU memory in forward and back in backward (Transformer Engine's cpu_offloading)")
            .bind(&Scenario::plan, &ParallelPlan::offload, &OffloadSpec::activations)
            .writtenWhen([](const Scenario& s, int) { return s.plan.offload.activations != OffloadTarget::None; })
            .panel("Parallelism", "Offload activations", 0, 1, SliderScale::Linear, "Saved activations to CPU memory until backward.")
            .labels({ "on the GPU", "CPU memory" }));
}

} // namespace

// In declaration order, which the docs and the derived defaults follow.
void addParallelFields(std::vector<FieldDef>& f)
{
    addDegreeFields(f);
    addPipelineFields(f);
    addMemorySavingFields(f);
    addCommunicationFields(f);
    addDilocoFields(f);
    addOffloadFields(f);

    // A layer table runs data parallel with its channel split over TP (layers/layer_step.h):
    // the pipeline, context, expert and sequence splits, recomputation and the TP overlap
    // switches belong to transformers.
    for (FieldDef& d : f)
        for (const char* path : { "parallel.pp", "parallel.cp", "parallel.ep", "parallel.ep_dispatcher", "parallel.expert_tp",
                 "parallel.first_stage_layers", "parallel.last_stage_layers", "parallel.overlap_ep_comm", "parallel.recompute",
                 "parallel.recompute_layers", "parallel.schedule", "parallel.sequence_parallel", "parallel.tp_2d",
                 "parallel.tp_comm_overlap", "parallel.tp_comm_overlap_backward", "parallel.virtual_stages" })
            if (d.path == path)
                d.model = ModelKind::Transformer;
}

} // namespace dtsim::fields
