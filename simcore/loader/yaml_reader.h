#pragma once
// Typed, located reads from a yaml-cpp tree: every failure becomes an InputError that
// names the file (or the --set override), the line and the dotted field path.
#include "../input_error.h"
#include "../units.h"
#include "field_locator.h"
#include "yaml_structure.h"

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dtsim {

class YamlReader {
public:
    explicit YamlReader(std::string file) : m_where(std::move(file)) {}

    // Parses text; syntax errors carry the parser's line, and so does a key written
    // twice in one section.
    YAML::Node parse(const std::string& text);

    // Fields (or sections) a command-line override wrote report `where` ("--set
    // a.b=c") instead of a line.
    void markOverride(const std::string& field, const std::string& where) { m_where.markOverride(field, where); }
    // Which fields of the parsed text are one node through anchors and aliases.
    const YamlStructure& structure() const { return m_structure; }
    // Where every field read so far came from, for checks made after loading.
    const FieldLocator& locator() const { return m_where; }

    [[noreturn]] void fail(const YAML::Node& at, const std::string& field, const std::string& reason) const;
    [[noreturn]] void failField(const std::string& field, const std::string& reason) const;
    int lineOf(const std::string& field) const;

    void expectMap(const YAML::Node& n, const std::string& field) const;
    void checkKeys(const YAML::Node& map, const std::string& field,
        std::initializer_list<std::string_view> allowed) const;
    void checkKeys(const YAML::Node& map, const std::string& field, const std::vector<std::string_view>& allowed) const;

    // Child lookup that records the child's line for later (plan) errors.
    YAML::Node child(const YAML::Node& map, const std::string& parent, const char* key);
    YAML::Node required(const YAML::Node& map, const std::string& parent, const char* key);

    double quantity(const YAML::Node& n, const std::string& field, Dimension dim, Bound bound) const;
    long long integer(const YAML::Node& n, const std::string& field, long long min, long long max) const;
    bool boolean(const YAML::Node& n, const std::string& field) const;
    std::string string(const YAML::Node& n, const std::string& field) const;

    const std::string& file() const { return m_where.file(); }

    static std::string join(const std::string& parent, std::string_view key)
    {
        return parent.empty() ? std::string(key) : parent + "." + std::string(key);
    }

private:
    std::string scalarText(const YAML::Node& n, const std::string& field, const char* expected) const;
    std::string unclosedQuoteHint(const YAML::Node& map, const char* key) const;

    FieldLocator m_where;
    YamlStructure m_structure;
};

} // namespace dtsim
