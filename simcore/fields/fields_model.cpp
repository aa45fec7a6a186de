// The top level and the `model` section, with `model.moe` and `model.mla`.
#include "field_builder.h"
#include "field_tables.h"

#include "../layers/families.h"
#include "../scenario_rules.h"

namespace dtsim::fields {

namespace {
int asInt(double v) { return static_cast<int>(std::lround(v)); }
} // namespace

void addTopLevelFields(std::vector<FieldDef>& f)
{
    f.push_back(integer("version").required().max(1 << 30).byDefault("required").help("must be `1`")
            .access([](const Scenario&, int) { return 1.0; }, [](Scenario&, double, int) {})
            .check([](const Scenario&, double v, int) { return v == 1 ? "" : "unsupported version; this dtsim reads version 1"; }));
    f.push_back(text("name").byDefault("empty").help("title shown in reports")
            .text([](const Scenario& s, int) { return s.name; }, [](Scenario& s, const std::string& v, int) { s.name = v; })
            .writtenWhen([](const Scenario& s, int) { return !s.name.empty(); }));
    f.push_back(text("description").byDefault("empty").help("one line for preset lists")
            .text([](const Scenario& s, int) { return s.description; }, [](Scenario& s, const std::string& v, int) { s.description = v; })
            .writtenWhen([](const Scenario& s, int) { return !s.description.empty(); }));
    // Read by the loader after the fields: a path relative to the scenario's folder.
    f.push_back(text("calibration").byDefault("none")
            .help("a calibration overlay fitted to your measurements (`dtsim-cli calibrate ... -o FILE`, docs/calibration.md), "
                  "relative to the scenario's folder; it sits over the shipped calibration")
            .text([](const Scenario& s, int) { return s.calibration.file; },
                [](Scenario& s, const std::string& v, int) {
                    if (v == s.calibration.file)
                        return;
                    s.calibration = CalibrationOverlay(); // the loader reads the new file
                    s.calibration.file = v;
                })
            .writtenWhen([](const Scenario& s, int) { return !s.calibration.file.empty(); }));
}

void addModelFields(std::vector<FieldDef>& f)
{
    f.push_back(text("model.name").byDefault("empty")
            .text([](const Scenario& s, int) { return s.model.name; }, [](Scenario& s, const std::string& v, int) { s.model.name = v; })
            .writtenWhen([](const Scenario& s, int) { return !s.model.name.empty(); }));
    f.push_back(text("model.table").byDefault("none (a transformer)")
            .help("a table of layers instead of a transformer (docs/layers.md): a built-in family (`alexnet-2012`, `resnet-50`, "
                  "`vgg-16`, ...) or a YAML file relative to the scenario's folder; the transformer fields then do not apply, a "
                  "sample is the unit of `training.samples` and `global_batch`, and only data and channel (tp) parallelism split it")
            .text([](const Scenario& s, int) { return s.model.table.ref; },
                [](Scenario& s, const std::string& v, int) {
                    if (v == s.model.table.ref)
                        return;
                    s.model.table.ref = v;
                    s.model.table.resolved = nullptr; // a file: the loader reads it
                    if (auto builtin = builtinLayerTable(v))
                        s.model.table.resolved = resolveLayerTable(std::move(*builtin));
                    if (!v.empty())
                        s.training.seqLen = 1; // a sample is one unit of work
                })
            .checkText([](const Scenario&, const std::string& v, int) -> std::string {
                if (v.empty() || builtinLayerTable(v) || (v.size() > 5 && v.substr(v.size() - 5) == ".yaml"))
                    return {};
                std::string names;
                for (const std::string& n : builtinLayerTableNames())
                    names += (names.empty() ? "" : ", ") + n;
                return "\"" + v + "\" is neither a built-in table (" + names + ") nor a .yaml file";
            })
            .writtenWhen([](const Scenario& s, int) { return s.model.isLayerTable(); }));
    f.push_back(integer("model.layers").required().byDefault("required").help("transformer blocks")
            .bind(&Scenario::model, &ModelSpec::layers)
            .panel("Model", "Layers", 1, 1024, SliderScale::Log,
                "Transformer blocks. Parameters grow linearly with layers; pipeline stages hold ceil(layers / PP) each."));
    f.push_back(integer("model.hidden").required().byDefault("required").help("model width `h`")
            .bind(&Scenario::model, &ModelSpec::hidden)
            .panel("Model", "Hidden size", 64, 131072, SliderScale::Log,
                "Model width h. Dense parameters grow as 12 l h^2; GEMM sizes and TP traffic (T h per collective) scale with it.")
            .sliderStep(64)
            .edit([](Scenario& s, double v) { setHidden(s, asInt(v)); }));
    f.push_back(integer("model.heads").required().byDefault("required").help("attention (query) heads")
            .bind(&Scenario::model, &ModelSpec::heads)
            .panel("Model", "Attention heads", 1, 1024, SliderScale::Log, "Query heads; TP must divide them. head_dim = hidden / heads.")
            .edit([](Scenario& s, double v) { setHeads(s, asInt(v)); }));
    f.push_back(integer("model.kv_heads").byDefault("`heads`").help("key/value heads (GQA < heads, MQA = 1); must divide `heads`")
            .bind(&Scenario::model, &ModelSpec::kvHeads)
            .derived([](const Scenario& s, int) { return DerivedDefault::of(double(s.model.heads)); })
            .check([](const Scenario& s, double v, int) {
                return s.model.heads % static_cast<long long>(v) == 0 ? std::string()
                    : "kv_heads = " + std::to_string(static_cast<long long>(v)) + " must divide heads = " + std::to_string(s.model.heads);
            })
            .panel("Model", "KV heads", 1, 1024, SliderScale::Log,
                "Key/value heads: equal to heads for MHA, fewer for GQA, 1 for MQA. Must divide heads."));
    f.push_back(integer("model.head_dim").byDefault("`hidden / heads`").help("required when heads does not divide hidden")
            .bind(&Scenario::model, &ModelSpec::headDim)
            .derived([](const Scenario& s, int) {
                if (s.model.hidden % s.model.heads != 0)
                    return DerivedDefault::fail("model.heads", "heads = " + std::to_string(s.model.heads) + " does not divide hidden = "
                            + std::to_string(s.model.hidden) + "; give head_dim explicitly");
                return DerivedDefault::of(double(s.model.hidden / s.model.heads));
            }));
    f.push_back(integer("model.ffn_hidden").byDefault("`4 * hidden`").help("MLP inner width")
            .bind(&Scenario::model, &ModelSpec::ffnHidden)
            .derived([](const Scenario& s, int) {
                const long long width = 4LL * s.model.hidden; // GPT's MLP width
                if (width > std::numeric_limits<int>::max())
                    return DerivedDefault::fail("model.hidden", "hidden = " + std::to_string(s.model.hidden)
                            + " makes the default ffn_hidden (4 x hidden) larger than dtsim counts; give model.ffn_hidden");
                return DerivedDefault::of(double(width));
            })
            .panel("Model", "FFN size", 64, 524288, SliderScale::Log, "MLP inner width (4 h for GPT, ~3.5 h for SwiGLU models).")
            .sliderStep(64));
    f.push_back(flag("model.gated_mlp").byDefault("`false`").help("SwiGLU/GeGLU (three matrices)").bind(&Scenario::model, &ModelSpec::gatedMlp));
    f.push_back(integer("model.vocab").required().byDefault("required").help("vocabulary size")
            .bind(&Scenario::model, &ModelSpec::vocab)
            .panel("Model", "Vocabulary", 256, 1048576, SliderScale::Log, "Tokens in the vocabulary; the logits GEMM costs 2 h V FLOPs per token.")
            .sliderStep(128));
    f.push_back(flag("model.tied_embeddings").byDefault("`false`").help("output head shares the embedding").bind(&Scenario::model, &ModelSpec::tiedEmbeddings));
    f.push_back(flag("model.linear_bias").byDefault("`false`").help("biases on linear layers (GPT-2/3)").bind(&Scenario::model, &ModelSpec::linearBias));
    f.push_back(choice("model.norm", { { "layernorm", int(NormKind::LayerNorm) }, { "rmsnorm", int(NormKind::RmsNorm) } })
            .byDefault("`layernorm`").bind(&Scenario::model, &ModelSpec::norm));
    f.push_back(choice("model.position", { { "rotary", int(PositionKind::Rotary) }, { "learned", int(PositionKind::Learned) } })
            .byDefault("`rotary`").help("learned adds `seq_len x hidden` parameters").bind(&Scenario::model, &ModelSpec::position));
    f.push_back(flag("model.dropout").byDefault("`false`").help("stores dropout masks for backward").bind(&Scenario::model, &ModelSpec::dropout));
    f.push_back(choice("model.activation", { { "gelu", int(Activation::Gelu) }, { "gelu_new", int(Activation::GeluTanhOps) } })
            .byDefault("`gelu`")
            .help("a non-gated MLP's activation run unfused: one GELU kernel, or `gelu_new`, GPT-2's tanh approximation written as "
                  "nine tensor ops (Hugging Face's NewGELUActivation)")
            .bind(&Scenario::model, &ModelSpec::activation)
            .writtenWhen([](const Scenario& s, int) { return s.model.activation != Activation::Gelu; }));

    // --- model.moe ----------------------------------------------------------------
    f.push_back(integer("model.moe.experts").required().byDefault("required").help("routed experts per MoE layer")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::experts)
            .panel("Model", "Experts (0 = dense)", 0, 512, SliderScale::Linear, "Routed experts per MoE layer. 0 makes the model dense.")
            .edit([](Scenario& s, double v) { setExperts(s, asInt(v)); }));
    f.push_back(integer("model.moe.top_k").required().byDefault("required").help("experts per token, <= `experts`")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::topK)
            .check([](const Scenario& s, double v, int) { return v > s.model.moe.experts ? "top_k is larger than the number of experts" : ""; })
            .panel("Model", "Experts per token", 1, 16, SliderScale::Linear,
                "Routed experts each token visits (top-k); active FFN work scales with it. Dense models have none.")
            .edit([](Scenario& s, double v) { setTopK(s, asInt(v)); }));
    f.push_back(integer("model.moe.shared_experts").min(0).byDefault("`0`").help("always-active experts")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::sharedExperts));
    f.push_back(integer("model.moe.expert_ffn_hidden").byDefault("`ffn_hidden`").help("each expert's MLP width")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::expertFfnHidden)
            .derived([](const Scenario& s, int) { return DerivedDefault::of(double(s.model.ffnHidden)); }));
    f.push_back(integer("model.moe.first_dense_layers").min(0).byDefault("`0`").help("leading layers with a dense MLP")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::firstDenseLayers)
            .check([](const Scenario& s, double v, int) { return v >= s.model.layers ? "leaves no MoE layer" : ""; }));
    f.push_back(integer("model.moe.layer_interval").byDefault("`1`").help("every n-th later layer is MoE")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::layerInterval));
    f.push_back(quantity("model.moe.capacity_factor", Dimension::Count, "").byDefault("`1.0`").help("busiest expert's load relative to balanced")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::capacityFactor));
    f.push_back(integer("model.moe.max_nodes_per_token").min(0).byDefault("`0` (unlimited)")
            .help("node-limited routing (DeepSeek-V2/V3): each token's experts lie on at most this many scale-up domains, and the "
                  "dispatcher sends it once to each over the scale-out network, then forwards it to the expert GPUs inside the domain")
            .bind(&Scenario::model, &ModelSpec::moe, &MoeSpec::maxNodesPerToken)
            .writtenWhen([](const Scenario& s, int) { return s.model.moe.maxNodesPerToken > 0; }));

    // --- model.mla ----------------------------------------------------------------
    f.push_back(integer("model.mla.q_lora_rank").min(0).byDefault("`0`").help("query latent width; `0`: queries projected directly")
            .bind(&Scenario::model, &ModelSpec::mla, &MlaSpec::qLoraRank));
    f.push_back(integer("model.mla.kv_lora_rank").required().byDefault("required").help("key/value latent width")
            .bind(&Scenario::model, &ModelSpec::mla, &MlaSpec::kvLoraRank));
    f.push_back(integer("model.mla.qk_nope_head_dim").required().byDefault("required").help("per-head Q.K width without position")
            .bind(&Scenario::model, &ModelSpec::mla, &MlaSpec::qkNopeDim));
    f.push_back(integer("model.mla.qk_rope_head_dim").min(0).byDefault("`0`").help("per-head rotary Q.K width (shared key part)")
            .bind(&Scenario::model, &ModelSpec::mla, &MlaSpec::qkRopeDim));
    f.push_back(integer("model.mla.v_head_dim").required().byDefault("required").help("per-head value width")
            .bind(&Scenario::model, &ModelSpec::mla, &MlaSpec::vHeadDim));

    // Everything but the name and the table describes a transformer.
    for (FieldDef& d : f)
        if (d.path.starts_with("model.") && d.path != "model.name" && d.path != "model.table")
            d.model = ModelKind::Transformer;
}

} // namespace dtsim::fields
