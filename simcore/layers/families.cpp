#include "families.h"

namespace dtsim {

namespace {

LayerTable named(std::string name, std::string source, TensorShape input)
{
    LayerTable t;
    t.name = std::move(name);
    t.source = std::move(source);
    t.input = input;
    return t;
}

Layer conv(std::string name, long long out, long long kernel, long long stride, long long padding, long long groups = 1, bool bias = true)
{
    Layer l;
    l.name = std::move(name);
    l.type = LayerType::Convolution;
    l.outChannels = out;
    l.kernel = kernel;
    l.stride = stride;
    l.padding = padding;
    l.groups = groups;
    l.bias = bias;
    l.split = LayerSplit::Channels;
    return l;
}

Layer linear(std::string name, long long out)
{
    Layer l;
    l.name = std::move(name);
    l.type = LayerType::Linear;
    l.outChannels = out;
    l.split = LayerSplit::Channels;
    return l;
}

Layer simple(std::string name, LayerType type)
{
    Layer l;
    l.name = std::move(name);
    l.type = type;
    return l;
}

Layer pool(std::string name, long long kernel, long long stride, long long padding = 0)
{
    Layer l = simple(std::move(name), LayerType::Pooling);
    l.kernel = kernel;
    l.stride = stride;
    l.padding = padding;
    return l;
}

Layer norm(std::string name, bool affine)
{
    Layer l = simple(std::move(name), LayerType::Norm);
    l.affine = affine;
    return l;
}

// AlexNet's and VGG's classifier: two fully connected layers of 4,096 and the 1,000
// ImageNet classes.
void addClassifier(LayerTable& t)
{
    t.layers.push_back(linear("fc6", 4096));
    t.layers.push_back(simple("relu6", LayerType::Elementwise));
    t.layers.push_back(linear("fc7", 4096));
    t.layers.push_back(simple("relu7", LayerType::Elementwise));
    t.layers.push_back(linear("fc8", 1000));
}

// Krizhevsky, Sutskever and Hinton 2012, Sec. 3.5 and Figure 2 (as resources/workloads/alexnet-2012.yaml).
LayerTable alexnet2012()
{
    LayerTable t = named("AlexNet (2012, two-GPU columns)",
        "Krizhevsky, Sutskever and Hinton, 'ImageNet Classification with Deep Convolutional Neural Networks', NeurIPS 2012, "
        "Sec. 3.5 and Figure 2",
        { 3, 224, 224 });
    auto block = [&](const std::string& n, Layer c, bool lrn, bool maxpool) {
        t.layers.push_back(std::move(c));
        t.layers.push_back(simple("relu" + n, LayerType::Elementwise));
        if (lrn)
            t.layers.push_back(norm("norm" + n, false));
        if (maxpool)
            t.layers.push_back(pool("pool" + n, 3, 2));
    };
    block("1", conv("conv1", 96, 11, 4, 2), true, true);
    block("2", conv("conv2", 256, 5, 1, 2, 2), true, true);
    block("3", conv("conv3", 384, 3, 1, 1), false, false);
    block("4", conv("conv4", 384, 3, 1, 1, 2), false, false);
    block("5", conv("conv5", 256, 3, 1, 1, 2), false, true);
    addClassifier(t);
    return t;
}

// He et al. 2016, Table 1; bottleneck blocks stride on the 3x3 convolution as in
// torchvision and MLPerf's ResNet-50 v1.5; projection shortcuts where the shape changes.
LayerTable resnet(int depth)
{
    struct Plan {
        int blocks[4];
        bool bottleneck;
    };
    const Plan plan = depth == 18 ? Plan { { 2, 2, 2, 2 }, false }
        : depth == 34             ? Plan { { 3, 4, 6, 3 }, false }
        : depth == 50             ? Plan { { 3, 4, 6, 3 }, true }
        : depth == 101            ? Plan { { 3, 4, 23, 3 }, true }
                                  : Plan { { 3, 8, 36, 3 }, true };
    LayerTable t = named("ResNet-" + std::to_string(depth) + (plan.bottleneck ? " v1.5" : ""),
        "He, Zhang, Ren and Sun, 'Deep Residual Learning for Image Recognition', CVPR 2016, Table 1; v1.5 strides the 3x3 "
        "convolution (torchvision resnet, MLPerf Training image classification)",
        { 3, 224, 224 });
    auto convBn = [&](const std::string& n, long long out, long long k, long long stride, const std::string& input = {}) {
        Layer c = conv(n, out, k, stride, k / 2, 1, false);
        c.input = input;
        t.layers.push_back(std::move(c));
        t.layers.push_back(norm(n + "_bn", true));
    };
    convBn("conv1", 64, 7, 2);
    t.layers.push_back(simple("conv1_relu", LayerType::Elementwise));
    t.layers.push_back(pool("pool1", 3, 2, 1));
    std::string blockInput = "pool1";
    long long channels = 64;
    for (int stage = 0; stage < 4; ++stage) {
        const long long width = 64LL << stage;
        const long long out = plan.bottleneck ? 4 * width : width;
        for (int b = 0; b < plan.blocks[stage]; ++b) {
            const std::string n = "res" + std::to_string(stage + 2) + char('a' + b);
            const long long stride = stage > 0 && b == 0 ? 2 : 1;
            if (plan.bottleneck) {
                convBn(n + "_1", width, 1, 1, blockInput);
                t.layers.push_back(simple(n + "_1_relu", LayerType::Elementwise));
                convBn(n + "_2", width, 3, stride);
                t.layers.push_back(simple(n + "_2_relu", LayerType::Elementwise));
                convBn(n + "_3", out, 1, 1);
            } else {
                convBn(n + "_1", width, 3, stride, blockInput);
                t.layers.push_back(simple(n + "_1_relu", LayerType::Elementwise));
                convBn(n + "_2", width, 3, 1);
            }
            std::string shortcut = blockInput;
            if (stride != 1 || channels != out) {
                convBn(n + "_proj", out, 1, stride, blockInput);
                shortcut = n + "_proj_bn";
                // The add reads the main branch's last norm, not the projection.
                t.layers.push_back(simple(n + "_add", LayerType::Elementwise));
                t.layers.back().input = n + (plan.bottleneck ? "_3_bn" : "_2_bn");
            } else {
                t.layers.push_back(simple(n + "_add", LayerType::Elementwise));
            }
            t.layers.back().residual = shortcut;
            t.layers.push_back(simple(n + "_relu", LayerType::Elementwise));
            blockInput = n + "_relu";
            channels = out;
        }
    }
    t.layers.push_back(pool("avgpool", 7, 1));
    t.layers.push_back(linear("fc", 1000));
    return t;
}

// Simonyan and Zisserman 2015, Table 1, configuration D.
LayerTable vgg16()
{
    LayerTable t = named("VGG-16",
        "Simonyan and Zisserman, 'Very Deep Convolutional Networks for Large-Scale Image Recognition', ICLR 2015, Table 1 (D)",
        { 3, 224, 224 });
    const int blocks[5][2] = { { 2, 64 }, { 2, 128 }, { 3, 256 }, { 3, 512 }, { 3, 512 } };
    for (int b = 0; b < 5; ++b) {
        for (int i = 0; i < blocks[b][0]; ++i) {
            const std::string n = "conv" + std::to_string(b + 1) + "_" + std::to_string(i + 1);
            t.layers.push_back(conv(n, blocks[b][1], 3, 1, 1));
            t.layers.push_back(simple(n + "_relu", LayerType::Elementwise));
        }
        t.layers.push_back(pool("pool" + std::to_string(b + 1), 2, 2));
    }
    addClassifier(t);
    return t;
}

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
    auto pointwise = [&](const std::string& n, long long out) { t.layers.push_back(conv(n, out, 1, 1, 0)); };
    for (int b = 0; b < layers; ++b) {
        const std::string n = "block" + std::to_string(b);
        t.layers.push_back(norm(n + "_ln1", true));
        pointwise(n + "_qkv", 3 * width);
        Layer attention = simple(n + "_attention", LayerType::Attention);
        attention.heads = heads;
        t.layers.push_back(attention);
        pointwise(n + "_proj", width);
        t.layers.push_back(simple(n + "_add1", LayerType::Elementwise));
        t.layers.back().residual = stream;
        t.layers.push_back(norm(n + "_ln2", true));
        pointwise(n + "_fc1", 4 * width);
        t.layers.push_back(simple(n + "_gelu", LayerType::Elementwise));
        pointwise(n + "_fc2", width);
        t.layers.push_back(simple(n + "_add2", LayerType::Elementwise));
        t.layers.back().residual = n + "_add1";
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
    auto pointwise = [&](const std::string& n, long long out) { t.layers.push_back(conv(n, out, 1, 1, 0)); };
    for (int b = 0; b < layers; ++b) {
        const std::string n = "layer" + std::to_string(b);
        pointwise(n + "_qkv", 3 * width);
        Layer attention = simple(n + "_attention", LayerType::Attention);
        attention.heads = heads;
        t.layers.push_back(attention);
        pointwise(n + "_proj", width);
        t.layers.push_back(simple(n + "_add1", LayerType::Elementwise));
        t.layers.back().residual = stream;
        t.layers.push_back(norm(n + "_ln1", true));
        pointwise(n + "_fc1", 4 * width);
        t.layers.push_back(simple(n + "_gelu", LayerType::Elementwise));
        pointwise(n + "_fc2", width);
        t.layers.push_back(simple(n + "_add2", LayerType::Elementwise));
        t.layers.back().residual = n + "_ln1";
        t.layers.push_back(norm(n + "_ln2", true));
        stream = n + "_ln2";
    }
    Layer masked = pool("masked_positions", 1, 7);
    masked.input = stream;
    t.layers.push_back(masked);
    pointwise("mlm_dense", width);
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
    auto bare = [](Layer l) {
        l.bias = false;
        return l;
    };
    auto pointwise = [&](const std::string& n, long long out, const std::string& from = "") {
        Layer l = bare(conv(n, out, 1, 1, 0));
        l.input = from;
        t.layers.push_back(l);
    };
    Layer shared = simple("shared_embeddings", LayerType::Embedding);
    shared.rows = vocabulary;
    shared.dim = width;
    shared.lookups = inputs;
    shared.input = "input";
    t.layers.push_back(shared);
    std::string stream = "input";
    auto selfAttention = [&](const std::string& n, bool causal) {
        Layer ln = norm(n + "_ln", true);
        ln.input = stream;
        t.layers.push_back(ln);
        pointwise(n + "_qkv", 3 * width);
        Layer a = simple(n + "_attention", LayerType::Attention);
        a.heads = heads;
        a.causal = causal;
        t.layers.push_back(a);
        pointwise(n + "_o", width);
        t.layers.push_back(simple(n + "_add", LayerType::Elementwise));
        t.layers.back().residual = stream;
        stream = n + "_add";
    };
    auto feedForward = [&](const std::string& n) {
        t.layers.push_back(norm(n + "_ln", true));
        t.layers.back().input = stream;
        pointwise(n + "_wi", ff);
        t.layers.push_back(simple(n + "_relu", LayerType::Elementwise));
        pointwise(n + "_wo", width);
        t.layers.push_back(simple(n + "_add", LayerType::Elementwise));
        t.layers.back().residual = stream;
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
        pointwise(n + "_cross_o", width);
        t.layers.push_back(simple(n + "_cross_add", LayerType::Elementwise));
        t.layers.back().residual = stream;
        stream = n + "_cross_add";
        feedForward(n + "_ff");
    }
    t.layers.push_back(norm("decoder_final_ln", true));
    t.layers.back().input = stream;
    Layer head = bare(conv("lm_head", vocabulary, 1, 1, 0));
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
    auto pointwise = [&](const std::string& n, long long out) { t.layers.push_back(conv(n, out, 1, 1, 0)); };
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
        pointwise(n + "_qkv", 3 * width);
        Layer attention = simple(n + "_attention", LayerType::Attention);
        attention.heads = heads;
        t.layers.push_back(attention);
        pointwise(n + "_proj", width);
        t.layers.push_back(simple(n + "_gate_add1", LayerType::Elementwise));
        t.layers.back().residual = stream;
        modulate(n + "_mlp", n + "_gate_add1");
        pointwise(n + "_fc1", 4 * width);
        t.layers.push_back(simple(n + "_gelu", LayerType::Elementwise));
        pointwise(n + "_fc2", width);
        t.layers.push_back(simple(n + "_gate_add2", LayerType::Elementwise));
        t.layers.back().residual = n + "_gate_add1";
        stream = n + "_gate_add2";
    }
    modulation("final", 2);
    modulate("final", stream);
    pointwise("final_linear", patch * patch * 8);
    return t;
}

// DLRM as MLPerf Training benchmarked it (v0.7 to v2.0, Criteo Terabyte): 13 dense
// features through a bottom MLP 512-256-128, 26 categorical features looked up in
// embedding tables of 128-wide rows (sharded across the GPUs), their dot interaction with
// the bottom MLP's vector, and a top MLP 1024-1024-512-256-1 (Naumov et al. 2019; the
// sizes in NVIDIA's MLPerf v2.0 HugeCTR configuration).
LayerTable dlrmMlperf()
{
    LayerTable t = named("DLRM (MLPerf, Criteo Terabyte)",
        "Naumov et al. 2019, 'Deep Learning Recommendation Model for Personalization and Recommendation Systems'; table sizes "
        "and MLPs from mlcommons/training_results_v2.0 NVIDIA/benchmarks/dlrm/implementations/hugectr/dgx_a100.py "
        "(slot_size_array, embedding_vec_size 128)",
        { 13, 1, 1 });
    const long long rows[26] = { 39884406, 39043, 17289, 7420, 20263, 3, 7120, 1543, 63, 38532951, 2953546, 403346, 10, 2208, 11938,
        155, 4, 976, 14, 39979771, 25641295, 39664984, 585935, 12972, 108, 36 };
    auto mlp = [&](const std::string& prefix, std::initializer_list<long long> widths) {
        int k = 0;
        for (long long w : widths) {
            const std::string n = prefix + std::to_string(++k);
            Layer l = linear(n, w);
            l.split = LayerSplit::DataOnly;
            t.layers.push_back(l);
            if (w > 1)
                t.layers.push_back(simple(n + "_relu", LayerType::Elementwise));
        }
    };
    mlp("bottom", { 512, 256, 128 });
    Layer interaction = simple("interaction", LayerType::Interaction);
    interaction.inputs.push_back("bottom3_relu");
    for (int i = 0; i < 26; ++i) {
        Layer e = simple("table" + std::to_string(i), LayerType::Embedding);
        e.rows = rows[i];
        e.dim = 128;
        e.split = LayerSplit::Tables;
        e.input = "input";
        t.layers.push_back(e);
        interaction.inputs.push_back(e.name);
    }
    t.layers.push_back(interaction);
    mlp("top", { 1024, 1024, 512, 256, 1 });
    return t;
}

} // namespace

std::vector<std::string> builtinLayerTableNames()
{
    return { "alexnet-2012", "resnet-18", "resnet-34", "resnet-50", "resnet-101", "resnet-152", "vgg-16", "vit-b-16", "vit-l-16",
        "bert-base", "bert-large", "bert-large-256", "t5-base", "t5-large", "dit-xl-2", "dlrm-mlperf" };
}

std::optional<LayerTable> builtinLayerTable(const std::string& name)
{
    if (name == "alexnet-2012")
        return alexnet2012();
    if (name == "vgg-16")
        return vgg16();
    if (name == "dlrm-mlperf")
        return dlrmMlperf();
    if (name == "vit-b-16")
        return vit("B", 12, 768, 12);
    if (name == "vit-l-16")
        return vit("L", 24, 1024, 16);
    if (name == "bert-base")
        return bert("Base", 12, 768, 12, 512);
    if (name == "bert-large")
        return bert("Large", 24, 1024, 16, 512);
    // At the mean length of MLPerf's Wikipedia set, for stacks that drop the padding
    // (unpadded or packed sequences): 512 / 2.012, the speed-up bound NVIDIA's packing
    // README prints (mlcommons/training_results_v3.0, NVIDIA bert packed_data/README.md),
    // is 254.5 tokens a sequence.
    if (name == "bert-large-256")
        return bert("Large", 24, 1024, 16, 256);
    if (name == "t5-base")
        return t5("Base", 12, 768, 3072, 12);
    if (name == "t5-large")
        return t5("Large", 24, 1024, 4096, 16);
    if (name == "dit-xl-2")
        return dit("XL", 28, 1152, 16, 2);
    for (int depth : { 18, 34, 50, 101, 152 })
        if (name == "resnet-" + std::to_string(depth))
            return resnet(depth);
    return std::nullopt;
}

} // namespace dtsim
