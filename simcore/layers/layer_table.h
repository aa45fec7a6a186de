#pragma once
// A workload that is a table of layers, not a transformer formula (issue 26): AlexNet,
// VGG, ResNet, DLRM ... Each layer has a type and shapes; from them its forward FLOPs,
// parameters and the activation bytes it keeps for backward, and which parallelism can
// split it. Shapes flow from layer to layer (a convolution's output is the next layer's
// input), so a file states each layer's own settings, not every tensor's size.
//
// The engine runs a scenario on a table through `model.table` (layers/layer_step.h).
#include <memory>
#include <string>
#include <vector>

namespace dtsim {

enum class LayerType { Convolution, Linear, Pooling, Norm, Elementwise, Embedding, Attention, Interaction };
const char* layerTypeName(LayerType t);

// How a layer can be split beyond data parallelism: by its output channels or features
// (AlexNet's two-GPU columns, tensor parallelism), or by table across every GPU (DLRM's
// model-parallel embeddings: each GPU holds some tables, looks them up for every sample
// of the step, and an all-to-all hands each GPU its own samples' vectors).
enum class LayerSplit { DataOnly, Channels, Tables };

// The activation a layer takes in, per sample: channels x height x width, or (for linear
// layers) a vector of `channels` features (height = width = 1).
struct TensorShape {
    long long channels = 0, height = 1, width = 1;
    // In double: the loader allows each extent up to 2^31, whose product overflows 64 bits.
    double elements() const { return double(channels) * double(height) * double(width); }
    bool operator==(const TensorShape&) const = default;
};

struct Layer {
    std::string name;
    LayerType type = LayerType::Linear;
    // Convolution and pooling: a kernel x kernel window moved by `stride`, the input
    // padded by `padding` on each side; convolutions also have `groups` (AlexNet's
    // column split: each output channel sees in/groups input channels).
    long long kernel = 1, stride = 1, padding = 0, groups = 1;
    long long outChannels = 0; // convolution: output channels; linear: output features
    bool bias = true;
    bool affine = true; // norm: a learned scale and shift per channel (batch norm); false: none (local response norm)
    // Embedding: a table of `rows` x `dim` looked up `lookups` times a sample (sum-pooled).
    long long rows = 0, dim = 0, lookups = 1;
    // Attention (bidirectional, as in encoders and ViT): its input holds queries, keys and
    // values side by side (3 x width channels), one position per pixel or token; `heads`
    // split the width. `causal`: each position attends to those before it (a decoder's
    // self-attention; half the score FLOPs, as FlashAttention skips the masked blocks).
    // `memory`: cross-attention; the input holds the queries only (width channels) and the
    // named layer's output the keys and values side by side (2 x width) at its positions.
    long long heads = 0;
    bool causal = false;
    std::string memory;
    // Embedding: `pooled` sums the looked-up rows into one vector (DLRM); false keeps one
    // vector a lookup, a sequence of `lookups` positions (a decoder's embedded tokens).
    bool pooled = true;
    LayerSplit split = LayerSplit::DataOnly;
    // Branches (ResNet's shortcuts): the layer reads the output of the layer named
    // `input` (empty: the layer before it; "input": the table's input), and an
    // elementwise layer with `residual` adds that layer's output to its own input.
    std::string input, residual;
    // Interaction (DLRM's dot interaction): the vectors of these layers (the first is the
    // dense one), their pairwise dot products after it.
    std::vector<std::string> inputs;
    // A convolution or linear layer whose weight is an earlier embedding's table (BERT's
    // MLM decoder and the word embeddings), or an embedding sharing another's table (T5's
    // encoder and decoder inputs): only a bias is a parameter of its own.
    std::string tied;
    bool operator==(const Layer&) const = default;
};

// What one layer costs for one sample, with the shape it produces.
struct LayerCost {
    TensorShape input, output;
    double forwardFlops = 0;   // multiply-adds x 2 (and one FLOP an element for the rest)
    double parameters = 0;
    double activationElements = 0; // kept for backward: the layer's input
    double keyPositions = 0;         // cross-attention: the positions attended to (0: its own)
};

// The cost of `layer` on an input of shape `in`; an empty `error` when it is well formed,
// else why not (for the loader to put on the layer's line).
struct LayerEvaluation {
    LayerCost cost;
    std::string error;
};
LayerEvaluation evaluateLayer(const Layer& layer, const TensorShape& in);

struct LayerTable {
    std::string name;
    std::string source;  // where the architecture comes from
    TensorShape input;   // one sample (an image: 3 x 224 x 224)
    std::vector<Layer> layers;
    bool operator==(const LayerTable&) const = default;
};

// The shape each layer receives, following `input` names; an error names the layer
// (index) that refers to an unknown or later layer, or whose residual does not match.
struct TableShapes {
    std::vector<TensorShape> inputs;  // per layer
    std::vector<TensorShape> outputs; // per layer
    std::vector<int> source;          // per layer: the layer it reads (-1: the table's input)
    std::vector<TensorShape> memory;  // per layer: a cross-attention's keys and values (else empty)
    int errorLayer = -1;
    std::string error;
};
TableShapes tableShapes(const LayerTable& t);

// Every layer's cost in order, shapes flowing from one to the next.
struct LayerTableCost {
    std::vector<LayerCost> layers;
    double forwardFlops = 0, parameters = 0, activationElements = 0;
};
LayerTableCost evaluateTable(const LayerTable& t); // the table must be well formed (the loader checks)

// A table with its costs worked out once, shared by every copy of a scenario (the
// planner copies scenarios millions of times a second).
struct ResolvedLayerTable {
    LayerTable table;
    LayerTableCost cost;
    std::vector<int> source; // per layer: the layer it reads (-1: the table's input)
};
std::shared_ptr<const ResolvedLayerTable> resolveLayerTable(LayerTable t);

} // namespace dtsim
