#include "parameter_fields.h"

#include "simcore/sched/cluster_sim.h"

#include "simcore/model.h"

#include <algorithm>
#include <cmath>

namespace dtsim::gui {

namespace {

FieldSpec integer(QString id, QString group, QString label, double min, double max, bool log, QString tip,
    std::function<double(const Scenario&)> get, std::function<void(Scenario&, double)> set)
{
    FieldSpec f;
    f.id = std::move(id);
    f.group = std::move(group);
    f.label = std::move(label);
    f.kind = FieldKind::Integer;
    f.min = min;
    f.max = max;
    f.logScale = log;
    f.tooltip = std::move(tip);
    f.get = std::move(get);
    f.set = std::move(set);
    return f;
}

FieldSpec real(QString id, QString group, QString label, QString unit, double scale, double min, double max, bool log,
    QString tip, std::function<double(const Scenario&)> get, std::function<void(Scenario&, double)> set)
{
    FieldSpec f = integer(std::move(id), std::move(group), std::move(label), min, max, log, std::move(tip), std::move(get),
        std::move(set));
    f.kind = FieldKind::Real;
    f.unit = std::move(unit);
    f.displayScale = scale;
    return f;
}

FieldSpec choice(QString id, QString group, QString label, QStringList choices, QString tip,
    std::function<double(const Scenario&)> get, std::function<void(Scenario&, double)> set)
{
    FieldSpec f = integer(std::move(id), std::move(group), std::move(label), 0, choices.size() - 1, false, std::move(tip),
        std::move(get), std::move(set));
    f.kind = FieldKind::Choice;
    f.choices = std::move(choices);
    return f;
}

FieldSpec flag(QString id, QString group, QString label, QString tip, std::function<double(const Scenario&)> get,
    std::function<void(Scenario&, double)> set)
{
    FieldSpec f = integer(std::move(id), std::move(group), std::move(label), 0, 1, false, std::move(tip), std::move(get),
        std::move(set));
    f.kind = FieldKind::Flag;
    return f;
}

int toInt(double v) { return static_cast<int>(std::lround(v)); }

} // namespace

std::vector<FieldSpec> scenarioFields(const std::vector<HardwareSpec>& catalog, const std::vector<std::string>& regions)
{
    std::vector<FieldSpec> f;
    // --- Model ---------------------------------------------------------------------
    f.push_back(integer("model.layers", "Model", "Layers", 1, 1024, true,
        "Transformer blocks. Parameters grow linearly with layers; pipeline stages hold ceil(layers / PP) each.",
        [](const Scenario& s) { return s.model.layers; }, [](Scenario& s, double v) { s.model.layers = toInt(v); }));
    f.push_back(integer("model.hidden", "Model", "Hidden size", 64, 131072, true,
        "Model width h. Dense parameters grow as 12 l h^2; GEMM sizes and TP traffic (T h per collective) scale with it.",
        [](const Scenario& s) { return s.model.hidden; },
        [](Scenario& s, double v) {
            s.model.hidden = toInt(v);
            s.model.headDim = std::max(1, s.model.hidden / std::max(1, s.model.heads));
        }));
    f.push_back(integer("model.heads", "Model", "Attention heads", 1, 1024, true,
        "Query heads; TP must divide them. head_dim = hidden / heads.",
        [](const Scenario& s) { return s.model.heads; },
        [](Scenario& s, double v) {
            s.model.heads = toInt(v);
            s.model.headDim = std::max(1, s.model.hidden / std::max(1, s.model.heads));
            if (s.model.kvHeads > s.model.heads || s.model.heads % s.model.kvHeads != 0)
                s.model.kvHeads = s.model.heads;
        }));
    f.push_back(integer("model.kv_heads", "Model", "KV heads", 1, 1024, true,
        "Key/value heads: equal to heads for MHA, fewer for GQA, 1 for MQA. Must divide heads.",
        [](const Scenario& s) { return s.model.kvHeads; }, [](Scenario& s, double v) { s.model.kvHeads = toInt(v); }));
    f.push_back(integer("model.ffn_hidden", "Model", "FFN size", 64, 524288, true,
        "MLP inner width (4 h for GPT, ~3.5 h for SwiGLU models).",
        [](const Scenario& s) { return s.model.ffnHidden; }, [](Scenario& s, double v) { s.model.ffnHidden = toInt(v); }));
    f.push_back(integer("model.vocab", "Model", "Vocabulary", 256, 1048576, true,
        "Tokens in the vocabulary; the logits GEMM costs 2 h V FLOPs per token.",
        [](const Scenario& s) { return s.model.vocab; }, [](Scenario& s, double v) { s.model.vocab = toInt(v); }));
    f.push_back(integer("model.moe.experts", "Model", "Experts (0 = dense)", 0, 512, false,
        "Routed experts per MoE layer. 0 makes the model dense.",
        [](const Scenario& s) { return s.model.moe.experts; },
        [](Scenario& s, double v) {
            s.model.moe.experts = toInt(v);
            if (s.model.moe.experts > 0) {
                s.model.moe.topK = std::clamp(s.model.moe.topK, 1, s.model.moe.experts);
                if (s.model.moe.expertFfnHidden == 0)
                    s.model.moe.expertFfnHidden = s.model.ffnHidden;
            } else {
                s.plan.ep = 1;
            }
        }));
    f.push_back(integer("model.moe.top_k", "Model", "Experts per token", 1, 16, false,
        "Routed experts each token visits (top-k); active FFN work scales with it.",
        [](const Scenario& s) { return s.model.moe.topK; }, [](Scenario& s, double v) { s.model.moe.topK = toInt(v); }));

    // --- Batch ---------------------------------------------------------------------
    f.push_back(integer("training.global_batch", "Batch", "Global batch (seqs)", 1, 1 << 24, true,
        "Sequences per optimizer step. Micro-batches per replica = global / (DP x micro).",
        [](const Scenario& s) { return s.training.globalBatch; }, [](Scenario& s, double v) { s.training.globalBatch = toInt(v); }));
    f.push_back(integer("training.micro_batch", "Batch", "Micro-batch (seqs)", 1, 512, true,
        "Sequences per forward/backward pass; larger ones raise GEMM efficiency and activation memory.",
        [](const Scenario& s) { return s.training.microBatch; }, [](Scenario& s, double v) { s.training.microBatch = toInt(v); }));
    f.push_back(integer("training.seq_len", "Batch", "Sequence length", 64, 1 << 20, true,
        "Tokens per sequence. Attention FLOPs grow as s^2 per sequence.",
        [](const Scenario& s) { return s.training.seqLen; }, [](Scenario& s, double v) { s.training.seqLen = toInt(v); }));

    // --- Parallelism ---------------------------------------------------------------
    auto degree = [&](QString id, QString label, QString tip, int ParallelPlan::*field) {
        return integer(std::move(id), "Parallelism", std::move(label), 1, 65536, true, std::move(tip),
            [field](const Scenario& s) { return s.plan.*field; }, [field](Scenario& s, double v) { s.plan.*field = toInt(v); });
    };
    f.push_back(degree("parallel.tp", "Tensor parallel (TP)", "Splits every layer's matrices; 2-4 collectives per layer on T h elements. Must divide heads.", &ParallelPlan::tp));
    f.push_back(degree("parallel.pp", "Pipeline parallel (PP)", "Stages of consecutive layers; bubble (PP-1)/(v m).", &ParallelPlan::pp));
    f.push_back(degree("parallel.dp", "Data parallel (DP)", "Model replicas; gradient all-reduce or reduce-scatter per step.", &ParallelPlan::dp));
    f.push_back(degree("parallel.cp", "Context parallel (CP)", "Splits each sequence; ring attention passes K/V (CP-1) times per layer.", &ParallelPlan::cp));
    f.push_back(degree("parallel.ep", "Expert parallel (EP)", "Splits experts across data-parallel ranks; two all-to-alls per MoE layer each way.", &ParallelPlan::ep));
    f.push_back(integer("parallel.expert_tp", "Parallelism", "Expert TP (0 = TP)", 0, 64, false,
        "The experts' own tensor-parallel degree. 0 splits them like attention (TP); smaller values fold the "
        "stage's TP x CP x DP ranks into expert-TP x EP x expert-DP, so EP may exceed DP x CP (MoE parallel folding).",
        [](const Scenario& s) { return s.plan.expertTp; }, [](Scenario& s, double v) { s.plan.expertTp = toInt(v); }));
    f.push_back(choice("parallel.schedule", "Parallelism", "Pipeline schedule", { "GPipe", "1F1B", "Interleaved 1F1B", "DualPipe" },
        "GPipe and 1F1B share the bubble (PP-1)/m; interleaving divides it by the virtual stages; "
        "DualPipe (DeepSeek-V3) feeds both ends, about halves it and hides the expert all-to-alls, "
        "at twice the parameter memory.",
        [](const Scenario& s) { return int(s.plan.schedule); }, [](Scenario& s, double v) { s.plan.schedule = Schedule(toInt(v)); }));
    f.push_back(integer("parallel.virtual_stages", "Parallelism", "Virtual stages", 1, 64, false,
        "Model chunks per pipeline rank (interleaved schedule only).",
        [](const Scenario& s) { return s.plan.virtualStages; }, [](Scenario& s, double v) { s.plan.virtualStages = toInt(v); }));
    f.push_back(integer("parallel.first_stage_layers", "Parallelism", "First-stage layers (0 = even)", 0, 1000, false,
        "Layers on the first pipeline stage, which also runs the embedding. Set with the last stage's: "
        "Llama 3 puts one layer fewer on each end (0 splits all stages evenly).",
        [](const Scenario& s) { return s.plan.firstStageLayers; }, [](Scenario& s, double v) { s.plan.firstStageLayers = toInt(v); }));
    f.push_back(integer("parallel.last_stage_layers", "Parallelism", "Last-stage layers (0 = even)", 0, 1000, false,
        "Layers on the last pipeline stage, which also runs the output layer and the loss.",
        [](const Scenario& s) { return s.plan.lastStageLayers; }, [](Scenario& s, double v) { s.plan.lastStageLayers = toInt(v); }));
    f.push_back(choice("parallel.zero", "Parallelism", "ZeRO stage", { "0: replicated", "1: optimizer states", "2: + gradients", "3: + weights (FSDP)" },
        "Shards optimizer states, gradients and weights over the data-parallel ranks.",
        [](const Scenario& s) { return s.plan.zeroStage; }, [](Scenario& s, double v) { s.plan.zeroStage = toInt(v); }));
    f.push_back(choice("parallel.recompute", "Parallelism", "Recomputation", { "none", "selective", "full", "per-op" },
        "Full recomputation keeps only each layer's input and reruns its forward in backward (+1/3 compute). "
        "Per-op (torchtitan) saves matmul outputs but every second one, and reruns those and the elementwise ops.",
        [](const Scenario& s) { return int(s.plan.recompute); }, [](Scenario& s, double v) { s.plan.recompute = Recompute(toInt(v)); }));
    f.push_back(integer("parallel.recompute_layers", "Parallelism", "Recomputed layers", 0, 1000, false,
        "With full recomputation: how many layers of each pipeline stage rerun their forward (0 = all). "
        "Fewer layers cost less time and keep more activations.",
        [](const Scenario& s) { return s.plan.recomputeLayers; }, [](Scenario& s, double v) { s.plan.recomputeLayers = toInt(v); }));
    // Rank layout: which groups get consecutive ranks (and so the fastest levels).
    {
        std::array<Axis, kAxisCount> axes { Axis::TP, Axis::CP, Axis::PP, Axis::DP };
        std::vector<std::array<Axis, kAxisCount>> orders;
        std::sort(axes.begin(), axes.end());
        do
            orders.push_back(axes);
        while (std::next_permutation(axes.begin(), axes.end()));
        QStringList names;
        for (const auto& o : orders) {
            QStringList parts;
            for (Axis a : o)
                parts << QString::fromUtf8(axisName(a).data());
            names << parts.join('-');
        }
        f.push_back(choice("parallel.order", "Parallelism", "Rank order (innermost first)", names,
            "Which groups get consecutive ranks: the innermost stays inside a node, the outermost crosses the most switch tiers.",
            [orders](const Scenario& s) {
                for (std::size_t i = 0; i < orders.size(); ++i)
                    if (orders[i] == s.plan.order)
                        return double(i);
                return 0.0;
            },
            [orders](Scenario& s, double v) { s.plan.order = orders[std::size_t(std::clamp(toInt(v), 0, int(orders.size()) - 1))]; }));
    }
    f.push_back(flag("parallel.sequence_parallel", "Parallelism", "Sequence parallel",
        "Shards norms and dropout along the sequence within a TP group; same traffic as TP all-reduces.",
        [](const Scenario& s) { return s.plan.sequenceParallel ? 1 : 0; }, [](Scenario& s, double v) { s.plan.sequenceParallel = v > 0.5; }));
    f.push_back(flag("parallel.overlap_ep_comm", "Parallelism", "Overlap EP all-to-alls",
        "A micro-batch's expert all-to-alls run under another micro-batch's compute "
        "(Megatron-Core --overlap-moe-expert-parallel-comm, DeepSeek-V3's DualPipe).",
        [](const Scenario& s) { return s.plan.epCommOverlap ? 1 : 0; }, [](Scenario& s, double v) { s.plan.epCommOverlap = v > 0.5; }));
    f.push_back(flag("parallel.ep_dispatcher", "Parallelism", "Per-node token dispatch (DeepEP)",
        "Tokens cross the scale-out network once per destination node and are forwarded over NVLink "
        "(DeepEP, HybridEP), not once per chosen expert.",
        [](const Scenario& s) { return s.plan.epNodeDispatch ? 1 : 0; }, [](Scenario& s, double v) { s.plan.epNodeDispatch = v > 0.5; }));

    // --- Hardware ------------------------------------------------------------------
    QStringList gpus;
    for (const HardwareSpec& h : catalog)
        gpus << QString::fromStdString(h.id);
    std::vector<HardwareSpec> cat = catalog;
    f.push_back(choice("hardware.gpu", "Hardware", "GPU", gpus, "Accelerator from the catalogue (resources/hardware).",
        [cat](const Scenario& s) {
            for (std::size_t i = 0; i < cat.size(); ++i)
                if (cat[i].id == s.hardware.id)
                    return double(i);
            return 0.0;
        },
        [cat](Scenario& s, double v) {
            const std::size_t i = std::min<std::size_t>(cat.size() - 1, std::size_t(std::max(0, toInt(v))));
            s.hardware = cat[i];
            s.cluster.scaleUpDomain = cat[i].scaleUpDomain;
            s.cluster.gpusPerNode = std::min(8, cat[i].scaleUpDomain);
            s.cluster.scaleUpBandwidth = cat[i].scaleUpBandwidth;
            s.cluster.scaleUpLatency = cat[i].scaleUpLatency;
            s.cluster.scaleOutBandwidth = cat[i].scaleOutBandwidth;
            s.cluster.scaleOutLatency = cat[i].scaleOutLatency;
            if (!s.hardware.supports(s.training.precision))
                for (Precision p : { Precision::BF16, Precision::FP16, Precision::FP32 })
                    if (s.hardware.supports(p)) {
                        s.training.precision = p;
                        break;
                    }
        }));
    f.push_back(integer("cluster.gpus", "Hardware", "GPUs", 1, 1 << 24, true,
        "GPUs in the job; must equal TP x PP x DP x CP.",
        [](const Scenario& s) { return double(s.cluster.gpus); }, [](Scenario& s, double v) { s.cluster.gpus = std::llround(v); }));
    f.push_back(integer("cluster.gpus_per_node", "Hardware", "GPUs per node", 1, 72, false,
        "GPUs in one server.",
        [](const Scenario& s) { return s.cluster.gpusPerNode; }, [](Scenario& s, double v) { s.cluster.gpusPerNode = toInt(v); }));
    f.push_back(choice("training.precision", "Hardware", "Precision", { "fp32", "tf32", "bf16", "fp16", "fp8", "fp4" },
        "Number format of the GEMMs; MFU is measured against this format's dense peak.",
        [](const Scenario& s) { return int(s.training.precision); }, [](Scenario& s, double v) {
            s.training.precision = Precision(toInt(v));
            // Keep the scaling recipe one that computes in the new format.
            if (isScaledLowPrecision(s.training.precision) && recipePrecision(s.training.scaling) != s.training.precision)
                s.training.scaling = s.training.precision == Precision::FP4 ? ScalingRecipe::Nvfp4 : ScalingRecipe::Tensorwise;
        }));
    f.push_back(choice("training.scaling", "Hardware", "FP8/FP4 scaling", { "tensorwise", "rowwise", "blockwise", "mxfp8", "nvfp4" },
        "How an FP8/FP4 recipe scales its tensors: per tensor (Transformer Engine, torchao tensorwise), per row "
        "(torchao rowwise: slower GEMMs), per 1x128/128x128 block (DeepSeek-V3), MXFP8 and NVFP4 blocks (Blackwell). "
        "Ignored by 16- and 32-bit runs.",
        [](const Scenario& s) { return int(s.training.scaling); }, [](Scenario& s, double v) { s.training.scaling = ScalingRecipe(toInt(v)); }));
    f.push_back(flag("training.graph_capture", "Hardware", "Captured step (CUDA graphs, XLA)",
        "The step runs as one captured graph, so the host does not issue kernels one by one. "
        "Off: each kernel costs host time, which bounds small layers.",
        [](const Scenario& s) { return s.training.graphCapture ? 1 : 0; }, [](Scenario& s, double v) { s.training.graphCapture = v > 0.5; }));

    // --- Network -------------------------------------------------------------------
    f.push_back(integer("cluster.scale_up_domain", "Network", "Scale-up domain", 1, 576, true,
        "GPUs on one NVLink/NVSwitch (or PCIe) fabric: 8 for HGX, 72 for NVL72.",
        [](const Scenario& s) { return s.cluster.scaleUpDomain; }, [](Scenario& s, double v) { s.cluster.scaleUpDomain = toInt(v); }));
    f.push_back(real("cluster.scale_up_bandwidth", "Network", "Scale-up bandwidth", "GB/s", 1e9, 1, 10000, true,
        "Per GPU, per direction. Collectives inside a domain run at this rate times the bus efficiency.",
        [](const Scenario& s) { return s.cluster.scaleUpBandwidth; }, [](Scenario& s, double v) { s.cluster.scaleUpBandwidth = v; }));
    f.push_back(real("cluster.scale_out_bandwidth", "Network", "Scale-out bandwidth", "Gb/s", 1e9 / 8, 1, 10000, true,
        "Per GPU (its NIC share), per direction. Used by collectives that leave the scale-up domain.",
        [](const Scenario& s) { return s.cluster.scaleOutBandwidth; }, [](Scenario& s, double v) { s.cluster.scaleOutBandwidth = v; }));
    f.push_back(real("cluster.scale_up_latency", "Network", "Scale-up latency", "us", 1e-6, 0.1, 1000, true,
        "The alpha of every message step inside a domain.",
        [](const Scenario& s) { return s.cluster.scaleUpLatency; }, [](Scenario& s, double v) { s.cluster.scaleUpLatency = v; }));
    f.push_back(real("cluster.scale_out_latency", "Network", "Scale-out latency", "us", 1e-6, 0.1, 10000, true,
        "The alpha of every message step across the network; it sets the latency wall.",
        [](const Scenario& s) { return s.cluster.scaleOutLatency; }, [](Scenario& s, double v) { s.cluster.scaleOutLatency = v; }));

    // --- Run -----------------------------------------------------------------------
    f.push_back(real("training.tokens", "Run", "Training tokens", "B", 1e9, 0.001, 1e6, true,
        "Tokens to train on. Time to train = tokens / throughput.",
        [](const Scenario& s) { return s.training.tokens; }, [](Scenario& s, double v) { s.training.tokens = v; }));
    // The same run sized by compute: tokens = budget / model FLOPs per token.
    f.push_back(real("training.flop_budget", "Run", "FLOP budget", "e21 FLOP", 1e21, 1e-3, 1e11, true,
        "Training compute; sets the tokens to budget / (3 x forward FLOPs per token).",
        [](const Scenario& s) { return s.training.tokens * trainingFlopsPerToken(s.model, s.training.seqLen); },
        [](Scenario& s, double v) { s.training.tokens = v / trainingFlopsPerToken(s.model, s.training.seqLen); }));
    f.push_back(real("training.deadline", "Run", "Deadline (0 = none)", "days", 86400, 0, 3650, false,
        "The run must finish within it; the time-to-train tile turns red beyond it, and the frontier uses it as its duration.",
        [](const Scenario& s) { return s.training.deadline; }, [](Scenario& s, double v) { s.training.deadline = v; }));

    // --- Reliability ---------------------------------------------------------------
    f.push_back(flag("reliability.async_checkpoint", "Reliability", "Asynchronous checkpoints",
        "Copy the state to host memory and flush it to storage in the background: training stalls only for the copy.",
        [](const Scenario& s) { return s.reliability.asyncCheckpoint ? 1.0 : 0.0; },
        [](Scenario& s, double v) { s.reliability.asyncCheckpoint = v > 0.5; }));
    f.push_back(real("reliability.checkpoint_interval", "Reliability", "Checkpoint interval (0 = optimal)", "min", 60, 0, 10000, false,
        "Training time between checkpoints. 0 uses Young's optimum sqrt(2 x checkpoint stall x cluster MTBF).",
        [](const Scenario& s) { return s.reliability.checkpointInterval; },
        [](Scenario& s, double v) { s.reliability.checkpointInterval = v; }));
    f.push_back(real("reliability.storage_write_bandwidth", "Reliability", "Storage write (0 = default)", "GB/s", 1e9, 0, 1e6, false,
        "Aggregate checkpoint write bandwidth of the job's storage. 0: 427 MB/s per GPU (Llama 3's Tectonic peak).",
        [](const Scenario& s) { return s.reliability.storageWriteBandwidth; },
        [](Scenario& s, double v) { s.reliability.storageWriteBandwidth = v; }));
    f.push_back(flag("reliability.spares", "Reliability", "Hot spares",
        "Keep 1% spare nodes powered: a failed node is replaced in 5 minutes instead of about an hour.",
        [](const Scenario& s) { return s.reliability.spares ? 1.0 : 0.0; },
        [](Scenario& s, double v) { s.reliability.spares = v > 0.5; }));
    f.push_back(real("reliability.straggler_slowdown", "Reliability", "One slow GPU", "%", 0.01, 0, 100, false,
        "One GPU slower by this much slows every synchronous step by as much.",
        [](const Scenario& s) { return s.reliability.stragglerSlowdown; },
        [](Scenario& s, double v) { s.reliability.stragglerSlowdown = v; }));
    f.push_back(flag("reliability.backup_workers", "Reliability", "Backup workers",
        "4% extra data-parallel ranks; each step drops the slowest, hiding the straggler at the cost of the extra GPUs.",
        [](const Scenario& s) { return s.reliability.backupWorkers ? 1.0 : 0.0; },
        [](Scenario& s, double v) { s.reliability.backupWorkers = v > 0.5; }));
    f.push_back(real("reliability.degraded_link", "Reliability", "Degraded scale-out link", "%", 0.01, 1, 100, false,
        "One scale-out link at this share of its bandwidth (100% = healthy); rings and all-to-alls run at their slowest link's pace.",
        [](const Scenario& s) { return s.reliability.degradedLinkFraction; },
        [](Scenario& s, double v) { s.reliability.degradedLinkFraction = v; s.reliability.degradedLinkLevel = LinkLevel::ScaleOut; }));

    // --- Cost ----------------------------------------------------------------------
    f.push_back(choice("cost.ownership", "Cost", "Rent or own", { "rent", "own" },
        "Rent GPU-hours, or buy the cluster and pay its amortized price and its electricity.",
        [](const Scenario& s) { return int(s.cost.ownership); }, [](Scenario& s, double v) { s.cost.ownership = Ownership(toInt(v)); }));
    f.push_back(choice("cost.pricing", "Cost", "Rental pricing", { "on demand", "reserved", "spot" },
        "Spot is cheapest per hour, but preemptions interrupt the run (the reliability model counts them).",
        [](const Scenario& s) { return int(s.cost.pricing); }, [](Scenario& s, double v) { s.cost.pricing = Pricing(toInt(v)); }));
    if (!regions.empty()) {
        QStringList names;
        for (const std::string& r : regions)
            names << QString::fromStdString(r);
        f.push_back(choice("cost.region", "Cost", "Grid region", names,
            "Carbon intensity of the electricity (resources/cost/cost.yaml).",
            [regions](const Scenario& s) {
                const auto it = std::find(regions.begin(), regions.end(), s.cost.region);
                return it == regions.end() ? 0.0 : double(it - regions.begin());
            },
            [regions](Scenario& s, double v) { s.cost.region = regions[std::min<std::size_t>(regions.size() - 1, std::size_t(std::max(0, toInt(v))))]; }));
    }
    f.push_back(real("cost.gpu_hour_usd", "Cost", "Price per GPU-hour (0 = list)", "USD", 1, 0, 1000, false,
        "Overrides the shipped rental price of this GPU and pricing kind.",
        [](const Scenario& s) { return s.cost.gpuHourUsd; }, [](Scenario& s, double v) { s.cost.gpuHourUsd = v; }));
    f.push_back(real("cost.gpu_price_usd", "Cost", "GPU price (0 = catalogue)", "USD", 1, 0, 1e6, false,
        "Overrides the catalogue's purchase price of one GPU (owning).",
        [](const Scenario& s) { return s.cost.gpuPriceUsd; }, [](Scenario& s, double v) { s.cost.gpuPriceUsd = v; }));
    f.push_back(real("cost.electricity_usd_per_kwh", "Cost", "Electricity (0 = default)", "USD/kWh", 1, 0, 10, false,
        "Overrides the default 0.08 USD per kWh (U.S. industrial average, 2023).",
        [](const Scenario& s) { return s.cost.electricityUsdPerKwh; }, [](Scenario& s, double v) { s.cost.electricityUsdPerKwh = v; }));
    f.push_back(real("cost.pue", "Cost", "PUE (0 = default)", "", 1, 0, 5, false,
        "Power usage effectiveness: facility power over IT power. 0 uses the default 1.2.",
        [](const Scenario& s) { return s.cost.pue; }, [](Scenario& s, double v) { s.cost.pue = v; }));
    f.push_back(real("cost.carbon_cap_tonnes", "Cost", "Carbon cap (0 = none)", "t CO2e", 1, 0, 1e9, false,
        "The cost planner rejects plans that emit more than this.",
        [](const Scenario& s) { return s.cost.carbonCapTonnes; }, [](Scenario& s, double v) { s.cost.carbonCapTonnes = v; }));

    // The shared cluster's workload (the Cluster tab); inert without a workload section.
    const std::vector<std::string> policies = policyNames();
    QStringList policyChoices;
    for (const std::string& p : policies)
        policyChoices << QString::fromStdString(p);
    f.push_back(choice("workload.policy", "Shared cluster", "Scheduling policy", policyChoices,
        "The scenario's own policy; the Cluster tab compares it with another.",
        [policies](const Scenario& s) {
            const auto it = std::find(policies.begin(), policies.end(), s.workload.policy);
            return it == policies.end() ? 0.0 : double(it - policies.begin());
        },
        [policies](Scenario& s, double v) { s.workload.policy = policies[std::clamp<std::size_t>(std::size_t(std::max(0, toInt(v))), 0, policies.size() - 1)]; }));
    f.push_back(flag("workload.topology_aware", "Shared cluster", "Topology-aware placement",
        "Place each job in as few pods as possible (best fit), instead of the first free nodes.",
        [](const Scenario& s) { return s.workload.topologyAware ? 1.0 : 0.0; }, [](Scenario& s, double v) { s.workload.topologyAware = v > 0.5; }));
    f.push_back(real("workload.checkpoint_interval", "Shared cluster", "Job checkpoint interval", "min", 60, 1, 24 * 60, true,
        "Every job checkpoints this often; a preemption or failure loses the work since the last one.",
        [](const Scenario& s) { return s.workload.checkpointInterval; }, [](Scenario& s, double v) { s.workload.checkpointInterval = v; }));
    f.push_back(real("workload.generate.arrivals_per_hour", "Shared cluster", "Job arrivals", "per hour", 1, 0.1, 1000, true,
        "Mean arrival rate of the generated jobs (Poisson).",
        [](const Scenario& s) { return s.workload.generator.arrivalsPerHour; }, [](Scenario& s, double v) { s.workload.generator.arrivalsPerHour = v; }));
    f.push_back(integer("workload.generate.count", "Shared cluster", "Generated jobs", 0, 20000, false,
        "How many jobs the generator draws (listed jobs come on top).",
        [](const Scenario& s) { return double(s.workload.generator.count); }, [](Scenario& s, double v) { s.workload.generator.count = toInt(v); }));
    return f;
}

} // namespace dtsim::gui
