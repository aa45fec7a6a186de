// NeMo recipes (NeMo 1 and the NeMo Framework Launcher's YAML: trainer.*, model.*),
// Megatron-Bridge's YAML overrides (model.*, train.*, dataset.*) and NeMo 2's recipe
// overrides (key=value, as NeMo-Run's command line takes them) -> model, batch, plan
// and precision. Their keys are Megatron-Core's TransformerConfig names with
// underscores, so the mapping follows Megatron's.
#include "framework_keys.h"
#include "import_context.h"

#include <cmath>
#include <map>
#include <set>

namespace dtsim {

namespace {

// Sections whose contents are free-form (paths, loggers, callbacks): listed, not checked.
bool freeForm(const std::string& k)
{
    for (const char* p : { "run.", "exp_manager.", "hydra.", "log.", "resume.", "optim.", "model.tokenizer", "trainer.callbacks",
             "trainer.plugins", "model.data_path", "defaults", "model.data.", "model.optim.", "model.tokenizer.", "model.nsys_profile.",
             "model.memory_profile.", "trainer.", "logger.", "checkpoint.", "profiling.", "optimizer.", "scheduler.", "ddp.", "rng.",
             "tokenizer.", "dataset.", "comm_overlap.", "mixed_precision.", "ft.", "straggler.", "nvrx_straggler.", "inprocess_restart.",
             "peft.", "model.peft.", "model.fsdp", "train.", "validation.", "dist.", "rerun_state_machine.", "model.mcore_", "env_vars.",
             "model.transformer_engine", "model.ub_tp_comm_overlap_cfg.", "model.tp_comm_overlap_cfg.", "model.rampup_batch_size" })
        if (k.rfind(p, 0) == 0)
            return true;
    return false;
}

// NeMo 2's recipe paths (`recipe.trainer.strategy.tensor_model_parallel_size=8` on the
// NeMo-Run command line, nemo/collections/llm/recipes) and Megatron-Bridge's, in the
// NeMo 1 names the mapping reads; a key of neither stays as it is.
std::string nemoKey(std::string k)
{
    while (!k.empty() && k.front() == '+')
        k.erase(0, 1); // Hydra's "+key=" (add) and "++key=" (add or override)
    if (k.rfind("recipe.", 0) == 0)
        k = k.substr(7);
    static const std::pair<const char*, const char*> prefixes[] = {
        { "trainer.strategy.", "model." },  // parallelism lives on the Megatron strategy
        { "model.config.", "model." },      // the model's TransformerConfig
        { "data.", "model." },              // global_batch_size, micro_batch_size, seq_length
    };
    for (const auto& [from, to] : prefixes)
        if (k.rfind(from, 0) == 0) {
            const std::string rest = k.substr(std::string(from).size());
            if (rest == "seq_length")
                return "model.encoder_seq_length";
            return to + rest;
        }
    if (k == "optim.config.use_distributed_optimizer")
        return "ddp.use_distributed_optimizer";
    return k;
}

long long nemoPaddedVocab(long long vocab, long long divisibleBy, long long tp)
{
    const long long multiple = divisibleBy * tp;
    return (vocab + multiple - 1) / multiple * multiple;
}

// OmegaConf interpolations as the recipes use them: ${key}, ${.sibling}, ${training.key}
// (the Launcher mounts a recipe under `training`), ${multiply:a,b}, ${sum:a,b},
// ${divide:a,b}, ${subtract:a,b}. An unknown reference stays as written.
class Interpolation {
public:
    explicit Interpolation(const ConfigDocument& d)
    {
        for (const ConfigValue& v : d.values)
            values[v.key] = v.text;
    }
    std::string resolve(const std::string& text, const std::string& key, int depth = 0) const
    {
        std::string out;
        for (std::size_t i = 0; i < text.size();) {
            if (text.compare(i, 2, "${") != 0) {
                out += text[i++];
                continue;
            }
            int level = 0;
            std::size_t j = i;
            for (; j < text.size(); ++j) {
                if (text.compare(j, 2, "${") == 0) ++level, ++j;
                else if (text[j] == '}' && --level == 0) break;
            }
            const std::string inner = text.substr(i + 2, j - i - 2);
            out += depth > 20 ? text.substr(i, j - i + 1) : evaluate(inner, key, depth);
            i = j + 1;
        }
        return out;
    }

private:
    std::string evaluate(const std::string& inner, const std::string& key, int depth) const
    {
        if (const auto colon = inner.find(':'); colon != std::string::npos && inner.find("${") > colon) {
            const std::string op = inner.substr(0, colon);
            std::vector<double> args;
            std::string arg;
            int level = 0;
            const std::string rest = inner.substr(colon + 1) + ",";
            for (std::size_t k = 0; k < rest.size(); ++k) {
                const char ch = rest[k];
                if (ch == '{') ++level;
                if (ch == '}') --level;
                if (ch == ',' && level == 0) {
                    const std::string r = resolve(arg, key, depth + 1);
                    try { args.push_back(std::stod(r)); } catch (...) { return "${" + inner + "}"; }
                    arg.clear();
                } else
                    arg += ch;
            }
            if (args.size() < 2) return "${" + inner + "}";
            double v = args[0];
            for (std::size_t k = 1; k < args.size(); ++k)
                v = op == "multiply" ? v * args[k] : op == "sum" ? v + args[k] : op == "subtract" ? v - args[k] : op == "divide" ? v / args[k] : NAN;
            if (!std::isfinite(v)) return "${" + inner + "}";
            return v == std::floor(v) ? std::to_string(static_cast<long long>(v)) : std::to_string(v);
        }
        std::string ref = inner;
        if (!ref.empty() && ref[0] == '.') {
            const auto dot = key.rfind('.');
            ref = (dot == std::string::npos ? "" : key.substr(0, dot + 1)) + ref.substr(1);
        } else if (ref.rfind("training.", 0) == 0 && !values.count(ref))
            ref = ref.substr(9);
        const auto it = values.find(ref);
        return it == values.end() ? "${" + inner + "}" : resolve(it->second, ref, depth + 1);
    }
    std::map<std::string, std::string> values;
};

} // namespace

void importNeMo(ImportContext& c)
{
    const Interpolation interpolation(c.doc);
    ConfigDocument resolved = c.doc;
    for (ConfigValue& v : resolved.values)
        if (v.text.find("${") != std::string::npos)
            v.text = interpolation.resolve(v.text, v.key);
    ImportContext rc(resolved, c.out());
    importNeMoResolved(rc);
}

void importNeMoResolved(ImportContext& c)
{
    const ConfigDocument& d = c.doc;
    auto at = [&](const char* k) -> const ConfigValue* {
        for (const ConfigValue& v : d.values)
            if (nemoKey(v.key) == k)
                return &v;
        return nullptr;
    };
    auto integerAt = [&](const char* k, long long fallback) { const ConfigValue* v = at(k); return v ? c.integer(*v) : fallback; };
    const bool describesModel = at("model.num_layers") && at("model.hidden_size");
    if (describesModel) {
        c.setDefault("@replace_model", "1", "(the recipe describes the whole model)");
        c.setDefault("model.tied_embeddings", "true", "(NeMo's share_embeddings_and_output_weights default)");
        c.setDefault("model.linear_bias", "true", "(NeMo's bias default)");
        c.setDefault("model.position", "learned", "(NeMo's position_embedding_type default learned_absolute)");
        c.setDefault("model.norm", "layernorm", "(NeMo's normalization default)");
    }
    if (at("model.tensor_model_parallel_size") || at("model.micro_batch_size") || at("train.micro_batch_size"))
        c.setDefault("@replace_parallel", "1", "(the recipe describes the whole plan)");
    for (const ConfigValue& v : d.values)
        c.traced(v, v.isNull() ? "unset: NeMo's default" : "read with the keys it qualifies (the settings above)", [&] {
            const std::string k = nemoKey(v.key);
            auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
            auto setInt = [&](const char* field, long long min = 1) { set(field, std::to_string(c.integer(v, min))); };
            const bool known = tableHasKey(nemoKeyTable(), k);
            if (v.isNull())
                return;
            if (k == "trainer.num_nodes") {
                const ConfigValue* perNode = at("trainer.devices");
                set("cluster.gpus", std::to_string(c.integer(v) * (perNode ? c.integer(*perNode) : 8)));
            }
            else if (k == "trainer.devices") set("cluster.gpus_per_node", std::to_string(c.integer(v)));
            else if ((k == "trainer.precision" || k == "mixed_precision" || k == "model.precision" || k == "trainer.plugins") && at("model.fp8") && c.flag(*at("model.fp8")))
                c.note(v, "the format of everything but the FP8 matrix products (model.fp8)");
            else if (k == "model.hidden_dropout" || k == "model.attention_dropout") {
                if (c.number(v) > 0) set("model.dropout", "true");
                else c.note(v, "no dropout, as dtsim's model.dropout false");
            } else if (k == "trainer.precision" || k == "mixed_precision" || k == "model.precision" || k == "trainer.plugins") {
                const std::string p = lowerText(c.text(v));
                if (p.find("bf16") != std::string::npos) set("training.precision", "bf16");
                else if (p == "16" || p.find("16-mixed") != std::string::npos || p.find("fp16") != std::string::npos) set("training.precision", "fp16");
                else if (p == "32" || p == "fp32") set("training.precision", "fp32");
                else c.refuse(v, "a precision dtsim reads: bf16, 16, 32 (and their -mixed forms)");
                if (p.find("fp8") != std::string::npos) set("training.precision", "fp8");
            } else if (k == "trainer.max_steps" || k == "train.train_iters") c.set(v, "@steps", std::to_string(c.integer(v)));
            else if (k == "model.micro_batch_size" || k == "train.micro_batch_size") setInt("training.micro_batch");
            else if (k == "model.global_batch_size" || k == "train.global_batch_size") setInt("training.global_batch");
            else if (k == "model.encoder_seq_length" || k == "model.seq_length" || k == "dataset.sequence_length" || k == "model.seq_len") setInt("training.seq_len");
            else if (k == "model.tensor_model_parallel_size") { setInt("parallel.tp"); }
            else if (k == "model.pipeline_model_parallel_size") setInt("parallel.pp");
            else if (k == "model.virtual_pipeline_model_parallel_size") { setInt("parallel.virtual_stages"); if (c.integer(v) > 1) set("parallel.schedule", "interleaved"); }
            else if (k == "model.context_parallel_size") setInt("parallel.cp");
            else if (k == "model.expert_model_parallel_size") setInt("parallel.ep");
            else if (k == "model.expert_tensor_parallel_size") setInt("parallel.expert_tp");
            else if (k == "model.sequence_parallel") set("parallel.sequence_parallel", c.flag(v) ? "true" : "false");
            else if (k == "model.num_layers") setInt("model.layers");
            else if (k == "model.hidden_size") setInt("model.hidden");
            else if (k == "model.ffn_hidden_size") setInt("model.ffn_hidden");
            else if (k == "model.num_attention_heads") setInt("model.heads");
            else if (k == "model.num_query_groups") setInt("model.kv_heads");
            else if (k == "model.kv_channels") setInt("model.head_dim");
            else if (k == "model.share_embeddings_and_output_weights") set("model.tied_embeddings", c.flag(v) ? "true" : "false");
            else if (k == "model.bias" || k == "model.add_bias_linear") set("model.linear_bias", c.flag(v) ? "true" : "false");
            else if (k == "model.activation") {
                const std::string a = lowerText(c.text(v));
                set("model.gated_mlp", a.find("glu") != std::string::npos ? "true" : "false");
            } else if (k == "model.gated_linear_unit") set("model.gated_mlp", c.flag(v) ? "true" : "false");
            else if (k == "model.normalization") {
                const std::string n = lowerText(c.text(v));
                set("model.norm", n.find("rms") != std::string::npos ? "rmsnorm" : "layernorm");
            } else if (k == "model.position_embedding_type") set("model.position", lowerText(c.text(v)) == "learned_absolute" ? "learned" : "rotary");
            else if (k == "model.num_moe_experts") setInt("model.moe.experts");
            else if (k == "model.moe_router_topk") setInt("model.moe.top_k");
            else if (k == "model.moe_ffn_hidden_size") setInt("model.moe.expert_ffn_hidden");
            else if (k == "model.vocab_size") setInt("model.vocab");
            else if (k == "model.activations_checkpoint_granularity" || k == "model.recompute_granularity") {
                const std::string g = lowerText(c.text(v));
                if (g == "full" || g == "selective") set("parallel.recompute", g);
                else c.refuse(v, "the granularities are full and selective");
            } else if (k == "model.activations_checkpoint_method" || k == "model.recompute_method") {
                set("parallel.recompute", "full");
                const char* count = k == "model.recompute_method" ? "model.recompute_num_layers" : "model.activations_checkpoint_num_layers";
                if (lowerText(c.text(v)) == "block" && at(count)) c.set(*at(count), "parallel.recompute_layers", std::to_string(integerAt(count, 0)));
            } else if (k == "model.activations_checkpoint_num_layers" || k == "model.recompute_num_layers") return;
            else if (k == "model.fp8") { if (c.flag(v)) set("training.precision", "fp8"); }
            else if (k == "model.fp8_params" || k == "model.fp8_param_gather") { if (c.flag(v)) set("training.fp8_param_gather", "true"); }
            else if (k == "model.use_flash_attention") { if (c.flag(v)) set("training.attention_kernel", "flash2"); }
            else if (k == "model.ub_tp_comm_overlap" || k == "model.tp_comm_overlap") set("parallel.tp_comm_overlap", c.flag(v) ? "true" : "false");
            else if (k == "model.optim.name") {
                if (c.text(v).find("distributed") != std::string::npos) set("parallel.zero", "1");
                else c.note(v, "the optimizer's implementation");
            } else if (k == "model.optim.grad_sync_dtype" || k == "ddp.grad_reduce_in_fp32") {
                const std::string t = lowerText(c.text(v));
                if (k == "ddp.grad_reduce_in_fp32") set("training.grad_reduce", c.flag(v) ? "fp32" : "bf16");
                else if (t == "bf16" || t == "fp16" || t == "fp32") set("training.grad_reduce", t);
                else c.note(v, "a gradient format dtsim reads as FP32"), set("training.grad_reduce", "fp32");
            } else if (k == "ddp.use_distributed_optimizer" || k == "optimizer.use_distributed_optimizer") { if (c.flag(v)) set("parallel.zero", "1"); }
            else if (k == "ddp.overlap_grad_reduce" || k == "model.optim.overlap_grad_sync") set("parallel.overlap_grad_reduce", c.flag(v) ? "true" : "false");
            else if (k == "ddp.overlap_param_gather" || k == "model.optim.overlap_param_sync") set("parallel.overlap_param_gather", c.flag(v) ? "true" : "false");
            else if (k == "model.tokenizer.type" || k == "model.tokenizer.library" || k == "model.make_vocab_size_divisible_by") {
                const ConfigValue* type = at("model.tokenizer.type");
                if (k == "model.tokenizer.type" && type && c.text(*type) == "GPT2BPETokenizer" && !at("model.vocab_size"))
                    set("model.vocab", std::to_string(nemoPaddedVocab(50257, integerAt("model.make_vocab_size_divisible_by", 128),
                                           integerAt("model.tensor_model_parallel_size", 1))));
                else
                    c.note(v, "the tokenizer: its vocabulary size is what counts (set model.vocab)");
            } else if (known || freeForm(k))
                c.note(v, "not part of a training step's time, memory or traffic in dtsim");
            else
                c.unknown(v, "the NeMo / Megatron-Bridge recipe keys dtsim knows (resources/frameworks/nemo-keys.txt)");
        });
}

} // namespace dtsim
