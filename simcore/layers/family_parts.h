#pragma once
// The parts the built-in layer tables are made of (families_*.cpp), and the generators
// the registry (families.cpp) dispatches to. Internal to simcore/layers.
#include "layer_table.h"

#include <string>

namespace dtsim::family {

inline LayerTable named(std::string name, std::string source, TensorShape input)
{
    LayerTable t;
    t.name = std::move(name);
    t.source = std::move(source);
    t.input = input;
    return t;
}

inline Layer conv(std::string name, long long out, long long kernel, long long stride, long long padding, long long groups = 1, bool bias = true)
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

inline Layer linear(std::string name, long long out)
{
    Layer l;
    l.name = std::move(name);
    l.type = LayerType::Linear;
    l.outChannels = out;
    l.split = LayerSplit::Channels;
    return l;
}

inline Layer simple(std::string name, LayerType type)
{
    Layer l;
    l.name = std::move(name);
    l.type = type;
    return l;
}

inline Layer pool(std::string name, long long kernel, long long stride, long long padding = 0)
{
    Layer l = simple(std::move(name), LayerType::Pooling);
    l.kernel = kernel;
    l.stride = stride;
    l.padding = padding;
    return l;
}

inline Layer norm(std::string name, bool affine)
{
    Layer l = simple(std::move(name), LayerType::Norm);
    l.affine = affine;
    return l;
}


// Transformer sublayers on a grid of positions, each per-position linear layer a 1 x 1
// convolution: q, k and v projected side by side, attention over the positions, and the
// output projection.
inline void addSelfAttention(LayerTable& t, const std::string& n, long long width, long long heads, bool bias = true, bool causal = false)
{
    t.layers.push_back(conv(n + "_qkv", 3 * width, 1, 1, 0, 1, bias));
    Layer a = simple(n + "_attention", LayerType::Attention);
    a.heads = heads;
    a.causal = causal;
    t.layers.push_back(a);
    t.layers.push_back(conv(n + "_proj", width, 1, 1, 0, 1, bias));
}

// An MLP of `hidden` features with its activation between the two projections.
inline void addMlp(LayerTable& t, const std::string& n, long long width, long long hidden, const std::string& activation, bool bias = true)
{
    t.layers.push_back(conv(n + "_fc1", hidden, 1, 1, 0, 1, bias));
    t.layers.push_back(simple(n + "_" + activation, LayerType::Elementwise));
    t.layers.push_back(conv(n + "_fc2", width, 1, 1, 0, 1, bias));
}

// A residual add of `shortcut`'s output to the previous layer's.
inline void addResidual(LayerTable& t, const std::string& name, const std::string& shortcut)
{
    t.layers.push_back(simple(name, LayerType::Elementwise));
    t.layers.back().residual = shortcut;
}

// Convolutional and recommendation families (families_cnn.cpp).
LayerTable alexnet2012();
LayerTable resnet(int depth);
LayerTable resnet18Cifar();
LayerTable vgg16();
LayerTable dlrmMlperf();

// Transformer families on layer tables (families_transformer.cpp).
LayerTable vit(const std::string& size, int layers, long long width, long long heads);
LayerTable bert(const std::string& size, int layers, long long width, long long heads, long long seq);
LayerTable t5(const std::string& size, int layers, long long width, long long ff, long long heads);
LayerTable dit(const std::string& size, int layers, long long width, long long heads, long long patch);

} // namespace dtsim::family
