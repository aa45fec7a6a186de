#include "layer_table.h"

#include <unordered_map>

namespace dtsim {

const char* layerTypeName(LayerType t)
{
    switch (t) {
    case LayerType::Convolution: return "convolution";
    case LayerType::Linear: return "linear";
    case LayerType::Pooling: return "pooling";
    case LayerType::Norm: return "norm";
    case LayerType::Elementwise: return "elementwise";
    case LayerType::Embedding: return "embedding";
    case LayerType::Attention: return "attention";
    case LayerType::Interaction: return "interaction";
    }
    return "?";
}

namespace {

// Output size of a window sliding over `size` (floor, as cuDNN and PyTorch compute it).
long long windowOutput(long long size, long long kernel, long long stride, long long padding)
{
    return (size + 2 * padding - kernel) / stride + 1;
}

} // namespace

LayerEvaluation evaluateLayer(const Layer& l, const TensorShape& in)
{
    LayerEvaluation e;
    LayerCost& c = e.cost;
    c.input = in;
    c.activationElements = in.elements();
    switch (l.type) {
    case LayerType::Convolution: {
        if (l.kernel < 1 || l.stride < 1 || l.padding < 0 || l.groups < 1 || l.outChannels < 1)
            return { c, "a convolution needs kernel, stride, groups and out_channels of at least 1, padding of at least 0" };
        if (in.channels % l.groups != 0 || l.outChannels % l.groups != 0)
            return { c, "groups (" + std::to_string(l.groups) + ") must divide the input channels (" + std::to_string(in.channels)
                    + ") and out_channels (" + std::to_string(l.outChannels) + ")" };
        if (in.height + 2 * l.padding < l.kernel || in.width + 2 * l.padding < l.kernel)
            return { c, "the " + std::to_string(l.kernel) + "x" + std::to_string(l.kernel) + " kernel is larger than its padded "
                    + std::to_string(in.height) + "x" + std::to_string(in.width) + " input" };
        c.output = { l.outChannels, windowOutput(in.height, l.kernel, l.stride, l.padding), windowOutput(in.width, l.kernel, l.stride, l.padding) };
        // Each output element: a kernel x kernel x (in / groups) dot product.
        const double macs = c.output.elements() * double(l.kernel) * double(l.kernel) * double(in.channels / l.groups);
        c.forwardFlops = 2 * macs + (l.bias ? c.output.elements() : 0.0);
        c.parameters = double(l.kernel) * double(l.kernel) * double(in.channels / l.groups) * double(l.outChannels) + (l.bias ? double(l.outChannels) : 0.0);
        return e;
    }
    case LayerType::Linear: {
        if (l.outChannels < 1)
            return { c, "a linear layer needs out_channels (its output features) of at least 1" };
        const double inFeatures = in.elements(); // a feature map is flattened
        c.output = { l.outChannels, 1, 1 };
        c.forwardFlops = 2 * inFeatures * double(l.outChannels) + (l.bias ? double(l.outChannels) : 0.0);
        c.parameters = inFeatures * double(l.outChannels) + (l.bias ? double(l.outChannels) : 0.0);
        return e;
    }
    case LayerType::Pooling: {
        if (l.kernel < 1 || l.stride < 1 || l.padding < 0)
            return { c, "pooling needs kernel and stride of at least 1, padding of at least 0" };
        if (in.height + 2 * l.padding < l.kernel || in.width + 2 * l.padding < l.kernel)
            return { c, "the pooling window is larger than its input" };
        c.output = { in.channels, windowOutput(in.height, l.kernel, l.stride, l.padding), windowOutput(in.width, l.kernel, l.stride, l.padding) };
        c.forwardFlops = c.output.elements() * double(l.kernel) * double(l.kernel); // a compare or add per window element
        return e;
    }
    case LayerType::Norm:
        // Batch/layer norm or AlexNet's local response normalization: a few FLOPs an
        // element (mean, variance, scale and shift: about 5), a scale and shift per channel.
        c.output = in;
        c.forwardFlops = 5 * in.elements();
        c.parameters = l.affine ? 2 * double(in.channels) : 0.0;
        return e;
    case LayerType::Elementwise:
        // Activations, residual adds, dropout: one FLOP an element.
        c.output = in;
        c.forwardFlops = in.elements();
        return e;
    case LayerType::Embedding:
        if (l.rows < 1 || l.dim < 1 || l.lookups < 1)
            return { c, "an embedding needs rows, dim and lookups of at least 1" };
        c.output = l.pooled ? TensorShape { l.dim, 1, 1 } : TensorShape { l.dim, 1, l.lookups };
        c.forwardFlops = l.pooled ? double(l.lookups) * double(l.dim) : 0.0; // sum pooling of the looked-up rows
        c.parameters = double(l.rows) * double(l.dim);
        c.activationElements = double(l.lookups); // the indices
        return e;
    case LayerType::Interaction:
        // Shapes come from `inputs` (tableShapes); on its own it passes its input through.
        c.output = in;
        return e;
    case LayerType::Attention: {
        if (l.heads < 1)
            return { c, "attention needs heads of at least 1" };
        if (!l.memory.empty()) { // cross-attention: the keys' shape is the table's to give (crossAttentionCost)
            if (in.channels % l.heads != 0)
                return { c, "cross-attention reads queries only: its input's " + std::to_string(in.channels)
                        + " channels must be a multiple of heads (" + std::to_string(l.heads) + ")" };
            c.output = in;
            return e;
        }
        if (in.channels % 3 != 0 || (in.channels / 3) % l.heads != 0)
            return { c, "attention reads queries, keys and values side by side: its input's " + std::to_string(in.channels)
                    + " channels must be 3 x a multiple of heads (" + std::to_string(l.heads) + ")" };
        const double positions = double(in.height) * double(in.width);
        const double width = double(in.channels / 3);
        c.output = { in.channels / 3, in.height, in.width };
        // Q.K^T and A.V, every position attending to every other: 2 x 2 x positions^2 x
        // width; causal attention computes the half below the diagonal.
        c.forwardFlops = 4.0 * positions * positions * width * (l.causal ? 0.5 : 1.0);
        c.activationElements = in.elements() + c.output.elements(); // Q, K, V and the output (FlashAttention's backward)
        return e;
    }
    }
    return e;
}

namespace {

std::string shapeText(const TensorShape& s)
{
    return std::to_string(s.channels) + " x " + std::to_string(s.height) + " x " + std::to_string(s.width);
}

// The layers walked so far by name, so that a branch finds its source in constant time
// (a search back through the table made 100,000-layer tables quadratic).
class EarlierLayers {
public:
    // The index of the newest earlier layer called `name`; -1 for "input"; -2 when none.
    int find(const std::string& name) const
    {
        if (name == "input")
            return -1;
        const auto it = m_index.find(name);
        return it == m_index.end() ? -2 : it->second;
    }
    void add(const std::string& name, int index) { m_index[name] = index; }

private:
    std::unordered_map<std::string, int> m_index;
};

} // namespace

namespace {

// DLRM's dot interaction of n vectors of width d (Naumov et al. 2019, Sec. 2.1): the first
// (the bottom MLP's) passed on, then the n(n-1)/2 pairwise dot products.
LayerEvaluation crossAttentionCost(const Layer& l, const TensorShape& queries, const TensorShape& keysValues)
{
    LayerEvaluation e;
    const double q = double(queries.height) * double(queries.width), k = double(keysValues.height) * double(keysValues.width);
    e.cost.input = queries;
    e.cost.output = queries;
    e.cost.forwardFlops = 4.0 * q * k * double(queries.channels) * (l.causal ? 0.5 : 1.0);
    e.cost.activationElements = queries.elements() + keysValues.elements() + queries.elements(); // Q, K and V, the output
    e.cost.keyPositions = k;
    return e;
}

LayerEvaluation interactionCost(const Layer& l, const TensorShape& vector)
{
    LayerEvaluation e;
    const double n = double(l.inputs.size()), d = double(vector.channels);
    const double pairs = n * (n - 1) / 2;
    e.cost.input = { static_cast<long long>(n) * vector.channels, 1, 1 };
    e.cost.output = { vector.channels + static_cast<long long>(pairs), 1, 1 };
    e.cost.forwardFlops = 2.0 * pairs * d;
    e.cost.activationElements = n * d;
    return e;
}

} // namespace

TableShapes tableShapes(const LayerTable& t)
{
    TableShapes out;
    EarlierLayers earlier;
    for (std::size_t i = 0; i < t.layers.size(); ++i) {
        const Layer& l = t.layers[i];
        auto fail = [&](std::string why) {
            out.errorLayer = int(i);
            out.error = l.name + ": " + std::move(why);
            return out;
        };
        int src = int(i) - 1;
        if (!l.input.empty()) {
            src = earlier.find(l.input);
            if (src == -2)
                return fail("input \"" + l.input + "\" is not an earlier layer (or \"input\", the table's input)");
        }
        const TensorShape in = src < 0 ? t.input : out.outputs[std::size_t(src)];
        LayerEvaluation e = evaluateLayer(l, in);
        if (!e.error.empty())
            return fail(e.error + " (its input: " + shapeText(in) + ")");
        if (l.type == LayerType::Interaction) {
            if (l.inputs.size() < 2)
                return fail("an interaction needs at least two inputs");
            TensorShape first;
            for (std::size_t k = 0; k < l.inputs.size(); ++k) {
                const int j = earlier.find(l.inputs[k]);
                if (j == -2)
                    return fail("input \"" + l.inputs[k] + "\" is not an earlier layer");
                const TensorShape v = j < 0 ? t.input : out.outputs[std::size_t(j)];
                if (v.height != 1 || v.width != 1 || (k > 0 && v.channels != first.channels))
                    return fail("interacts vectors of one width: " + l.inputs[k] + " is " + shapeText(v));
                if (k == 0)
                    first = v;
            }
            e = interactionCost(l, first);
            out.inputs.push_back(first); // the width of the vectors it interacts
            out.outputs.push_back(e.cost.output);
            out.source.push_back(src);
            out.memory.push_back({ 0, 0, 0 });
            earlier.add(l.name, int(i));
            continue;
        }
        TensorShape memory { 0, 0, 0 };
        if (l.type == LayerType::Attention && !l.memory.empty()) {
            const int j = earlier.find(l.memory);
            if (j == -2)
                return fail("memory \"" + l.memory + "\" is not an earlier layer");
            memory = j < 0 ? t.input : out.outputs[std::size_t(j)];
            if (memory.channels != 2 * in.channels)
                return fail("cross-attention reads keys and values side by side: " + l.memory + "'s " + shapeText(memory)
                    + " output must have twice its queries' " + std::to_string(in.channels) + " channels");
        }
        if (!l.tied.empty()) {
            const int j = earlier.find(l.tied);
            if (j < 0 || t.layers[std::size_t(j)].type != LayerType::Embedding)
                return fail("tied \"" + l.tied + "\" is not an earlier embedding");
            const Layer& table = t.layers[std::size_t(j)];
            const double weights = e.cost.parameters - (l.bias ? double(l.outChannels) : 0.0);
            if (weights != double(table.rows) * double(table.dim))
                return fail("its weight (" + std::to_string((long long)weights) + " values) is not the size of " + l.tied + "'s table ("
                    + std::to_string(table.rows) + " x " + std::to_string(table.dim) + ")");
        }
        if (!l.residual.empty()) {
            if (l.type != LayerType::Elementwise)
                return fail("only an elementwise layer adds a residual");
            const int r = earlier.find(l.residual);
            if (r == -2)
                return fail("residual \"" + l.residual + "\" is not an earlier layer");
            const TensorShape added = r < 0 ? t.input : out.outputs[std::size_t(r)];
            if (!(added == in))
                return fail("adds " + l.residual + "'s " + shapeText(added) + " output to its " + shapeText(in) + " input");
        }
        out.inputs.push_back(in);
        out.outputs.push_back(e.cost.output);
        out.source.push_back(src);
        out.memory.push_back(memory);
        earlier.add(l.name, int(i));
    }
    return out;
}

namespace {

LayerTableCost costOf(const LayerTable& t, const TableShapes& shapes)
{
    LayerTableCost out;
    for (std::size_t i = 0; i < shapes.inputs.size(); ++i) {
        const Layer& l = t.layers[i];
        LayerCost c = l.type == LayerType::Interaction ? interactionCost(l, shapes.inputs[i]).cost
            : !l.memory.empty()                        ? crossAttentionCost(l, shapes.inputs[i], shapes.memory[i]).cost
                                                       : evaluateLayer(l, shapes.inputs[i]).cost;
        if (!l.tied.empty()) // the weight is the embedding's, counted there
            c.parameters = l.bias ? double(l.outChannels) : 0.0;
        out.layers.push_back(c);
        out.forwardFlops += c.forwardFlops;
        out.parameters += c.parameters;
        out.activationElements += c.activationElements;
    }
    return out;
}

} // namespace

LayerTableCost evaluateTable(const LayerTable& t) { return costOf(t, tableShapes(t)); }

std::shared_ptr<const ResolvedLayerTable> resolveLayerTable(LayerTable t)
{
    auto r = std::make_shared<ResolvedLayerTable>();
    TableShapes shapes = tableShapes(t); // one walk for the costs and the branches
    r->cost = costOf(t, shapes);
    r->source = std::move(shapes.source);
    r->table = std::move(t);
    return r;
}

} // namespace dtsim
