// YAML (NeMo recipes) -> located values, with yaml-cpp.
#include "config_document.h"

#include "../input_error.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>

namespace dtsim {

namespace {

void flattenYaml(const YAML::Node& node, const std::string& path, ConfigDocument& doc)
{
    const int line = node.Mark().line + 1;
    switch (node.Type()) {
    case YAML::NodeType::Map:
        if (node.size() == 0 && !path.empty())
            doc.values.push_back({ path, "", ConfigValue::Kind::Empty, line, {} });
        for (const auto& kv : node) {
            const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
            for (const ConfigValue& v : doc.values)
                if (v.key == (path.empty() ? key : path + "." + key))
                    throw InputError(doc.file, kv.first.Mark().line + 1, v.key, "the key appears twice (also line " + std::to_string(v.line) + ")");
            flattenYaml(kv.second, path.empty() ? key : path + "." + key, doc);
        }
        return;
    case YAML::NodeType::Sequence:
        if (node.size() == 0)
            doc.values.push_back({ path, "", ConfigValue::Kind::Empty, line, {} });
        for (std::size_t i = 0; i < node.size(); ++i)
            flattenYaml(node[i], path + "[" + std::to_string(i) + "]", doc);
        return;
    case YAML::NodeType::Null:
        doc.values.push_back({ path, "null", ConfigValue::Kind::Null, line, {} });
        return;
    default:
        doc.values.push_back({ path, node.Scalar(), ConfigValue::Kind::Text, line, {} });
    }
}

} // namespace

ConfigDocument readOverrideDocument(const std::string& path, const std::string& text)
{
    ConfigDocument doc;
    doc.file = path;
    doc.format = ConfigFormat::NeMo;
    int line = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string l = text.substr(start, end - start);
        ++line;
        start = end + 1;
        if (const auto hash = l.find('#'); hash != std::string::npos)
            l.erase(hash);
        std::size_t p = 0;
        while (p < l.size()) {
            while (p < l.size() && (std::isspace(static_cast<unsigned char>(l[p])) || l[p] == '\\'))
                ++p;
            std::size_t q = p;
            while (q < l.size() && !std::isspace(static_cast<unsigned char>(l[q])))
                ++q;
            if (q > p) {
                const std::string token = l.substr(p, q - p);
                const auto eq = token.find('=');
                if (eq == std::string::npos || eq == 0)
                    throw InputError(path, line, token, "a recipe override is written key=value (e.g. trainer.strategy.tensor_model_parallel_size=8)");
                std::string value = token.substr(eq + 1);
                if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
                    value = value.substr(1, value.size() - 2);
                const bool null = value == "null" || value == "None" || value == "~";
                doc.values.push_back({ token.substr(0, eq), value, null ? ConfigValue::Kind::Null : ConfigValue::Kind::Text, line, {} });
            }
            p = q;
        }
        if (end == text.size())
            break;
    }
    return doc;
}

ConfigDocument readYamlDocument(const std::string& path, const std::string& text)
{
    ConfigDocument doc;
    doc.file = path;
    doc.format = ConfigFormat::NeMo;
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw InputError(path, e.mark.line + 1, "", "not valid YAML: " + e.msg);
    }
    if (!root.IsMap())
        throw InputError(path, 1, "", "a recipe holds a mapping of sections (trainer:, model:, ...)");
    flattenYaml(root, "", doc);
    return doc;
}

} // namespace dtsim
