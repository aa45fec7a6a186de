// Built-in layer tables of transformer families that dtsim's decoder-only engine does not
// cover: ViT and BERT encoders, the T5 encoder-decoder and the DiT denoiser
// (docs/layers.md lists them with their sources).
#include "family_parts.h"

namespace dtsim::family {

// A ViT encoder (Dosovitskiy et al. 2021, Table 1): 16 x 16 patches embedded by a
// convolution, pre-norm blocks of attention and a GELU MLP (4x width), each with its
// residual; per-position linear layers are 1 x 1 convolutions over the patch grid, and
// attention treats the grid's 196 positions as its sequence. Without the class token and
// position embeddings (0.2% of ViT-B's parameters); the head reads the mean of the patches.
LayerTable vit(const std::string& size, int layers, long long width, long long heads)
{
    LayerTable t = named("ViT-" + size + "/16",
        "Dosovitskiy et al., 'An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale', ICLR 2021, Table 1",
        { 3, 224, 224 });
    Layer patches = conv("patch_embed", width, 16, 16, 0);
    t.layers.push_back(patches);
    std::string stream = "patch_embed";
    for (int b = 0; b < layers; ++b) {
        const std::string n = "block" + std::to_string(b);
        t.layers.push_back(norm(n + "_ln1", true));
        addSelfAttention(t, n, width, heads);
        addResidual(t, n + "_add1", stream);
        t.layers.push_back(norm(n + "_ln2", true));
        addMlp(t, n, width, 4 * width, "gelu");
        addResidual(t, n + "_add2", n + "_add1");
        stream = n + "_add2";
    }
    t.layers.push_back(norm("final_ln", true));
    t.layers.push_back(pool("mean", 14, 1));
    t.layers.push_back(linear("head", 1000));
    return t;
}

// BERT (Devlin et al. 2019, Sec. 3 and A.2) pre-training on sequences of `seq` tokens:
// the table's input is the embedded sequence (one vector a token, width x 1 x seq), the
// word, position and segment tables looked up beside it; post-norm blocks (attention,
// add, norm; a GELU MLP of 4x width, add, norm). The masked-LM head runs on the masked
// positions only (15%: every 7th position stands in for them, 74 of 512), through a dense
// layer, GELU and norm to a decoder tied to the word embeddings; the next-sentence head
// reads the first token through the pooler. Dropout is left out.
LayerTable bert(const std::string& size, int layers, long long width, long long heads, long long seq)
{
    LayerTable t = named("BERT-" + size + " (" + std::to_string(seq) + " tokens)",
        "Devlin et al., 'BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding', NAACL 2019, Sec. 3, A.2 "
        "(vocabulary 30,522, 512 positions, 2 segments)",
        { width, 1, seq });
    auto table = [&](const std::string& n, long long rows) {
        Layer e = simple(n, LayerType::Embedding);
        e.rows = rows;
        e.dim = width;
        e.lookups = seq;
        e.input = "input";
        t.layers.push_back(e);
    };
    table("word_embeddings", 30522);
    table("position_embeddings", 512);
    table("segment_embeddings", 2);
    Layer embNorm = norm("embeddings_ln", true);
    embNorm.input = "input";
    t.layers.push_back(embNorm);
    std::string stream = "embeddings_ln";
    for (int b = 0; b < layers; ++b) {
        const std::string n = "layer" + std::to_string(b);
        addSelfAttention(t, n, width, heads);
        addResidual(t, n + "_add1", stream);
        t.layers.push_back(norm(n + "_ln1", true));
        addMlp(t, n, width, 4 * width, "gelu");
        addResidual(t, n + "_add2", n + "_ln1");
        t.layers.push_back(norm(n + "_ln2", true));
        stream = n + "_ln2";
    }
    Layer masked = pool("masked_positions", 1, 7);
    masked.input = stream;
    t.layers.push_back(masked);
    t.layers.push_back(conv("mlm_dense", width, 1, 1, 0));
    t.layers.push_back(simple("mlm_gelu", LayerType::Elementwise));
    t.layers.push_back(norm("mlm_ln", true));
    Layer decoder = conv("mlm_decoder", 30522, 1, 1, 0);
    decoder.tied = "word_embeddings";
    t.layers.push_back(decoder);
    Layer first = pool("first_token", 1, seq);
    first.input = stream;
    t.layers.push_back(first);
    t.layers.push_back(linear("pooler", width));
    t.layers.push_back(simple("pooler_tanh", LayerType::Elementwise));
    t.layers.push_back(linear("nsp", 2));
    return t;
}

// T5 (Raffel et al. 2020, Sec. 3.1 and 3.2.2, Table 14), an encoder-decoder pre-trained
// on span corruption: 512 input tokens, 114 target tokens (the t5x span-corruption
// configurations' feature lengths). The table's input is the embedded input sequence;
// one vocabulary table (32,128 rows, Hugging Face's t5 checkpoints) embeds both sides and
// is the language-model head's weight (`tied`). Pre-norm blocks with bias-free linear
// layers and a ReLU MLP; the decoder attends causally to itself, then to the encoder's
// output through keys and values projected in each decoder layer (`memory`). Norms are
// counted with a scale and a shift (T5's RMS norm has the scale only: 768 fewer a norm on
// t5-base), and the 32-bucket relative position biases are left out.
LayerTable t5(const std::string& size, int layers, long long width, long long ff, long long heads)
{
    const long long inputs = 512, targets = 114, vocabulary = 32128;
    LayerTable t = named("T5-" + size + " (512 inputs, 114 targets)",
        "Raffel et al., 'Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer', JMLR 2020, Sec. 3.1, "
        "3.2.2 and Table 14; feature lengths of the t5x span-corruption configurations",
        { width, 1, inputs });
    auto pointwise = [&](const std::string& n, long long out, const std::string& from = "") {
        t.layers.push_back(conv(n, out, 1, 1, 0, 1, false));
        t.layers.back().input = from;
    };
    Layer shared = simple("shared_embeddings", LayerType::Embedding);
    shared.rows = vocabulary;
    shared.dim = width;
    shared.lookups = inputs;
    shared.input = "input";
    t.layers.push_back(shared);
    std::string stream = "input";
    auto selfAttention = [&](const std::string& n, bool causal) {
        t.layers.push_back(norm(n + "_ln", true));
        t.layers.back().input = stream;
        addSelfAttention(t, n, width, heads, false, causal);
        addResidual(t, n + "_add", stream);
        stream = n + "_add";
    };
    auto feedForward = [&](const std::string& n) {
        t.layers.push_back(norm(n + "_ln", true));
        t.layers.back().input = stream;
        addMlp(t, n, width, ff, "relu", false);
        addResidual(t, n + "_add", stream);
        stream = n + "_add";
    };
    for (int b = 0; b < layers; ++b) {
        selfAttention("encoder" + std::to_string(b) + "_self", false);
        feedForward("encoder" + std::to_string(b) + "_ff");
    }
    t.layers.push_back(norm("encoder_final_ln", true));
    t.layers.back().input = stream;
    Layer targetsIn = simple("decoder_embeddings", LayerType::Embedding);
    targetsIn.rows = vocabulary;
    targetsIn.dim = width;
    targetsIn.lookups = targets;
    targetsIn.pooled = false;
    targetsIn.tied = "shared_embeddings";
    targetsIn.input = "input";
    t.layers.push_back(targetsIn);
    stream = "decoder_embeddings";
    for (int b = 0; b < layers; ++b) {
        const std::string n = "decoder" + std::to_string(b);
        selfAttention(n + "_self", true);
        Layer ln = norm(n + "_cross_ln", true);
        ln.input = stream;
        t.layers.push_back(ln);
        pointwise(n + "_cross_q", width);
        pointwise(n + "_cross_kv", 2 * width, "encoder_final_ln");
        Layer cross = simple(n + "_cross_attention", LayerType::Attention);
        cross.heads = heads;
        cross.memory = n + "_cross_kv";
        cross.input = n + "_cross_q";
        t.layers.push_back(cross);
        pointwise(n + "_cross_proj", width);
        addResidual(t, n + "_cross_add", stream);
        stream = n + "_cross_add";
        feedForward(n + "_ff");
    }
    t.layers.push_back(norm("decoder_final_ln", true));
    t.layers.back().input = stream;
    Layer head = conv("lm_head", vocabulary, 1, 1, 0, 1, false);
    head.tied = "shared_embeddings";
    t.layers.push_back(head);
    return t;
}

// A DiT (Peebles and Xie, 'Scalable Diffusion Models with Transformers', ICCV 2023):
// the denoiser of a latent diffusion model, on the 32 x 32 x 4 latent of a 256 x 256
// image, cut into 2 x 2 patches (256 tokens). Each block is a ViT block whose norms have
// no affine parameters; instead an adaLN-Zero linear maps the conditioning vector (the
// class embedding plus the timestep's MLP) to six per-channel shifts, scales and gates,
// applied as elementwise passes. The final layer modulates and projects each patch to
// 2 x 2 x 8 outputs (noise and variance). The fixed sin-cos position embedding is not
// trained; the timestep's 256 sinusoidal frequencies stand in as one 256-wide row.
LayerTable dit(const std::string& size, int layers, long long width, long long heads, long long patch)
{
    LayerTable t = named("DiT-" + size + "/" + std::to_string(patch),
        "Peebles and Xie, 'Scalable Diffusion Models with Transformers', ICCV 2023, Sec. 3 and Table 1 (github.com/facebookresearch/DiT, models.py)",
        { 4, 32, 32 });
    Layer label = simple("y_embed", LayerType::Embedding);
    label.rows = 1001; // 1,000 ImageNet classes and the null class of classifier-free guidance
    label.dim = width;
    label.input = "input";
    t.layers.push_back(label);
    Layer frequencies = simple("t_frequencies", LayerType::Embedding);
    frequencies.rows = 1;
    frequencies.dim = 256;
    frequencies.input = "input";
    t.layers.push_back(frequencies);
    t.layers.push_back(linear("t_mlp1", width));
    t.layers.push_back(simple("t_silu", LayerType::Elementwise));
    t.layers.push_back(linear("t_mlp2", width));
    Layer cond = simple("cond", LayerType::Elementwise);
    cond.residual = "y_embed";
    t.layers.push_back(cond);
    auto modulation = [&](const std::string& n, long long outputs) {
        Layer silu = simple(n + "_silu", LayerType::Elementwise);
        silu.input = "cond";
        t.layers.push_back(silu);
        t.layers.push_back(linear(n + "_adaln", outputs * width));
    };
    Layer patches = conv("patch_embed", width, patch, patch, 0);
    patches.input = "input";
    t.layers.push_back(patches);
    std::string stream = "patch_embed";
    auto modulate = [&](const std::string& n, const std::string& from) {
        Layer ln = norm(n + "_ln", false);
        ln.input = from;
        t.layers.push_back(ln);
        t.layers.push_back(simple(n + "_modulate", LayerType::Elementwise));
    };
    for (int b = 0; b < layers; ++b) {
        const std::string n = "block" + std::to_string(b);
        modulation(n, 6);
        modulate(n + "_attn", stream);
        addSelfAttention(t, n, width, heads);
        addResidual(t, n + "_gate_add1", stream);
        modulate(n + "_mlp", n + "_gate_add1");
        addMlp(t, n, width, 4 * width, "gelu");
        addResidual(t, n + "_gate_add2", n + "_gate_add1");
        stream = n + "_gate_add2";
    }
    modulation("final", 2);
    modulate("final", stream);
    t.layers.push_back(conv("final_linear", patch * patch * 8, 1, 1, 0));
    return t;
}

} // namespace dtsim::family
