// torchtitan's TOML -> model (by name and flavor, from the catalogue), batch, plan,
// recomputation and Float8. torchtitan's code decides what the TOML leaves out: FSDP
// over the data-parallel ranks, separate Q/K/V and gate/up projections, SDPA's flash
// kernel, and one micro-batch per replica step unless the pipeline splits it.
#include "framework_keys.h"
#include "import_context.h"

namespace dtsim {

namespace {

// torchtitan's model flavors that the catalogue holds (torchtitan/models/*/__init__.py).
std::string catalogueId(const std::string& name, const std::string& flavor)
{
    if (name == "llama3" || name == "llama3_ft") {
        if (flavor == "8B") return "llama-3.1-8b";
        if (flavor == "70B") return "llama-3.1-70b";
        if (flavor == "405B") return "llama-3.1-405b";
    }
    if (name == "llama2" && flavor == "7B") return "llama-2-7b";
    if (name == "llama2" && flavor == "13B") return "llama-2-13b";
    if (name == "llama2" && flavor == "70B") return "llama-2-70b";
    if (name == "deepseek_v3" && flavor == "671B") return "deepseek-v3";
    if (name == "qwen3" && flavor == "8B") return "qwen3-8b";
    if (name == "qwen3" && flavor == "235B-A22B") return "qwen3-235b-a22b";
    return {};
}

} // namespace

void importTorchtitan(ImportContext& c)
{
    const ConfigDocument& d = c.doc;
    auto at = [&](const char* key) { return d.find(key); };
    std::string name = "llama3", flavor = "debugmodel";
    if (const ConfigValue* v = at("model.name")) name = c.text(*v);
    if (const ConfigValue* v = at("model.flavor")) flavor = c.text(*v);
    const std::string id = catalogueId(name, flavor);
    if (const ConfigValue* v = at("model.flavor")) {
        if (id.empty())
            c.note(*v, "torchtitan's " + name + " \"" + flavor + "\" is not in dtsim's model catalogue: keep the scenario's model, or import "
                    "its Hugging Face config.json beside this file");
        else
            c.set(*v, "@model", id);
    }
    c.setDefault("@replace_parallel", "1", "(a torchtitan job describes the whole plan)");
    c.setDefault("training.fused_projections", "false", "(torchtitan keeps wq, wk, wv and w1, w3 as separate linears)");
    c.setDefault("training.attention_kernel", "flash2", "(torchtitan runs PyTorch SDPA's flash kernel)");
    c.setDefault("training.fused_kernels", "false", "(eager PyTorch unless [compile] enable = true)");
    c.setDefault("training.seq_len", "2048", "(torchtitan's training.seq_len default)");
    c.setDefault("training.precision", "bf16", "(torchtitan's mixed_precision_param default, bfloat16)");

    long long tp = 1, pp = 1, shard = -1, replicate = 1;
    if (const ConfigValue* v = at("parallelism.tensor_parallel_degree")) tp = c.integer(*v);
    if (const ConfigValue* v = at("parallelism.pipeline_parallel_degree")) pp = c.integer(*v);
    if (const ConfigValue* v = at("parallelism.data_parallel_shard_degree")) shard = c.integer(*v, -1);
    if (const ConfigValue* v = at("parallelism.data_parallel_replicate_degree")) replicate = c.integer(*v);
    if (shard == 0)
        c.refuse(*at("parallelism.data_parallel_shard_degree"), "a degree is -1 (the rest of the ranks) or at least 1");
    const bool fsdp = shard != 1;
    c.setDefault("parallel.zero", fsdp ? "3" : "0", fsdp ? "(FSDP2 over the data-parallel shard ranks)" : "(data parallel, replicated)");

    bool float8 = false;
    const ConfigValue* float8At = nullptr;
    for (const ConfigValue& v : d.values)
        if (v.key.rfind("model.converters", 0) == 0 && v.text == "float8")
            float8 = true, float8At = &v;
    for (const ConfigValue& v : d.values)
        c.traced(v, "read with the keys it qualifies", [&] {
            const std::string& k = v.key;
            auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
            if (!tableHasKey(torchtitanKeyTable(), k))
                c.unknown(v, "torchtitan's job config (tests/frameworks/torchtitan/KEYS.md)");
            if (k == "model.name" || k == "model.flavor")
                return;
            if (k.rfind("model.converters", 0) == 0) {
                if (v.text == "float8") return;
                else if (v.text == "mx") set("training.precision", "fp8"), set("training.scaling", "mxfp8");
                else if (v.kind != ConfigValue::Kind::Empty) c.note(v, "a model converter dtsim does not model");
            } else if (k == "training.local_batch_size" || k == "training.batch_size") {
                // Without a pipeline, the local batch is one forward pass (a micro-batch); a
                // larger global batch accumulates them. Unset, the global batch is local x DP.
                const ConfigValue* global = at("training.global_batch_size");
                if (pp == 1) set("training.micro_batch", std::to_string(c.integer(v)));
                if (!global || c.integer(*global, -1) <= 0) c.set(v, "@per_replica_batch", std::to_string(c.integer(v)));
            }
            else if (k == "training.global_batch_size") { const long long g = c.integer(v, -1); if (g > 0) set("training.global_batch", std::to_string(g)); }
            else if (k == "training.seq_len") set("training.seq_len", std::to_string(c.integer(v)));
            else if (k == "training.steps") c.set(v, "@steps", std::to_string(c.integer(v)));
            else if (k == "training.mixed_precision_param") {
                // With Float8 linears the GEMMs run in FP8 and this is the parameters' format.
                const std::string p = c.text(v);
                if (float8) c.note(v, "the parameters' format under Float8 training (dtsim's fp8 precision keeps 16-bit weights)");
                else if (p == "bfloat16") set("training.precision", "bf16");
                else if (p == "float32") set("training.precision", "fp32");
                else c.refuse(v, "torchtitan's choices are bfloat16 and float32");
            } else if (k == "training.dtype") {
                if (c.text(v) == "bfloat16") c.note(v, "pure BF16 (no FP32 master weights): dtsim keeps training.master_weights_fp32 as the scenario has it");
            } else if (k == "training.mixed_precision_reduce") set("training.grad_reduce", c.text(v) == "bfloat16" ? "bf16" : "fp32");
            else if (k == "parallelism.tensor_parallel_degree") {
                set("parallel.tp", std::to_string(tp));
                if (tp > 1) set("parallel.sequence_parallel", "true");
            } else if (k == "parallelism.pipeline_parallel_degree") set("parallel.pp", std::to_string(pp));
            else if (k == "parallelism.context_parallel_degree") set("parallel.cp", std::to_string(c.integer(v)));
            else if (k == "parallelism.expert_parallel_degree") set("parallel.ep", std::to_string(c.integer(v)));
            else if (k == "parallelism.expert_tensor_parallel_degree") set("parallel.expert_tp", std::to_string(c.integer(v)));
            else if (k == "parallelism.data_parallel_shard_degree") {
                if (shard > 1 && replicate > 1)
                    c.note(v, "HSDP (shard within groups, replicate across): dtsim shards over every data-parallel rank");
            } else if (k == "parallelism.data_parallel_replicate_degree") {
                if (replicate > 1 && !fsdp) c.note(v, "replicated data parallel: dtsim's dp is the GPUs left over");
            } else if (k == "parallelism.enable_async_tensor_parallel") {
                if (c.flag(v) && tp > 1) set("parallel.tp_comm_overlap", "true"), set("parallel.tp_comm_overlap_backward", "false");
            } else if (k == "parallelism.pipeline_parallel_schedule" && pp == 1) {
                c.note(v, "no pipeline (pipeline_parallel_degree 1): the schedule does not apply");
            } else if (k == "parallelism.pipeline_parallel_schedule") {
                const std::string s = lowerText(c.text(v));
                if (s == "1f1b") set("parallel.schedule", "1f1b");
                else if (s == "gpipe") set("parallel.schedule", "gpipe");
                else if (s == "interleaved1f1b" || s == "loopedbfs" || s == "interleavedzerobubble" || s == "zbvzerobubble")
                    set("parallel.schedule", "interleaved");
                else if (s == "dualpipev") set("parallel.schedule", "dualpipe");
                else c.refuse(v, "dtsim's schedules: 1F1B, GPipe, Interleaved1F1B (and the zero-bubble variants, priced as it), DualPipeV");
                if (s == "interleavedzerobubble" || s == "zbvzerobubble")
                    c.note(v, "zero-bubble schedules split the backward pass; dtsim prices them as interleaved 1F1B");
            } else if (k == "parallelism.pipeline_parallel_microbatch_size") set("training.micro_batch", std::to_string(c.integer(v)));
            else if (k == "activation_checkpoint.mode") {
                const std::string m = c.text(v);
                if (m == "full" || m == "none") set("parallel.recompute", m);
                else if (m == "selective") {
                    const ConfigValue* option = at("activation_checkpoint.selective_ac_option");
                    const std::string o = option ? c.text(*option) : "2";
                    if (o == "op") set("parallel.recompute", "per-op");
                    else {
                        set("parallel.recompute", "full");
                        c.note(option ? *option : v, "every " + o + "th layer fully recomputed: dtsim recomputes all the layers (it has no every-Nth policy)");
                    }
                } else c.note(v, "a memory-budget policy dtsim does not model"), set("parallel.recompute", "full");
            } else if (k == "activation_checkpoint.selective_ac_option") return;
            else if (k == "compile.enable" || k == "training.compile") set("training.fused_kernels", c.flag(v) ? "true" : "false");
            else if (k == "quantize.linear.float8.enable_fsdp_float8_all_gather" || k == "float8.enable_fsdp_float8_all_gather") {
                if (c.flag(v)) set("training.fp8_param_gather", "true");
            } else if (k == "quantize.linear.float8.recipe_name" || k == "float8.recipe_name") {
                const std::string r = c.text(v);
                set("training.scaling", r.rfind("rowwise", 0) == 0 ? "rowwise" : "tensorwise");
            } else if (k.rfind("quantize.linear.float8", 0) == 0 || k.rfind("float8.", 0) == 0) {
                if (k.find("filter_fqns") == std::string::npos && k.find("precompute") == std::string::npos)
                    c.note(v, "a Float8 detail dtsim does not model");
            } else if (k == "training.enable_cpu_offload") {
                if (c.flag(v)) c.note(v, "FSDP CPU offload is not modelled: the step is priced with everything on the GPU");
            } else
                c.note(v, "not part of a training step's time, memory or traffic");
        });
    if (float8) {
        c.set(*float8At, "training.precision", "fp8");
        c.setDefault("training.scaling", "tensorwise", "(torchao's default Float8 recipe)");
        if (tp > 1)
            c.setDefault("training.fp8_tp_all_gather", "true", "(torchao's Float8 tensor parallelism all-gathers in FP8)");
    }
}

} // namespace dtsim
