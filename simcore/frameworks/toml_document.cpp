// TOML (torchtitan's job files) -> located values, with toml++.
#include "config_document.h"

#include "../input_error.h"

#include <toml++/toml.h>

#include <charconv>

namespace dtsim {

namespace {

std::string numberText(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

void flattenToml(const toml::node& node, const std::string& path, ConfigDocument& doc)
{
    const int line = int(node.source().begin.line);
    if (const toml::table* t = node.as_table()) {
        if (t->empty() && !path.empty())
            doc.values.push_back({ path, "", ConfigValue::Kind::Empty, line, {} });
        for (const auto& [k, v] : *t)
            flattenToml(v, path.empty() ? std::string(k.str()) : path + "." + std::string(k.str()), doc);
        return;
    }
    if (const toml::array* a = node.as_array()) {
        if (a->empty())
            doc.values.push_back({ path, "", ConfigValue::Kind::Empty, line, {} });
        for (std::size_t i = 0; i < a->size(); ++i)
            flattenToml(*a->get(i), path + "[" + std::to_string(i) + "]", doc);
        return;
    }
    if (auto s = node.value_exact<std::string>())
        doc.values.push_back({ path, *s, ConfigValue::Kind::Text, line, {} });
    else if (auto i = node.value_exact<int64_t>())
        doc.values.push_back({ path, std::to_string(*i), ConfigValue::Kind::Number, line, {} });
    else if (auto d = node.value_exact<double>())
        doc.values.push_back({ path, numberText(*d), ConfigValue::Kind::Number, line, {} });
    else if (auto b = node.value_exact<bool>())
        doc.values.push_back({ path, *b ? "true" : "false", ConfigValue::Kind::Bool, line, {} });
    else // a date or a time: no key an importer maps takes one
        doc.values.push_back({ path, "(a date or time)", ConfigValue::Kind::Text, line, {} });
}

} // namespace

ConfigDocument readTomlDocument(const std::string& path, const std::string& text)
{
    ConfigDocument doc;
    doc.file = path;
    doc.format = ConfigFormat::Torchtitan;
    try {
        const toml::table root = toml::parse(text, path);
        flattenToml(root, "", doc);
    } catch (const toml::parse_error& e) {
        throw InputError(path, int(e.source().begin.line), "", "not valid TOML: " + std::string(e.description()));
    }
    return doc;
}

} // namespace dtsim
