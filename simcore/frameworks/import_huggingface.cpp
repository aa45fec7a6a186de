// Hugging Face config.json -> `model.*`. The key names differ by family (GPT-2's n_embd,
// T5's d_model); the defaults that a family's config class assumes when a key is left
// out are stated as soft settings, so the count matches what the class builds.
#include "import_context.h"

#include <set>

namespace dtsim {

namespace {

struct Family {
    bool gated = true;      // SwiGLU/GeGLU MLP
    bool tied = false;      // the config class's tie_word_embeddings default
    bool bias = false;      // biases on every linear layer
    bool learned = false;   // learned absolute positions
    bool layerNorm = false; // LayerNorm (else RMSNorm)
    bool encoder = false;   // bidirectional attention (BERT, ViT)
};

Family familyOf(const std::string& type)
{
    if (type == "gpt2" || type == "gpt_bigcode" || type == "opt" || type == "gptj")
        return { false, type != "gptj", true, type != "gptj", true, false };
    if (type == "gpt_neox")
        return { false, false, true, false, true, false };
    if (type == "bert" || type == "roberta")
        return { false, true, true, true, true, true };
    if (type == "vit")
        return { false, false, true, true, true, true };
    if (type == "t5")
        return { false, true, false, false, false, false };
    if (type == "gemma" || type == "gemma2" || type == "gemma3" || type == "gemma3_text")
        return { true, true, false, false, false, false };
    return {}; // Llama and the families that copied it: Mistral, Mixtral, Qwen, DeepSeek, GPT-OSS
}

const std::set<std::string> kFamilies { "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "deepseek_v2",
    "deepseek_v3", "gpt_oss", "gemma", "gemma2", "gemma3", "gemma3_text", "gpt2", "gpt_neox", "bert", "roberta", "t5", "vit",
    "olmo2", "phi3", "granite" };

IgnoredKeys ignoredKeys()
{
    IgnoredKeys k;
    k.add("names the code that loads the checkpoint; the step does not depend on it",
        { "architectures", "model_type", "_name_or_path", "transformers_version", "auto_map", "name_or_path", "_attn_implementation",
            "_attn_implementation_autoset", "is_decoder", "is_encoder_decoder", "library_name", "model_name" });
    k.add("the checkpoint's storage format, not the training precision (set training.precision)",
        { "torch_dtype", "dtype", "quantization_config", "quantization" });
    k.add("token ids of the tokenizer: no effect on the step",
        { "bos_token_id", "eos_token_id", "pad_token_id", "decoder_start_token_id", "sep_token_id", "cls_token_id", "unk_token_id",
            "mask_token_id", "forced_eos_token_id", "forced_bos_token_id", "image_token_index" });
    k.add("inference settings: no effect on a training step",
        { "use_cache", "task_specific_params", "output_attentions", "output_hidden_states", "return_dict", "num_beams",
            "max_length", "min_length", "early_stopping", "no_repeat_ngram_size", "length_penalty", "do_sample", "temperature",
            "top_p", "top_k", "repetition_penalty", "summary_type", "summary_use_proj", "summary_activation",
            "summary_proj_to_labels", "summary_first_dropout", "prefix", "use_return_dict", "tokenizer_class",
            "bad_words_ids", "num_return_sequences", "chunk_size_feed_forward", "use_sliding_window_cache",
            "cache_implementation", "gradient_checkpointing", "pretraining_tp", "output_past", "boi_token_index",
            "eoi_token_index", "mm_tokens_per_image", "image_token_id", "video_token_id", "vision_start_token_id", "id2label", "label2id", "finetuning_task",
            "problem_type", "classifier_dropout", "num_labels" });
    k.add("initialisation and numerical-stability constants: the same work per step",
        { "initializer_range", "initializer_factor", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "scale_attn_weights",
            "reorder_and_upcast_attn", "scale_attn_by_inverse_layer_idx", "attention_multiplier", "embedding_multiplier",
            "residual_multiplier", "logits_scaling", "query_pre_attn_scalar", "router_aux_loss_coef", "aux_loss_alpha",
            "output_router_logits", "router_z_loss_coef", "router_jitter_noise", "seq_aux", "norm_topk_prob",
            "routed_scaling_factor", "scoring_func", "topk_method", "n_group", "topk_group", "ep_size", "layer_norm_type",
            "swiglu_limit", "max_window_layers", "initializer_std", "use_qk_norm", "rope_interleave", "router_bias" });
    k.add("the rotary frequencies and context extension: the same work per token",
        { "rope_theta", "rope_scaling", "rope_type", "rotary_emb_base", "rotary_pct", "partial_rotary_factor", "rope_parameters",
            "original_max_position_embeddings", "rope_local_base_freq", "use_parallel_residual", "relative_attention_num_buckets",
            "relative_attention_max_distance", "position_embedding_type" });
    k.add("dropout is off in modern pre-training; dtsim's model.dropout turns the masks on",
        { "attention_dropout", "hidden_dropout", "resid_pdrop", "embd_pdrop", "attn_pdrop", "hidden_dropout_prob",
            "attention_probs_dropout_prob", "dropout_rate", "summary_dropout", "dropout" });
    return k;
}

void importHuggingFaceValue(ImportContext& c, const ConfigValue& raw, const std::string& type, const Family& fam,
    const IgnoredKeys& ignored, bool& moe, std::string& intermediate);

// A ViT is priced as dtsim's layer table of its size (its patches are the sequence):
// the config must be one of the tables' shapes (Dosovitskiy et al. 2021, Table 1).
void importVit(ImportContext& c)
{
    const ConfigDocument& d = c.doc;
    auto number = [&](const char* key, long long fallback) { const ConfigValue* v = d.find(key); return v ? c.integer(*v) : fallback; };
    const long long layers = number("num_hidden_layers", 12), hidden = number("hidden_size", 768), heads = number("num_attention_heads", 12),
                    patch = number("patch_size", 16), image = number("image_size", 224), ffn = number("intermediate_size", 4 * hidden);
    std::string table;
    if (layers == 12 && hidden == 768 && heads == 12 && patch == 16 && ffn == 3072)
        table = "vit-b-16";
    else if (layers == 24 && hidden == 1024 && heads == 16 && patch == 16 && ffn == 4096)
        table = "vit-l-16";
    const ConfigValue* type = d.find("model_type");
    if (table.empty())
        c.refuse(*type, "dtsim prices vision transformers as its layer tables vit-b-16 and vit-l-16; this ViT (" + std::to_string(layers)
                + " layers, width " + std::to_string(hidden) + ", patch " + std::to_string(patch) + ") is neither");
    c.setDefault("@replace_model", "1", "(a config.json describes the whole model)");
    c.set(*type, "model.table", table);
    for (const ConfigValue& v : d.values)
        if (&v != type)
            c.note(v, v.key == "image_size" && image != 224 ? "the table prices 224 x 224 images (196 patches and the class token)"
                                                            : "part of the " + table + " table");
}
void finishHuggingFace(ImportContext& c, const std::string& type, bool moe, const std::string& intermediate);

} // namespace

void importHuggingFace(ImportContext& c)
{
    const ConfigDocument& d = c.doc;
    const ConfigValue* typeValue = d.find("model_type");
    if (!typeValue)
        throw InputError(d.file, 1, "model_type", "a Hugging Face config names its model_type (llama, mixtral, gpt2, ...)");
    const std::string type = c.text(*typeValue);
    if (!kFamilies.count(type)) {
        std::string known;
        for (const std::string& f : kFamilies)
            known += (known.empty() ? "" : ", ") + f;
        c.refuse(*typeValue, "dtsim reads these families: " + known);
    }
    if (type == "vit") {
        importVit(c);
        return;
    }
    const Family fam = familyOf(type);
    const IgnoredKeys ignored = ignoredKeys();
    c.setDefault("@replace_model", "1", "(a config.json describes the whole model)");
    c.setDefault("model.gated_mlp", fam.gated ? "true" : "false", "(" + type + " MLP)");
    c.setDefault("model.tied_embeddings", fam.tied ? "true" : "false", "(" + type + "'s tie_word_embeddings default)");
    c.setDefault("model.linear_bias", fam.bias ? "true" : "false", "(" + type + " linear layers)");
    c.setDefault("model.position", fam.learned ? "learned" : "rotary", "(" + type + " positions)");
    c.setDefault("model.norm", fam.layerNorm ? "layernorm" : "rmsnorm", "(" + type + " norms)");
    if (fam.encoder)
        c.note(*typeValue, "an encoder attends both ways; dtsim prices attention as a decoder's (causal), about half the score FLOPs");
    if (type == "qwen2" || type == "qwen2_moe")
        c.note(*typeValue, "Qwen2 has biases on the Q, K and V projections only; dtsim's model.linear_bias is all or none (off: "
                           "they are under 0.01% of the parameters)");

    bool moe = false;
    std::string intermediate; // the config's intermediate_size, for families whose experts take it
    for (const ConfigValue& raw : d.values)
        c.traced(raw, raw.key == "model_type" || raw.key == "text_config.model_type" ? "the model's family: it decides the defaults of the keys left out"
                : raw.isNull()                                                ? "unset: the config class's default, as dtsim's"
                                                                              : "read: the same as dtsim's default",
            [&] { importHuggingFaceValue(c, raw, type, fam, ignored, moe, intermediate); });
    finishHuggingFace(c, type, moe, intermediate);
}

namespace {

void importHuggingFaceValue(ImportContext& c, const ConfigValue& raw, const std::string& type, const Family& fam,
    const IgnoredKeys& ignored, bool& moe, std::string& intermediate)
{
    const ConfigDocument& d = c.doc;
    {
        // A multimodal config nests its language model under text_config.
        const ConfigValue& v = raw;
        const std::string k = raw.key.rfind("text_config.", 0) == 0 ? raw.key.substr(12) : raw.key;
        const std::string base = k.substr(0, k.find_first_of(".["));
        if (k == "model_type" && raw.key != k)
            return;
        if (const std::string* why = ignored.find(base)) {
            if (!v.isNull())
                c.note(v, *why);
            return;
        }
        if (v.isNull() && base != "num_key_value_heads" && base != "n_inner" && base != "head_dim")
            return; // a key present but unset takes the class default
        if (type == "t5" && k == "num_layers") {
            // An encoder-decoder: dtsim stacks both halves as one decoder without cross-attention.
            const ConfigValue* decoder = d.find("num_decoder_layers");
            c.set(v, "model.layers", std::to_string(c.integer(v) + (decoder ? c.integer(*decoder) : c.integer(v))));
        } else if (k == "num_hidden_layers" || k == "n_layer" || k == "num_layers")
            c.set(v, "model.layers", std::to_string(c.integer(v)));
        else if (k == "hidden_size" || k == "n_embd" || k == "d_model")
            c.set(v, "model.hidden", std::to_string(c.integer(v)));
        else if (k == "num_attention_heads" || k == "n_head" || k == "num_heads")
            c.set(v, "model.heads", std::to_string(c.integer(v)));
        else if (k == "num_key_value_heads" || k == "multi_query_group_num") {
            if (!v.isNull())
                c.set(v, "model.kv_heads", std::to_string(c.integer(v)));
        } else if (k == "head_dim" || k == "d_kv" || k == "kv_channels") {
            if (!v.isNull())
                c.set(v, "model.head_dim", std::to_string(c.integer(v)));
        } else if (k == "intermediate_size" || k == "n_inner" || k == "d_ff" || k == "ffn_hidden_size") {
            if (!v.isNull()) {
                intermediate = std::to_string(c.integer(v));
                c.set(v, "model.ffn_hidden", intermediate);
            }
        } else if (k == "vocab_size" || k == "padded_vocab_size")
            c.set(v, "model.vocab", std::to_string(c.integer(v)));
        else if (k == "tie_word_embeddings")
            c.set(v, "model.tied_embeddings", c.flag(v) ? "true" : "false");
        else if (base == "vision_config")
            c.note(v, "the vision tower of a multimodal model is not modelled: dtsim prices the language model");
        else if (k == "max_position_embeddings" || k == "n_positions" || k == "n_ctx" || k == "seq_length" || k == "initial_context_length") {
            if (fam.learned)
                c.set(v, "training.seq_len", std::to_string(c.integer(v)), true);
            else
                c.note(v, "the longest context the model allows, not the training length (set training.seq_len)");
        } else if (k == "hidden_act" || k == "activation_function" || k == "hidden_activation" || k == "feed_forward_proj"
            || k == "dense_act_fn") {
            const std::string a = lowerText(c.text(v));
            if (a.find("gated") != std::string::npos)
                c.set(v, "model.gated_mlp", "true");
            if (!fam.gated && (a == "gelu_new" || a == "gelu_pytorch_tanh"))
                c.set(v, "model.activation", "gelu_new");
            else if (a != "silu" && a != "swiglu" && a != "gelu" && a != "relu" && a != "gelu_pytorch_tanh" && a != "gelu_new"
                && a != "gated-gelu" && a != "gelu_fast" && a != "quick_gelu")
                c.note(v, "an activation dtsim prices as GELU");
        } else if (k == "attention_bias" || k == "mlp_bias" || k == "bias" || k == "use_bias" || k == "add_bias_linear") {
            if (c.flag(v) && !fam.bias)
                c.note(v, "biases on these projections only; dtsim's model.linear_bias is all or none (left off: a fraction of a "
                          "percent of the parameters and FLOPs)");
        } else if (k == "num_local_experts" || k == "num_experts" || k == "n_routed_experts") {
            if (c.integer(v, 0) > 0) {
                moe = true;
                c.set(v, "model.moe.experts", std::to_string(c.integer(v)));
            }
        } else if (k == "num_experts_per_tok" || k == "experts_per_token" || k == "moe_topk")
            c.set(v, "model.moe.top_k", std::to_string(c.integer(v)));
        else if (k == "n_shared_experts" || k == "num_shared_experts")
            c.set(v, "model.moe.shared_experts", std::to_string(c.integer(v, 0)));
        else if (k == "moe_intermediate_size")
            c.set(v, "model.moe.expert_ffn_hidden", std::to_string(c.integer(v)));
        else if (k == "shared_expert_intermediate_size")
            c.note(v, "one shared expert of this width; dtsim counts shared experts of the routed experts' width");
        else if (k == "first_k_dense_replace")
            c.set(v, "model.moe.first_dense_layers", std::to_string(c.integer(v, 0)));
        else if (k == "moe_layer_freq" || k == "decoder_sparse_step")
            c.set(v, "model.moe.layer_interval", std::to_string(c.integer(v)));
        else if (base == "mlp_only_layers") {
            if (v.kind != ConfigValue::Kind::Empty)
                c.note(v, "dense layers at chosen places; dtsim places dense layers first (model.moe.first_dense_layers)");
        } else if (k == "q_lora_rank") {
            if (!v.isNull())
                c.set(v, "model.mla.q_lora_rank", std::to_string(c.integer(v, 0)));
        } else if (k == "kv_lora_rank")
            c.set(v, "model.mla.kv_lora_rank", std::to_string(c.integer(v)));
        else if (k == "qk_nope_head_dim")
            c.set(v, "model.mla.qk_nope_head_dim", std::to_string(c.integer(v)));
        else if (k == "qk_rope_head_dim")
            c.set(v, "model.mla.qk_rope_head_dim", std::to_string(c.integer(v, 0)));
        else if (k == "v_head_dim")
            c.set(v, "model.mla.v_head_dim", std::to_string(c.integer(v)));
        else if (k == "num_nextn_predict_layers") {
            if (c.integer(v, 0) > 0)
                c.note(v, "multi-token prediction modules (DeepSeek-V3: 14B more parameters) are not modelled");
        } else if (base == "sliding_window" || base == "layer_types" || base == "use_sliding_window" || base == "attention_chunk_size"
            || base == "attn_logit_softcapping" || base == "final_logit_softcapping" || base == "sliding_window_pattern") {
            if (v.kind != ConfigValue::Kind::Empty && v.text != "false")
                c.note(v, "local (sliding-window) attention and logit caps are not modelled: dtsim prices full causal attention");
        } else if (k == "type_vocab_size")
            c.note(v, "BERT's segment embeddings (a few thousand parameters) are not counted");
        else if (k == "num_decoder_layers")
            c.note(v, "an encoder-decoder: dtsim models encoder and decoder layers as one stack without the decoder's cross-attention "
                      "(T5-base: about 28M of its 223M parameters)");
        else if (k == "image_size" || k == "patch_size" || k == "num_channels" || k == "encoder_stride" || k == "qkv_bias")
            c.note(v, "vision input: model a ViT as a layer table (model.table: vit-b-16) to price its patches");
        else
            c.unknown(v, std::string(formatName(d.format)) + " (" + type + ")");
    }
}

void finishHuggingFace(ImportContext& c, const std::string& type, bool moe, const std::string& intermediate)
{
    const ConfigDocument& d = c.doc;
    // Families whose experts are as wide as the dense MLP name only intermediate_size.
    if (moe && !d.find("moe_intermediate_size") && !intermediate.empty())
        c.setDefault("model.moe.expert_ffn_hidden", intermediate, "(" + type + ": experts of intermediate_size)");
    // Gemma 3's text config leaves the vocabulary to the class default (transformers
    // Gemma3TextConfig: vocab_size=262208).
    if ((type == "gemma3" || type == "gemma3_text") && !d.find("vocab_size") && !d.find("text_config.vocab_size"))
        c.setDefault("model.vocab", "262208", "(Gemma3TextConfig's vocab_size default)");
    if (const ConfigValue* name = d.find("_name_or_path"); name && !name->text.empty())
        c.set(*name, "model.name", name->text, true);
}

} // namespace

} // namespace dtsim
