#include "layer_table_loader.h"

#include "read_file.h"
#include "yaml_reader.h"

#include <limits>
#include <unordered_set>

namespace dtsim {

namespace {

constexpr long long kMaxExtent = 1LL << 31; // a dimension no real layer reaches
// Deeper than any network trained: ResNet-1202, the deepest published, is about 4,000
// table rows (convolution, norm and ReLU per layer, and the residual adds).
constexpr std::size_t kMaxLayers = 10000;
constexpr std::size_t kMaxTableBytes = 2000000;

LayerType typeOf(YamlReader& r, const YAML::Node& n, const std::string& field)
{
    const std::string t = r.string(n, field);
    for (LayerType k : { LayerType::Convolution, LayerType::Linear, LayerType::Pooling, LayerType::Norm, LayerType::Elementwise,
             LayerType::Embedding, LayerType::Attention, LayerType::Interaction })
        if (t == layerTypeName(k))
            return k;
    r.fail(n, field, "\"" + t + "\" is not one of: convolution, linear, pooling, norm, elementwise, embedding, attention, interaction");
}

LayerSplit splitOf(YamlReader& r, const YAML::Node& n, const std::string& field)
{
    const std::string t = r.string(n, field);
    if (t == "data")
        return LayerSplit::DataOnly;
    if (t == "channels")
        return LayerSplit::Channels;
    if (t == "tables")
        return LayerSplit::Tables;
    r.fail(n, field, "\"" + t + "\" is not one of: data, channels, tables");
}

LayerTable readTable(YamlReader& r, const YAML::Node& root)
{
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "name", "source", "input", "layers" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    LayerTable t;
    t.name = r.string(r.required(root, "", "name"), "name");
    t.source = r.string(r.required(root, "", "source"), "source");
    if (t.source.empty())
        r.fail(root["source"], "source", "a workload names where its architecture comes from");
    const YAML::Node input = r.required(root, "", "input");
    r.expectMap(input, "input");
    r.checkKeys(input, "input", { "channels", "height", "width" });
    t.input.channels = r.integer(r.required(input, "input", "channels"), "input.channels", 1, kMaxExtent);
    if (const YAML::Node h = r.child(input, "input", "height"))
        t.input.height = r.integer(h, "input.height", 1, kMaxExtent);
    if (const YAML::Node w = r.child(input, "input", "width"))
        t.input.width = r.integer(w, "input.width", 1, kMaxExtent);

    const YAML::Node list = r.required(root, "", "layers");
    if (!list.IsSequence() || list.size() == 0)
        r.fail(list, "layers", "must be a list of at least one layer");
    if (list.size() > kMaxLayers)
        r.fail(list, "layers", "more than " + std::to_string(kMaxLayers) + " layers: deeper than any network trained (ResNet-1202, "
            "the deepest published, is about 4,000 rows); a longer table is not one model");
    std::unordered_set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node n = list[i];
        const std::string field = "layers[" + std::to_string(i) + "]";
        r.expectMap(n, field);
        r.checkKeys(n, field, { "name", "type", "out_channels", "kernel", "stride", "padding", "groups", "bias", "rows", "dim", "lookups", "affine", "split", "input", "residual", "heads", "inputs", "tied", "causal", "memory", "pooled" });
        Layer l;
        l.name = r.string(r.required(n, field, "name"), field + ".name");
        l.type = typeOf(r, r.required(n, field, "type"), field + ".type");
        auto whole = [&](const char* key, long long& into, long long min) {
            if (const YAML::Node v = r.child(n, field, key))
                into = r.integer(v, field + "." + key, min, kMaxExtent);
        };
        const bool windowed = l.type == LayerType::Convolution || l.type == LayerType::Pooling;
        const bool sized = l.type == LayerType::Convolution || l.type == LayerType::Linear;
        // Keys that mean nothing for the layer's type are refused, not ignored.
        auto onlyFor = [&](const char* key, bool allowed, const char* types) {
            if (!allowed && n[key].IsDefined())
                r.fail(n[key], field + "." + key, std::string("only a ") + types + " layer has " + key);
        };
        onlyFor("kernel", windowed, "convolution or pooling");
        onlyFor("stride", windowed, "convolution or pooling");
        onlyFor("padding", windowed, "convolution or pooling");
        onlyFor("groups", l.type == LayerType::Convolution, "convolution");
        onlyFor("out_channels", sized, "convolution or linear");
        onlyFor("bias", sized, "convolution or linear");
        onlyFor("affine", l.type == LayerType::Norm, "norm");
        onlyFor("rows", l.type == LayerType::Embedding, "embedding");
        onlyFor("dim", l.type == LayerType::Embedding, "embedding");
        onlyFor("lookups", l.type == LayerType::Embedding, "embedding");
        onlyFor("residual", l.type == LayerType::Elementwise, "elementwise");
        onlyFor("heads", l.type == LayerType::Attention, "attention");
        onlyFor("inputs", l.type == LayerType::Interaction, "interaction");
        onlyFor("tied", sized || l.type == LayerType::Embedding, "convolution, linear or embedding");
        onlyFor("causal", l.type == LayerType::Attention, "attention");
        onlyFor("memory", l.type == LayerType::Attention, "attention");
        onlyFor("pooled", l.type == LayerType::Embedding, "embedding");
        whole("kernel", l.kernel, 1);
        whole("stride", l.stride, 1);
        whole("padding", l.padding, 0);
        whole("groups", l.groups, 1);
        whole("rows", l.rows, 1);
        whole("dim", l.dim, 1);
        whole("lookups", l.lookups, 1);
        if (l.type == LayerType::Attention)
            l.heads = r.integer(r.required(n, field, "heads"), field + ".heads", 1, kMaxExtent);
        if (sized)
            l.outChannels = r.integer(r.required(n, field, "out_channels"), field + ".out_channels", 1, kMaxExtent);
        if (l.type == LayerType::Embedding) {
            r.required(n, field, "rows");
            r.required(n, field, "dim");
        }
        if (const YAML::Node b = r.child(n, field, "bias"))
            l.bias = r.boolean(b, field + ".bias");
        if (const YAML::Node a = r.child(n, field, "affine"))
            l.affine = r.boolean(a, field + ".affine");
        if (const YAML::Node s = r.child(n, field, "split"))
            l.split = splitOf(r, s, field + ".split");
        if (const YAML::Node v = r.child(n, field, "input"))
            l.input = r.string(v, field + ".input");
        if (l.type == LayerType::Interaction) {
            const YAML::Node list = r.required(n, field, "inputs");
            if (!list.IsSequence())
                r.fail(list, field + ".inputs", "a list of the layers whose vectors interact");
            for (std::size_t k = 0; k < list.size(); ++k)
                l.inputs.push_back(r.string(list[k], field + ".inputs[" + std::to_string(k) + "]"));
        }
        if (const YAML::Node v = r.child(n, field, "residual"))
            l.residual = r.string(v, field + ".residual");
        if (const YAML::Node v = r.child(n, field, "tied"))
            l.tied = r.string(v, field + ".tied");
        if (const YAML::Node v = r.child(n, field, "causal"))
            l.causal = r.boolean(v, field + ".causal");
        if (const YAML::Node v = r.child(n, field, "memory"))
            l.memory = r.string(v, field + ".memory");
        if (const YAML::Node v = r.child(n, field, "pooled"))
            l.pooled = r.boolean(v, field + ".pooled");
        if (!names.insert(l.name).second)
            r.fail(n["name"], field + ".name", "\"" + l.name + "\" names an earlier layer too; branches refer to layers by name");
        t.layers.push_back(std::move(l));
    }
    // Checked on the shapes the layers receive: a kernel wider than its input, groups that
    // do not divide the channels, a branch from a layer that is not there.
    const TableShapes shapes = tableShapes(t);
    if (shapes.errorLayer >= 0)
        r.fail(list[std::size_t(shapes.errorLayer)], "layers[" + std::to_string(shapes.errorLayer) + "]", shapes.error);
    return t;
}

} // namespace

LayerTable loadLayerTableText(const std::string& text, const std::string& origin)
{
    // Refused before parsing: the YAML parser reads about a megabyte a second, and a
    // table of kMaxLayers layers, one line each, is well under this.
    if (text.size() > kMaxTableBytes)
        throw InputError(origin, 0, "layers", "the file is " + std::to_string(text.size() / 1000000) + " MB; a layer table is at most "
            + std::to_string(kMaxTableBytes / 1000000) + " MB (" + std::to_string(kMaxLayers) + " layers of about 100 bytes)");
    YamlReader r(origin);
    return readTable(r, r.parse(text));
}

LayerTable loadLayerTable(const std::string& path) { return loadLayerTableText(readTextFile(path, "workload file"), path); }

} // namespace dtsim
