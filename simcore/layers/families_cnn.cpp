// Built-in layer tables of the convolutional and recommendation families: AlexNet,
// ResNet, VGG and MLPerf's DLRM (docs/layers.md lists them with their sources).
#include "family_parts.h"

namespace dtsim::family {

namespace {

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


} // namespace

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

namespace {

struct ResnetPlan {
    int blocks[4];
    bool bottleneck;
};

void convBn(LayerTable& t, const std::string& n, long long out, long long k, long long stride, const std::string& input = {})
{
    Layer c = conv(n, out, k, stride, k / 2, 1, false);
    c.input = input;
    t.layers.push_back(std::move(c));
    t.layers.push_back(norm(n + "_bn", true));
}

// The four stages of residual blocks after the stem (output `blockInput`, `channels` wide);
// projection shortcuts where the shape changes.
void addResidualStages(LayerTable& t, const ResnetPlan& plan, std::string blockInput, long long channels)
{
    for (int stage = 0; stage < 4; ++stage) {
        const long long width = 64LL << stage;
        const long long out = plan.bottleneck ? 4 * width : width;
        for (int b = 0; b < plan.blocks[stage]; ++b) {
            const std::string n = "res" + std::to_string(stage + 2) + char('a' + b);
            const long long stride = stage > 0 && b == 0 ? 2 : 1;
            if (plan.bottleneck) {
                convBn(t, n + "_1", width, 1, 1, blockInput);
                t.layers.push_back(simple(n + "_1_relu", LayerType::Elementwise));
                convBn(t, n + "_2", width, 3, stride);
                t.layers.push_back(simple(n + "_2_relu", LayerType::Elementwise));
                convBn(t, n + "_3", out, 1, 1);
            } else {
                convBn(t, n + "_1", width, 3, stride, blockInput);
                t.layers.push_back(simple(n + "_1_relu", LayerType::Elementwise));
                convBn(t, n + "_2", width, 3, 1);
            }
            std::string shortcut = blockInput;
            if (stride != 1 || channels != out) {
                convBn(t, n + "_proj", out, 1, stride, blockInput);
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
}

} // namespace

// He et al. 2016, Table 1; bottleneck blocks stride on the 3x3 convolution as in
// torchvision and MLPerf's ResNet-50 v1.5; projection shortcuts where the shape changes.
LayerTable resnet(int depth)
{
    const ResnetPlan plan = depth == 18 ? ResnetPlan { { 2, 2, 2, 2 }, false }
        : depth == 34                   ? ResnetPlan { { 3, 4, 6, 3 }, false }
        : depth == 50                   ? ResnetPlan { { 3, 4, 6, 3 }, true }
        : depth == 101                  ? ResnetPlan { { 3, 4, 23, 3 }, true }
                                        : ResnetPlan { { 3, 8, 36, 3 }, true };
    LayerTable t = named("ResNet-" + std::to_string(depth) + (plan.bottleneck ? " v1.5" : ""),
        "He, Zhang, Ren and Sun, 'Deep Residual Learning for Image Recognition', CVPR 2016, Table 1; v1.5 strides the 3x3 "
        "convolution (torchvision resnet, MLPerf Training image classification)",
        { 3, 224, 224 });
    convBn(t, "conv1", 64, 7, 2);
    t.layers.push_back(simple("conv1_relu", LayerType::Elementwise));
    t.layers.push_back(pool("pool1", 3, 2, 1));
    addResidualStages(t, plan, "pool1", 64);
    t.layers.push_back(pool("avgpool", 7, 1));
    t.layers.push_back(linear("fc", 1000));
    return t;
}

// ResNet-18 for CIFAR-10's 32 x 32 images as the CIFAR training code of the PowerSGD paper
// and many others defines it (kuangliu/pytorch-cifar models/resnet.py): a 3x3 stem at
// stride 1 with no max pooling, the same four stages of basic blocks, a 4 x 4 average
// pool and 10 classes; 11.17 million parameters.
LayerTable resnet18Cifar()
{
    LayerTable t = named("ResNet-18 (CIFAR-10)",
        "He et al. 2016 adapted to 32 x 32 inputs as in kuangliu/pytorch-cifar models/resnet.py (ResNet18): 3x3 stem, "
        "no max pooling, 10 classes; the model of Vogels et al. 2019 (PowerSGD) Sec. 5",
        { 3, 32, 32 });
    convBn(t, "conv1", 64, 3, 1);
    t.layers.push_back(simple("conv1_relu", LayerType::Elementwise));
    addResidualStages(t, ResnetPlan { { 2, 2, 2, 2 }, false }, "conv1_relu", 64);
    t.layers.push_back(pool("avgpool", 4, 1));
    t.layers.push_back(linear("fc", 10));
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


} // namespace dtsim::family
