// Megatron-LM / Megatron-Core command-line arguments (a launch script's flags) ->
// model, batch, precision and plan. Megatron's own defaults differ from dtsim's (tied
// embeddings, biases, learned positions, LayerNorm, FP32), so they are stated as soft
// settings whenever the script describes a model or a plan.
#include "import_context.h"
#include "megatron_arguments.h"

#include <cmath>
#include <sstream>

namespace dtsim {

ArgumentKind megatronArgument(const std::string& flag)
{
    static const std::map<std::string, ArgumentKind> table = [] {
        std::map<std::string, ArgumentKind> t;
        std::istringstream in(megatronArgumentTable());
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            const auto space = line.find(' ');
            t[line.substr(0, space)] = line.substr(space + 1) == "switch" ? ArgumentKind::Switch : ArgumentKind::Value;
        }
        return t;
    }();
    const auto it = table.find(flag);
    return it == table.end() ? ArgumentKind::Unknown : it->second;
}

namespace {

// Launchers' own flags (torchrun, Slurm): the GPU count comes from them.
const std::map<std::string, ArgumentKind> kLauncherFlags {
    { "--nproc_per_node", ArgumentKind::Value }, { "--nproc-per-node", ArgumentKind::Value }, { "--nnodes", ArgumentKind::Value },
    { "--nodes", ArgumentKind::Value }, { "--ntasks-per-node", ArgumentKind::Value }, { "--gpus-per-node", ArgumentKind::Value },
    { "--node_rank", ArgumentKind::Value }, { "--node-rank", ArgumentKind::Value }, { "--master_addr", ArgumentKind::Value },
    { "--master-addr", ArgumentKind::Value }, { "--master_port", ArgumentKind::Value }, { "--master-port", ArgumentKind::Value },
    { "--rdzv_id", ArgumentKind::Value }, { "--rdzv_backend", ArgumentKind::Value }, { "--rdzv_endpoint", ArgumentKind::Value },
    { "--rdzv-id", ArgumentKind::Value }, { "--rdzv-backend", ArgumentKind::Value }, { "--rdzv-endpoint", ArgumentKind::Value },
    { "--job-name", ArgumentKind::Value }, { "--export", ArgumentKind::Value }, { "--exclusive", ArgumentKind::Switch },
    { "--mem", ArgumentKind::Value }, { "--overcommit", ArgumentKind::Switch }, { "--container-image", ArgumentKind::Value },
    { "--container-mounts", ArgumentKind::Value }, { "--output", ArgumentKind::Value }, { "--error", ArgumentKind::Value },
    { "--time", ArgumentKind::Value }, { "--partition", ArgumentKind::Value }, { "--account", ArgumentKind::Value },
    { "--gres", ArgumentKind::Value }, { "--ntasks", ArgumentKind::Value }, { "--cpus-per-task", ArgumentKind::Value },
    { "--dependency", ArgumentKind::Value }, { "--mpi", ArgumentKind::Value }, { "--standalone", ArgumentKind::Switch },
    { "--max_restarts", ArgumentKind::Value }, { "--max-restarts", ArgumentKind::Value }, { "--no-container-mount-home", ArgumentKind::Switch },
};

// GPT-2's BPE vocabulary (gpt2-vocab.json: 50,257 tokens), which Megatron pads.
constexpr long long kGpt2Vocab = 50257;

const char* reasonFor(const std::string& flag)
{
    auto has = [&](const char* s) { return flag.find(s) != std::string::npos; };
    if (has("lr") || has("adam") || has("weight-decay") || has("clip-grad") || has("init-method") || has("loss-scale")
        || has("warmup") || has("decay") || has("seed") || has("momentum") || has("sgd"))
        return "optimisation hyper-parameters: the same work per step";
    if (has("data") || has("split") || has("tokenizer") || has("vocab-file") || has("merge-file") || has("mock"))
        return "data and tokenizer paths: no effect on the step (the vocabulary size is what counts)";
    if (has("save") || has("load") || has("ckpt") || has("checkpoint"))
        return "checkpoint files: dtsim prices checkpoints from the reliability section";
    if (has("log") || has("tensorboard") || has("wandb") || has("eval") || has("timing") || has("profile") || has("exit"))
        return "logging, evaluation and exit conditions: not part of a training step";
    if (has("fusion") || has("fused") || has("gc") || has("empty-unused-memory") || has("distributed-timeout"))
        return "an implementation switch dtsim's kernel model already assumes";
    return "not modelled by dtsim: no effect on its step time, memory or communication";
}

long long paddedVocab(long long vocab, long long divisibleBy, long long tp)
{
    const long long multiple = divisibleBy * tp;
    return (vocab + multiple - 1) / multiple * multiple;
}

// One script's flags (after the launchers' flags and repeats are sorted out), mapped
// group by group.
class MegatronFlags {
public:
    explicit MegatronFlags(ImportContext& c) : c(c) {}
    void run();

private:
    bool mapModel(const std::string& flag, const ConfigValue& v);
    bool mapPlan(const std::string& flag, const ConfigValue& v);
    bool mapPrecision(const std::string& flag, const ConfigValue& v);
    bool mapExperts(const std::string& flag, const ConfigValue& v);
    bool mapOther(const std::string& flag, const ConfigValue& v);
    const ConfigValue* at(const char* flag) const
    {
        const auto it = given.find(flag);
        return it == given.end() ? nullptr : it->second;
    }
    long long integer(const char* flag, long long min = 1) const { return c.integer(*at(flag), min); }

    ImportContext& c;
    std::map<std::string, const ConfigValue*> given; // each flag's first occurrence
};

void MegatronFlags::run()
{
    const ConfigDocument& d = c.doc;
    long long nodes = 0, perNode = 0;
    const ConfigValue* nodesAt = nullptr;
    for (const ConfigValue& v : d.values) {
        if (v.key == "(condition)") {
            c.note(v, "a condition whose value the script does not know: its branch was skipped (set the variable with --var)");
            continue;
        }
        ArgumentKind kind = megatronArgument(v.key);
        const auto launcher = kLauncherFlags.find(v.key);
        if (kind == ArgumentKind::Unknown && launcher == kLauncherFlags.end())
            c.unknown(v, "Megatron-LM (checked against its arguments.py, 2021-2026) or of torchrun/Slurm");
        if (launcher != kLauncherFlags.end())
            kind = launcher->second;
        if (kind == ArgumentKind::Value && v.kind == ConfigValue::Kind::Empty)
            c.refuse(v, "takes a value, and none follows");
        if (launcher != kLauncherFlags.end()) {
            if (v.key == "--nnodes" || v.key == "--nodes") {
                nodes = c.integer(v);
                nodesAt = &v;
            } else if (v.key == "--nproc_per_node" || v.key == "--nproc-per-node" || v.key == "--ntasks-per-node" || v.key == "--gpus-per-node") {
                perNode = c.integer(v);
                c.set(v, "cluster.gpus_per_node", std::to_string(perNode));
            } else
                c.note(v, "a launcher setting: no effect on the step");
            continue;
        }
        if (auto old = given.find(v.key); old != given.end() && old->second->text == v.text)
            continue; // the same flag again (a variable expanded into a second command): its first line counts
        if (auto old = given.find(v.key); old != given.end() && old->second->text != v.text)
            throw InputError(v.file.empty() ? d.file : v.file, v.line, v.key, "given again with another value (" + v.text + "; "
                    + c.origin(*old->second).file + ":" + std::to_string(old->second->line) + " gives " + old->second->text + "); Megatron would take the last");
        given[v.key] = &v;
    }
    if (nodes > 0)
        c.set(*nodesAt, "cluster.gpus", std::to_string(nodes * (perNode > 0 ? perNode : 8)));

    const bool describesModel = at("--num-layers") || at("--hidden-size");
    if (describesModel) {
        c.setDefault("@replace_model", "1", "(the script describes the whole model)");
        c.setDefault("model.tied_embeddings", "true", "(Megatron ties the output layer unless --untie-embeddings-and-output-weights)");
        c.setDefault("model.linear_bias", "true", "(Megatron's linear layers have biases unless --disable-bias-linear)");
        c.setDefault("model.position", "learned", "(Megatron's default --position-embedding-type learned_absolute)");
        c.setDefault("model.norm", "layernorm", "(Megatron's default --normalization LayerNorm)");
        c.setDefault("model.activation", "gelu", "(Megatron's GELU MLP)");
        if (!at("--hidden-dropout") && !at("--attention-dropout"))
            c.note(*at(at("--num-layers") ? "--num-layers" : "--hidden-size"),
                "Megatron's default dropout (0.1) is left off (model.dropout false), as in dtsim's validation of Megatron's 2020-2022 "
                "runs (simcore/validation/framework_facts.h); set model.dropout to price its masks");
    }
    const bool describesPlan = at("--tensor-model-parallel-size") || at("--pipeline-model-parallel-size") || at("--micro-batch-size");
    if (describesPlan) {
        c.setDefault("@replace_parallel", "1", "(the script describes the whole plan)");
        c.setDefault("parallel.overlap_grad_reduce", "false", "(Megatron reduces gradients after backward unless --overlap-grad-reduce)");
        c.setDefault("parallel.overlap_param_gather", "false", "(Megatron gathers parameters before forward unless --overlap-param-gather)");
        c.setDefault("training.precision", "fp32", "(Megatron trains in FP32 unless --fp16 or --bf16)");
    }
    for (const auto& [flag, vp] : given)
        c.traced(*vp, "read with the flags it qualifies", [&, flag = flag, vp = vp] {
            if (!mapModel(flag, *vp) && !mapPlan(flag, *vp) && !mapPrecision(flag, *vp) && !mapExperts(flag, *vp) && !mapOther(flag, *vp))
                c.note(*vp, reasonFor(flag));
        });
}

// The model: its dimensions, MLP, norms, positions, vocabulary.
bool MegatronFlags::mapModel(const std::string& flag, const ConfigValue& v)
{
    auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
    auto setInt = [&](const char* field, long long min = 1) { set(field, std::to_string(c.integer(v, min))); };
    if (flag == "--num-layers") setInt("model.layers");
    else if (flag == "--hidden-size") setInt("model.hidden");
    else if (flag == "--num-attention-heads") setInt("model.heads");
    else if (flag == "--num-query-groups") { if (at("--group-query-attention")) setInt("model.kv_heads"); else c.note(v, "ignored by Megatron without --group-query-attention"); }
    else if (flag == "--group-query-attention") { if (!at("--num-query-groups")) c.note(v, "without --num-query-groups Megatron keeps one group per head"); }
    else if (flag == "--kv-channels") setInt("model.head_dim");
    else if (flag == "--ffn-hidden-size") setInt("model.ffn_hidden");
    else if (flag == "--swiglu") set("model.gated_mlp", "true");
    else if (flag == "--untie-embeddings-and-output-weights") set("model.tied_embeddings", "false");
    else if (flag == "--disable-bias-linear") set("model.linear_bias", "false");
    else if (flag == "--add-qkv-bias") c.note(v, "biases on Q, K and V only; dtsim's model.linear_bias is all or none");
    else if (flag == "--normalization") {
        const std::string n = lowerText(c.text(v));
        if (n == "rmsnorm") set("model.norm", "rmsnorm");
        else if (n == "layernorm") set("model.norm", "layernorm");
        else c.refuse(v, "dtsim models LayerNorm and RMSNorm");
    } else if (flag == "--position-embedding-type") {
        const std::string p = lowerText(c.text(v));
        if (p == "rope" || p == "yarn" || p == "mrope") set("model.position", "rotary");
        else if (p == "learned_absolute") set("model.position", "learned");
        else c.note(v, "no position parameters; dtsim prices it as rotary"), set("model.position", "rotary");
    } else if (flag == "--use-rotary-position-embeddings") set("model.position", "rotary");
    else if (flag == "--seq-length") setInt("training.seq_len");
    else if (flag == "--max-position-embeddings") c.note(v, "the position table's size; with learned positions dtsim sizes it by training.seq_len");
    else if (flag == "--vocab-size") set("model.vocab", std::to_string(paddedVocab(c.integer(v),
             at("--make-vocab-size-divisible-by") ? integer("--make-vocab-size-divisible-by") : 128,
             at("--tensor-model-parallel-size") ? integer("--tensor-model-parallel-size") : 1)));
    else if (flag == "--merge-file" && !at("--vocab-size")) {
        const ConfigValue* tok = at("--tokenizer-type");
        if (!tok || c.text(*tok) == "GPT2BPETokenizer")
            set("model.vocab", std::to_string(paddedVocab(kGpt2Vocab,
                    at("--make-vocab-size-divisible-by") ? integer("--make-vocab-size-divisible-by") : 128,
                    at("--tensor-model-parallel-size") ? integer("--tensor-model-parallel-size") : 1)));
        c.note(v, "GPT-2's BPE files: 50,257 tokens, padded by Megatron to a multiple of 128 x TP");
    }
    else
        return false;
    return true;
}

// The plan: degrees, stages, batch, recomputation.
bool MegatronFlags::mapPlan(const std::string& flag, const ConfigValue& v)
{
    auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
    auto setInt = [&](const char* field, long long min = 1) { set(field, std::to_string(c.integer(v, min))); };
    if (flag == "--tensor-model-parallel-size") { setInt("parallel.tp"); }
    else if (flag == "--pipeline-model-parallel-size") setInt("parallel.pp");
    else if (flag == "--context-parallel-size") setInt("parallel.cp");
    else if (flag == "--expert-model-parallel-size") setInt("parallel.ep");
    else if (flag == "--expert-tensor-parallel-size") setInt("parallel.expert_tp");
    else if (flag == "--sequence-parallel") set("parallel.sequence_parallel", "true");
    else if (flag == "--virtual-pipeline-model-parallel-size") { setInt("parallel.virtual_stages"); set("parallel.schedule", "interleaved"); }
    else if (flag == "--num-layers-per-virtual-pipeline-stage") {
        const long long layers = at("--num-layers") ? integer("--num-layers") : 0;
        const long long pp = at("--pipeline-model-parallel-size") ? integer("--pipeline-model-parallel-size") : 1;
        const long long per = c.integer(v);
        if (layers == 0 || layers % (pp * per) != 0)
            c.refuse(v, "needs --num-layers divisible by pipeline stages x this");
        set("parallel.virtual_stages", std::to_string(layers / (pp * per)));
        set("parallel.schedule", "interleaved");
    } else if (flag == "--decoder-first-pipeline-num-layers") setInt("parallel.first_stage_layers");
    else if (flag == "--decoder-last-pipeline-num-layers") setInt("parallel.last_stage_layers");
    else if (flag == "--micro-batch-size") setInt("training.micro_batch");
    else if (flag == "--global-batch-size") setInt("training.global_batch");
    else if (flag == "--train-iters") c.set(v, "@steps", std::to_string(c.integer(v)));
    else if (flag == "--train-samples") c.set(v, "@samples", std::to_string(c.integer(v)));
    else if (flag == "--rampup-batch-size" || flag == "--step-batch-size-schedule")
        c.note(v, "a batch that grows during the run: dtsim prices the final --global-batch-size");
    else if (flag == "--recompute-granularity") {
        const std::string g = lowerText(c.text(v));
        if (g == "full" || g == "selective") set("parallel.recompute", g);
        else c.refuse(v, "Megatron's granularities are full and selective");
    } else if (flag == "--recompute-method" || flag == "--activations-checkpoint-method") {
        const std::string m = lowerText(c.text(v));
        if (m != "uniform" && m != "block") c.refuse(v, "Megatron's methods are uniform and block");
        set("parallel.recompute", "full");
        const char* count = flag == "--recompute-method" ? "--recompute-num-layers" : "--activations-checkpoint-num-layers";
        if (m == "block" && at(count)) c.set(*at(count), "parallel.recompute_layers", std::to_string(integer(count)));
    } else if (flag == "--checkpoint-activations") set("parallel.recompute", "full");
    else if (flag == "--recompute-num-layers" || flag == "--activations-checkpoint-num-layers") {
        const ConfigValue* method = at(flag == "--recompute-num-layers" ? "--recompute-method" : "--activations-checkpoint-method");
        if (!method || lowerText(method->text) != "block")
            c.note(v, "uniform recomputation: every layer's input is kept, every layer recomputed (the group size does not change the work)");
    }
    else
        return false;
    return true;
}

// Precision, optimizer sharding, overlaps, kernels.
bool MegatronFlags::mapPrecision(const std::string& flag, const ConfigValue& v)
{
    auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
    if ((flag == "--fp16" || flag == "--bf16") && at("--fp8-format"))
        c.note(v, "the format of everything but the FP8 matrix products (dtsim's fp8 precision keeps 16-bit weights and activations)");
    else if (flag == "--fp16") set("training.precision", "fp16");
    else if (flag == "--bf16") set("training.precision", "bf16");
    else if (flag == "--fp8-format") set("training.precision", "fp8");
    else if (flag == "--fp8-recipe") {
        const std::string r = lowerText(c.text(v));
        if (r == "delayed" || r == "tensorwise") set("training.scaling", "tensorwise");
        else if (r == "mxfp8" || r == "blockwise") set("training.scaling", r);
        else c.refuse(v, "dtsim's FP8 recipes: delayed/tensorwise, blockwise, mxfp8");
    } else if (flag == "--fp8-param-gather") set("training.fp8_param_gather", "true");
    else if (flag == "--grad-reduce-in-bf16") set("training.grad_reduce", "bf16");
    else if (flag == "--accumulate-allreduce-grads-in-fp32") set("training.grad_reduce", "fp32");
    else if (flag == "--use-distributed-optimizer") set("parallel.zero", "1");
    else if (flag == "--overlap-grad-reduce") set("parallel.overlap_grad_reduce", "true");
    else if (flag == "--overlap-param-gather") set("parallel.overlap_param_gather", "true");
    else if (flag == "--tp-comm-overlap") set("parallel.tp_comm_overlap", "true");
    else if (flag == "--overlap-moe-expert-parallel-comm") set("parallel.overlap_ep_comm", "true");
    else if (flag == "--moe-enable-deepep") set("parallel.ep_dispatcher", "deepep");
    else if (flag == "--moe-token-dispatcher-type") {
        const std::string t = lowerText(c.text(v));
        if (t == "flex") set("parallel.ep_dispatcher", "deepep");
        else if (t == "alltoall" || t == "allgather") set("parallel.ep_dispatcher", "alltoall");
        else c.refuse(v, "Megatron's dispatchers are allgather, alltoall and flex");
    } else if (flag == "--use-flash-attn") set("training.attention_kernel", "flash2");
    else if (flag == "--attention-backend") {
        const std::string b = lowerText(c.text(v));
        if (b == "flash" || b == "fused" || b == "auto") set("training.attention_kernel", "flash2");
        else if (b == "unfused" || b == "local") set("training.attention_kernel", "unfused");
        else c.refuse(v, "Megatron's attention backends are flash, fused, unfused, local and auto");
    }
    else
        return false;
    return true;
}

// Mixture of experts and multi-head latent attention.
bool MegatronFlags::mapExperts(const std::string& flag, const ConfigValue& v)
{
    auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
    auto setInt = [&](const char* field, long long min = 1) { set(field, std::to_string(c.integer(v, min))); };
    if (flag == "--num-experts") setInt("model.moe.experts");
    else if (flag == "--moe-router-topk") setInt("model.moe.top_k");
    else if (flag == "--moe-ffn-hidden-size") setInt("model.moe.expert_ffn_hidden");
    else if (flag == "--moe-shared-expert-intermediate-size") {
        const ConfigValue* width = at("--moe-ffn-hidden-size");
        const long long w = width ? c.integer(*width) : (at("--ffn-hidden-size") ? integer("--ffn-hidden-size") : 0);
        if (w <= 0 || c.integer(v) % w != 0)
            c.refuse(v, "dtsim counts shared experts of the routed experts' width; this is not a multiple of it");
        set("model.moe.shared_experts", std::to_string(c.integer(v) / w));
    } else if (flag == "--moe-expert-capacity-factor") set("model.moe.capacity_factor", c.text(v));
    else if (flag == "--moe-layer-freq") {
        const std::string f = c.text(v);
        if (f.find_first_not_of("0123456789") == std::string::npos) setInt("model.moe.layer_interval");
        else c.note(v, "a per-layer pattern; dtsim places dense layers first (model.moe.first_dense_layers)");
    } else if (flag == "--moe-router-group-topk") setInt("model.moe.max_nodes_per_token", 0);
    else if (flag == "--multi-latent-attention") { if (!at("--kv-lora-rank")) c.refuse(v, "needs --kv-lora-rank"); }
    else if (flag == "--q-lora-rank") setInt("model.mla.q_lora_rank", 0);
    else if (flag == "--kv-lora-rank") setInt("model.mla.kv_lora_rank");
    else if (flag == "--qk-head-dim") setInt("model.mla.qk_nope_head_dim");
    else if (flag == "--qk-pos-emb-head-dim") setInt("model.mla.qk_rope_head_dim", 0);
    else if (flag == "--v-head-dim") setInt("model.mla.v_head_dim");
    else
        return false;
    return true;
}

// What the tokenizer, dropout and the legacy flags say.
bool MegatronFlags::mapOther(const std::string& flag, const ConfigValue& v)
{
    auto set = [&](const char* field, const std::string& value) { c.set(v, field, value); };
    if (flag == "--make-vocab-size-divisible-by" || flag == "--tokenizer-type" || flag == "--use-mcore-models")
        c.note(v, flag == "--tokenizer-type" ? "the tokenizer; the vocabulary size is what counts" : "read with the vocabulary or the model");
    else if (flag == "--DDP-impl")
        c.note(v, "local or torch DistributedDataParallel: dtsim's parallel.overlap_grad_reduce says whether the reduce overlaps backward");
    else if (flag == "--hidden-dropout" || flag == "--attention-dropout") {
        if (c.number(v) > 0) set("model.dropout", "true");
        else c.note(v, "no dropout, as dtsim's model.dropout false");
    }
    else
        return false;
    return true;
}

} // namespace

void importMegatron(ImportContext& c)
{
    MegatronFlags(c).run();
}

} // namespace dtsim
