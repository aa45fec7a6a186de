#include "scenario_loader.h"

#include "../scenario_limits.h"
#include "hardware_loader.h"
#include "read_file.h"
#include "cost_loader.h"
#include "reliability_loader.h"
#include "workload_loader.h"
#include "topology_loader.h"
#include "yaml_reader.h"

#include <limits>
#include <sstream>

namespace dtsim {

namespace {

constexpr long long kMaxInt = std::numeric_limits<int>::max();

// Reads one section at a time; remembers each field's line so that plan errors found
// after loading (e.g. tp not dividing heads) still point into the file.
class ScenarioReader {
public:
    ScenarioReader(YamlReader& r, const std::vector<HardwareSpec>& catalog, const std::vector<Topology>& topologies)
        : r(r)
        , catalog(catalog)
        , topologies(topologies)
    {
    }

    Scenario read(const YAML::Node& root)
    {
        r.expectMap(root, "");
        r.checkKeys(root, "", { "version", "name", "description", "model", "training", "hardware", "cluster", "parallel", "reliability", "cost", "workload" });
        const YAML::Node version = r.required(root, "", "version");
        if (r.integer(version, "version", 1, kMaxInt) != 1)
            r.fail(version, "version", "unsupported version; this dtsim reads version 1");
        Scenario s;
        if (auto n = r.child(root, "", "name"))
            s.name = r.string(n, "name");
        if (auto n = r.child(root, "", "description"))
            s.description = r.string(n, "description");
        readModel(r.required(root, "", "model"), s.model);
        readTraining(r.required(root, "", "training"), s.training);
        readHardware(r.required(root, "", "hardware"), s.hardware);
        readCluster(r.required(root, "", "cluster"), s.hardware, s.cluster);
        readParallel(r.child(root, "", "parallel"), s.cluster, s.plan);
        if (const YAML::Node rel = r.child(root, "", "reliability"))
            readReliabilitySection(r, rel, s.reliability);
        if (const YAML::Node cost = r.child(root, "", "cost"))
            readCostSection(r, cost, s.cost);
        if (const YAML::Node w = r.child(root, "", "workload"))
            readWorkloadSection(r, w, s.workload);
        finishModel(s);
        if (auto issue = checkScenario(s))
            r.failField(issue->field, issue->reason);
        return s;
    }

private:
    int integer(const YAML::Node& map, const std::string& section, const char* key, int min, int fallback)
    {
        const YAML::Node n = r.child(map, section, key);
        if (!n)
            return fallback;
        return static_cast<int>(r.integer(n, YamlReader::join(section, key), min, kMaxInt));
    }
    int requiredInt(const YAML::Node& map, const std::string& section, const char* key, int min)
    {
        const YAML::Node n = r.required(map, section, key);
        return static_cast<int>(r.integer(n, YamlReader::join(section, key), min, kMaxInt));
    }
    bool flag(const YAML::Node& map, const std::string& section, const char* key, bool fallback)
    {
        const YAML::Node n = r.child(map, section, key);
        return n ? r.boolean(n, YamlReader::join(section, key)) : fallback;
    }
    double quantity(const YAML::Node& map, const std::string& section, const char* key, Dimension d,
        Bound b, double fallback)
    {
        const YAML::Node n = r.child(map, section, key);
        return n ? r.quantity(n, YamlReader::join(section, key), d, b) : fallback;
    }
    template <typename Enum, typename FromName>
    Enum choice(const YAML::Node& map, const std::string& section, const char* key, Enum fallback,
        FromName fromName, const char* allowed)
    {
        const YAML::Node n = r.child(map, section, key);
        if (!n)
            return fallback;
        const std::string field = YamlReader::join(section, key);
        const std::string text = r.string(n, field);
        auto v = fromName(text);
        if (!v)
            r.fail(n, field, "\"" + text + "\" is not one of: " + allowed);
        return *v;
    }

    void readModel(const YAML::Node& n, ModelSpec& m)
    {
        const std::string sec = "model";
        r.expectMap(n, sec);
        r.checkKeys(n, sec, { "name", "layers", "hidden", "heads", "kv_heads", "head_dim", "ffn_hidden",
                                "gated_mlp", "vocab", "tied_embeddings", "linear_bias", "norm",
                                "position", "dropout", "moe", "mla" });
        if (auto v = r.child(n, sec, "name"))
            m.name = r.string(v, "model.name");
        m.layers = requiredInt(n, sec, "layers", 1);
        m.hidden = requiredInt(n, sec, "hidden", 1);
        m.heads = requiredInt(n, sec, "heads", 1);
        m.kvHeads = integer(n, sec, "kv_heads", 1, m.heads);
        m.headDim = integer(n, sec, "head_dim", 1, 0);
        const long long defaultFfn = 4LL * m.hidden; // GPT's MLP width
        if (!r.child(n, sec, "ffn_hidden") && defaultFfn > kMaxInt)
            r.failField("model.hidden", "hidden = " + std::to_string(m.hidden)
                    + " makes the default ffn_hidden (4 x hidden) larger than dtsim counts; give model.ffn_hidden");
        m.ffnHidden = integer(n, sec, "ffn_hidden", 1, static_cast<int>(std::min<long long>(defaultFfn, kMaxInt)));
        m.gatedMlp = flag(n, sec, "gated_mlp", false);
        m.vocab = requiredInt(n, sec, "vocab", 1);
        m.tiedEmbeddings = flag(n, sec, "tied_embeddings", false);
        m.linearBias = flag(n, sec, "linear_bias", false);
        m.dropout = flag(n, sec, "dropout", false);
        m.norm = choice(n, sec, "norm", NormKind::LayerNorm, [](const std::string& t) -> std::optional<NormKind> {
            if (t == "layernorm") return NormKind::LayerNorm;
            if (t == "rmsnorm") return NormKind::RmsNorm;
            return std::nullopt; }, "layernorm, rmsnorm");
        m.position = choice(n, sec, "position", PositionKind::Rotary, [](const std::string& t) -> std::optional<PositionKind> {
            if (t == "rotary") return PositionKind::Rotary;
            if (t == "learned") return PositionKind::Learned;
            return std::nullopt; }, "rotary, learned");

        if (const YAML::Node moe = r.child(n, sec, "moe")) {
            const std::string ms = "model.moe";
            r.expectMap(moe, ms);
            r.checkKeys(moe, ms, { "experts", "top_k", "shared_experts", "expert_ffn_hidden",
                                     "first_dense_layers", "layer_interval", "capacity_factor", "max_nodes_per_token" });
            m.moe.experts = requiredInt(moe, ms, "experts", 1);
            m.moe.topK = requiredInt(moe, ms, "top_k", 1);
            m.moe.sharedExperts = integer(moe, ms, "shared_experts", 0, 0);
            m.moe.expertFfnHidden = integer(moe, ms, "expert_ffn_hidden", 1, m.ffnHidden);
            m.moe.firstDenseLayers = integer(moe, ms, "first_dense_layers", 0, 0);
            m.moe.layerInterval = integer(moe, ms, "layer_interval", 1, 1);
            m.moe.capacityFactor = quantity(moe, ms, "capacity_factor", Dimension::Count, Bound::Positive, 1.0);
            m.moe.maxNodesPerToken = integer(moe, ms, "max_nodes_per_token", 0, 0);
            if (m.moe.topK > m.moe.experts)
                r.fail(moe["top_k"], "model.moe.top_k", "top_k is larger than the number of experts");
            if (m.moe.firstDenseLayers >= m.layers)
                r.fail(moe["first_dense_layers"], "model.moe.first_dense_layers", "leaves no MoE layer");
        }
        // Multi-head latent attention (DeepSeek-V2/V3), in the names of their configs.
        if (const YAML::Node mla = r.child(n, sec, "mla")) {
            const std::string as = "model.mla";
            r.expectMap(mla, as);
            r.checkKeys(mla, as, { "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim" });
            m.mla.qLoraRank = integer(mla, as, "q_lora_rank", 0, 0);
            m.mla.kvLoraRank = requiredInt(mla, as, "kv_lora_rank", 1);
            m.mla.qkNopeDim = requiredInt(mla, as, "qk_nope_head_dim", 1);
            m.mla.qkRopeDim = integer(mla, as, "qk_rope_head_dim", 0, 0);
            m.mla.vHeadDim = requiredInt(mla, as, "v_head_dim", 1);
        }
    }

    void finishModel(Scenario& s)
    {
        ModelSpec& m = s.model;
        if (m.headDim == 0) {
            if (m.hidden % m.heads != 0)
                r.failField("model.heads", "heads = " + std::to_string(m.heads) + " does not divide hidden = "
                        + std::to_string(m.hidden) + "; give head_dim explicitly");
            m.headDim = m.hidden / m.heads;
        }
        if (m.heads % m.kvHeads != 0)
            r.failField("model.kv_heads", "kv_heads = " + std::to_string(m.kvHeads)
                    + " must divide heads = " + std::to_string(m.heads));
    }

    void readTraining(const YAML::Node& n, TrainingSpec& t)
    {
        const std::string sec = "training";
        r.expectMap(n, sec);
        r.checkKeys(n, sec, { "global_batch", "micro_batch", "seq_len", "tokens", "precision", "optimizer",
                                "master_weights_fp32", "grad_reduce", "attention_kernel", "fused_kernels", "graph_capture", "deadline", "scaling" });
        t.globalBatch = requiredInt(n, sec, "global_batch", 1);
        t.microBatch = integer(n, sec, "micro_batch", 1, 1);
        t.seqLen = requiredInt(n, sec, "seq_len", 1);
        t.tokens = r.quantity(r.required(n, sec, "tokens"), "training.tokens", Dimension::Count, Bound::Positive);
        // mxfp8 and nvfp4 name a format and its scaling recipe at once.
        std::optional<ScalingRecipe> namedRecipe;
        t.precision = choice(n, sec, "precision", Precision::BF16, [&namedRecipe](const std::string& s) -> std::optional<Precision> {
            if (const std::optional<ScalingRecipe> recipe = scalingRecipeFromName(s); recipe && (*recipe == ScalingRecipe::Mxfp8 || *recipe == ScalingRecipe::Nvfp4)) {
                namedRecipe = recipe;
                return recipePrecision(*recipe);
            }
            return precisionFromName(s); },
            "fp32, tf32, bf16, fp16, fp8, mxfp8, fp4, nvfp4");
        const ScalingRecipe defaultRecipe = namedRecipe ? *namedRecipe
            : (t.precision == Precision::FP4 ? ScalingRecipe::Nvfp4 : ScalingRecipe::Tensorwise);
        t.scaling = choice(n, sec, "scaling", defaultRecipe, [](const std::string& s) { return scalingRecipeFromName(s); },
            "tensorwise, rowwise, blockwise, mxfp8, nvfp4");
        if (const YAML::Node sc = n["scaling"]) {
            if (!isScaledLowPrecision(t.precision))
                r.fail(sc, "training.scaling", "applies to fp8 and fp4 runs only; precision is " + std::string(precisionName(t.precision)));
            if (recipePrecision(t.scaling) != t.precision)
                r.fail(sc, "training.scaling", std::string(scalingRecipeName(t.scaling)) + " computes in "
                        + std::string(precisionName(recipePrecision(t.scaling))) + ", but precision is " + std::string(precisionName(t.precision)));
        }
        t.optimizer = choice(n, sec, "optimizer", Optimizer::Adam, [](const std::string& s) -> std::optional<Optimizer> {
            if (s == "adam" || s == "adamw") return Optimizer::Adam;
            if (s == "sgd") return Optimizer::Sgd;
            return std::nullopt; }, "adam, adamw, sgd");
        t.masterWeightsFp32 = flag(n, sec, "master_weights_fp32", true);
        const bool lowPrecision = t.precision != Precision::FP32 && t.precision != Precision::TF32;
        t.gradReduce = choice(n, sec, "grad_reduce", lowPrecision && t.masterWeightsFp32 ? Precision::FP32 : storageFormat(t.precision),
            [](const std::string& s) -> std::optional<Precision> {
                auto p = precisionFromName(s);
                if (p == Precision::FP32 || p == Precision::BF16 || p == Precision::FP16) return p;
                return std::nullopt; }, "fp32, bf16, fp16");
        t.attention = choice(n, sec, "attention_kernel", AttentionKernel::Native, [](const std::string& s) -> std::optional<AttentionKernel> {
            if (s == "unfused") return AttentionKernel::Unfused;
            if (s == "flash2") return AttentionKernel::Flash2;
            if (s == "native") return AttentionKernel::Native;
            return std::nullopt; }, "unfused, flash2, native");
        t.fusedKernels = flag(n, sec, "fused_kernels", true);
        t.graphCapture = flag(n, sec, "graph_capture", false);
        t.deadline = quantity(n, sec, "deadline", Dimension::Seconds, Bound::Positive, 0.0);
    }

    static Precision storageFormat(Precision p)
    {
        return storageBytes(p) == 4.0 ? Precision::FP32 : Precision::BF16;
    }

    void readHardware(const YAML::Node& n, HardwareSpec& h)
    {
        const std::string sec = "hardware";
        r.expectMap(n, sec);
        r.checkKeys(n, sec, { "gpu", "memory", "memory_bandwidth", "power_limit" });
        const YAML::Node gpu = r.required(n, sec, "gpu");
        const std::string id = r.string(gpu, "hardware.gpu");
        const HardwareSpec* found = findHardware(catalog, id);
        if (!found) {
            std::string ids;
            for (const HardwareSpec& c : catalog)
                ids += (ids.empty() ? "" : ", ") + c.id;
            r.fail(gpu, "hardware.gpu", "unknown GPU \"" + id + "\"; the catalogue has: " + ids);
        }
        h = *found;
        h.memoryBytes = quantity(n, sec, "memory", Dimension::Bytes, Bound::Positive, h.memoryBytes);
        h.memoryBandwidth = quantity(n, sec, "memory_bandwidth", Dimension::BytesPerSecond, Bound::Positive, h.memoryBandwidth);
        h.powerLimitWatts = quantity(n, sec, "power_limit", Dimension::Watts, Bound::Positive, 0.0);
    }

    void readCluster(const YAML::Node& n, const HardwareSpec& h, ClusterSpec& c)
    {
        const std::string sec = "cluster";
        r.expectMap(n, sec);
        r.checkKeys(n, sec, { "topology", "gpus", "gpus_per_node", "scale_up_domain", "scale_up_bandwidth",
                                "scale_up_latency", "scale_out_bandwidth", "scale_out_latency",
                                "scale_up_in_network_reduction", "tiers" });
        // A named topology supplies the defaults; the GPU's catalogue entry fills the rest.
        const Topology* topo = nullptr;
        if (const YAML::Node t = r.child(n, sec, "topology")) {
            const std::string id = r.string(t, "cluster.topology");
            topo = findTopology(topologies, id);
            if (!topo) {
                std::string ids;
                for (const Topology& x : topologies)
                    ids += (ids.empty() ? "" : ", ") + x.id;
                r.fail(t, "cluster.topology", "unknown topology \"" + id + "\"; shipped: " + ids);
            }
            c = topo->cluster;
            c.topology = id;
        }
        c.gpus = requiredInt(n, sec, "gpus", 1);
        const int domain = topo && topo->hasScaleUpDomain ? c.scaleUpDomain : h.scaleUpDomain;
        c.scaleUpDomain = integer(n, sec, "scale_up_domain", 1, domain);
        c.gpusPerNode = integer(n, sec, "gpus_per_node", 1, topo ? c.gpusPerNode : std::min(8, c.scaleUpDomain));
        c.scaleUpBandwidth = quantity(n, sec, "scale_up_bandwidth", Dimension::BytesPerSecond, Bound::Positive,
            topo && topo->hasScaleUpBandwidth ? c.scaleUpBandwidth : h.scaleUpBandwidth);
        c.scaleUpLatency = quantity(n, sec, "scale_up_latency", Dimension::Seconds, Bound::NonNegative,
            topo && topo->hasScaleUpLatency ? c.scaleUpLatency : h.scaleUpLatency);
        c.scaleOutBandwidth = quantity(n, sec, "scale_out_bandwidth", Dimension::BytesPerSecond, Bound::Positive,
            topo && topo->hasScaleOutBandwidth ? c.scaleOutBandwidth : h.scaleOutBandwidth);
        c.scaleOutLatency = quantity(n, sec, "scale_out_latency", Dimension::Seconds, Bound::NonNegative,
            topo && topo->hasScaleOutLatency ? c.scaleOutLatency : h.scaleOutLatency);
        c.scaleUpInNetworkReduction = flag(n, sec, "scale_up_in_network_reduction", c.scaleUpInNetworkReduction);
        if (const YAML::Node tiers = r.child(n, sec, "tiers")) {
            if (!tiers.IsSequence())
                r.fail(tiers, "cluster.tiers", "expected a list of tiers, innermost first");
            if (tiers.size() > static_cast<std::size_t>(kMaxTiers))
                r.fail(tiers, "cluster.tiers", "at most " + std::to_string(kMaxTiers) + " tiers");
            int previousSpan = 0;
            for (std::size_t i = 0; i < tiers.size(); ++i) {
                const std::string ts = "cluster.tiers[" + std::to_string(i) + "]";
                const YAML::Node t = tiers[i];
                r.expectMap(t, ts);
                r.checkKeys(t, ts, { "name", "span_gpus", "oversubscription", "uplink_bandwidth", "latency",
                                       "rail_optimized", "in_network_reduction" });
                NetworkTier& tier = c.tiers[i];
                tier = NetworkTier {};
                if (const YAML::Node nm = r.child(t, ts, "name"))
                    tier.setLabel(r.string(nm, ts + ".name"));
                tier.spanGpus = requiredInt(t, ts, "span_gpus", 1);
                if (tier.spanGpus <= previousSpan)
                    r.fail(t["span_gpus"], ts + ".span_gpus", "tiers must grow outward (span larger than the tier inside)");
                previousSpan = tier.spanGpus;
                tier.oversubscription = quantity(t, ts, "oversubscription", Dimension::Count, Bound::Positive, 1.0);
                if (tier.oversubscription < 1.0)
                    r.fail(t["oversubscription"], ts + ".oversubscription", "must be at least 1 (1 = non-blocking)");
                tier.latency = quantity(t, ts, "latency", Dimension::Seconds, Bound::NonNegative, 0.0);
                tier.uplinkBandwidth = quantity(t, ts, "uplink_bandwidth", Dimension::BytesPerSecond, Bound::Positive, 0.0);
                tier.railOptimized = flag(t, ts, "rail_optimized", false);
                tier.inNetworkReduction = flag(t, ts, "in_network_reduction", false);
            }
            c.tierCount = static_cast<int>(tiers.size());
        }
    }

    void readParallel(const YAML::Node& n, const ClusterSpec& c, ParallelPlan& p)
    {
        const std::string sec = "parallel";
        if (!n) {
            p.dp = c.gpus; // pure data parallel over every GPU
            return;
        }
        r.expectMap(n, sec);
        r.checkKeys(n, sec, { "tp", "pp", "dp", "cp", "ep", "sequence_parallel", "schedule", "virtual_stages", "first_stage_layers", "last_stage_layers",
                                "zero", "recompute", "recompute_layers", "order", "overlap_grad_reduce", "overlap_param_gather",
                                "tp_comm_overlap", "tp_comm_overlap_backward", "overlap_ep_comm", "ep_dispatcher", "tp_2d", "expert_tp" });
        p.tp = integer(n, sec, "tp", 1, 1);
        p.pp = integer(n, sec, "pp", 1, 1);
        p.cp = integer(n, sec, "cp", 1, 1);
        p.ep = integer(n, sec, "ep", 1, 1);
        p.expertTp = integer(n, sec, "expert_tp", 1, 0); // absent: the attention's tp
        const long long model = static_cast<long long>(p.tp) * p.pp * p.cp;
        if (r.child(n, sec, "dp")) {
            p.dp = integer(n, sec, "dp", 1, 1);
        } else if (model > 0 && c.gpus % model == 0) {
            p.dp = static_cast<int>(c.gpus / model);
        } else {
            r.failField("parallel", "tp*pp*cp = " + std::to_string(model) + " does not divide cluster.gpus = "
                    + std::to_string(c.gpus) + ", so dp cannot be derived");
        }
        p.sequenceParallel = flag(n, sec, "sequence_parallel", false);
        p.schedule = choice(n, sec, "schedule", Schedule::OneFOneB, [](const std::string& s) { return scheduleFromName(s); },
            "gpipe, 1f1b, interleaved, dualpipe");
        p.virtualStages = integer(n, sec, "virtual_stages", 1, 1);
        p.firstStageLayers = integer(n, sec, "first_stage_layers", 0, 0);
        p.lastStageLayers = integer(n, sec, "last_stage_layers", 0, 0);
        p.zeroStage = integer(n, sec, "zero", 0, 0);
        if (p.zeroStage > 3)
            r.fail(n["zero"], "parallel.zero", "ZeRO stage must be 0, 1, 2 or 3");
        p.recompute = choice(n, sec, "recompute", Recompute::None, [](const std::string& s) { return recomputeFromName(s); },
            "none, selective, full, per-op");
        p.recomputeLayers = integer(n, sec, "recompute_layers", 0, 0);
        p.overlapGradReduce = flag(n, sec, "overlap_grad_reduce", true);
        p.overlapParamGather = flag(n, sec, "overlap_param_gather", true);
        p.tpCommOverlap = flag(n, sec, "tp_comm_overlap", false);
        p.tpCommOverlapBackward = flag(n, sec, "tp_comm_overlap_backward", true);
        p.epCommOverlap = flag(n, sec, "overlap_ep_comm", false);
        p.epNodeDispatch = choice(n, sec, "ep_dispatcher", false,
            [](const std::string& s) -> std::optional<bool> {
                if (s == "alltoall")
                    return false;
                if (s == "deepep")
                    return true;
                return std::nullopt;
            },
            "alltoall, deepep");
        p.tp2d = flag(n, sec, "tp_2d", false);
        if (const YAML::Node order = r.child(n, sec, "order"))
            readOrder(order, p);
    }

    void readOrder(const YAML::Node& n, ParallelPlan& p)
    {
        // "tp-cp-dp-pp" (innermost first), as Megatron writes it.
        const std::string text = r.string(n, "parallel.order");
        std::array<Axis, kAxisCount> order {};
        std::array<bool, kAxisCount> seen {};
        std::stringstream ss(text);
        std::string part;
        int count = 0;
        while (std::getline(ss, part, '-')) {
            auto a = axisFromName(part);
            if (!a || count >= kAxisCount || seen[static_cast<int>(*a)])
                r.fail(n, "parallel.order", "\"" + text + "\" must list tp, cp, dp and pp once each, "
                                               "innermost first, e.g. tp-cp-dp-pp");
            seen[static_cast<int>(*a)] = true;
            order[count++] = *a;
        }
        if (count != kAxisCount)
            r.fail(n, "parallel.order", "\"" + text + "\" must list tp, cp, dp and pp once each, e.g. tp-cp-dp-pp");
        p.order = order;
    }

    YamlReader& r;
    const std::vector<HardwareSpec>& catalog;
    const std::vector<Topology>& topologies;
};

} // namespace

Scenario loadScenarioText(const std::string& text, const std::string& origin,
    const std::vector<HardwareSpec>& catalog, const std::vector<Override>& overrides,
    const std::vector<Topology>& topologies, ScenarioSource* source)
{
    YamlReader r(origin);
    YAML::Node root = r.parse(text);
    if (!root || root.IsNull())
        throw InputError(origin, 0, "", "the scenario is empty");
    std::vector<std::string> notes;
    for (const Override& o : overrides)
        root = applyOverride(r, root, o, notes);
    ScenarioReader reader(r, catalog, topologies);
    Scenario s = reader.read(root);
    if (source) {
        source->locator = r.locator();
        source->notes = std::move(notes);
    }
    return s;
}

Scenario loadScenarioFile(const std::string& path, const std::vector<HardwareSpec>& catalog,
    const std::vector<Override>& overrides, const std::vector<Topology>& topologies, ScenarioSource* source)
{
    return loadScenarioText(readTextFile(path, "scenario file"), path, catalog, overrides, topologies, source);
}

} // namespace dtsim
