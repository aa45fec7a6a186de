#include "yaml_structure.h"

#include "../input_error.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <sstream>

namespace dtsim {

namespace {

class StructureScan : public YAML::EventHandler {
public:
    explicit StructureScan(std::string file) : m_file(std::move(file)) {}

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { node(mark, anchor, "~", false); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        // An alias as a key is not compared with other keys (it has no text of its own).
        const std::string path = node(mark, 0, "*", true);
        m_aliases.push_back({ path, anchor });
    }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string& value) override
    {
        node(mark, anchor, value, false);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(false, mark, anchor);
    }
    void OnSequenceEnd() override { m_stack.pop_back(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(true, mark, anchor);
    }
    void OnMapEnd() override { m_stack.pop_back(); }

    YamlStructure result() const
    {
        YamlStructure s;
        for (const auto& [path, anchor] : m_aliases) {
            auto it = m_anchors.find(anchor);
            if (it == m_anchors.end())
                continue;
            // Everything that is this anchor's node: the anchored field and every alias.
            std::vector<std::string> group { it->second };
            for (const auto& [other, a] : m_aliases)
                if (a == anchor)
                    group.push_back(other);
            for (const std::string& member : group)
                for (const std::string& other : group)
                    if (other != member) {
                        auto& list = s.shared[member];
                        if (std::find(list.begin(), list.end(), other) == list.end())
                            list.push_back(other);
                    }
        }
        return s;
    }

private:
    struct Frame {
        bool map = true;
        std::string path;
        bool expectKey = true;
        std::size_t index = 0;
        std::string key;
        std::map<std::string, int> keyLines; // scalar keys seen, with their lines
    };

    void open(bool map, const YAML::Mark& mark, YAML::anchor_t anchor)
    {
        Frame f;
        f.map = map;
        f.path = node(mark, anchor, "?", true);
        m_stack.push_back(std::move(f));
    }

    // Places one node in its parent and returns its field path. A mapping's keys are
    // checked for repeats; a key that is itself a collection gets a placeholder path.
    std::string node(const YAML::Mark& mark, YAML::anchor_t anchor, const std::string& scalar, bool collection)
    {
        std::string path;
        if (!m_stack.empty()) {
            Frame& top = m_stack.back();
            if (top.map && top.expectKey) {
                top.expectKey = false;
                top.key = collection ? "?" : scalar;
                const int line = mark.line + 1;
                const std::string field = top.path.empty() ? top.key : top.path + "." + top.key;
                if (!collection) {
                    auto [it, fresh] = top.keyLines.emplace(scalar, line);
                    if (!fresh)
                        throw InputError(m_file, line, field,
                            "duplicate key: it is already set on line " + std::to_string(it->second)
                                + " (write each key once per section)");
                }
                return field + "#key";
            }
            if (top.map) {
                top.expectKey = true;
                path = top.path.empty() ? top.key : top.path + "." + top.key;
            } else {
                path = top.path + "[" + std::to_string(top.index++) + "]";
            }
        }
        if (anchor != YAML::NullAnchor)
            m_anchors[anchor] = path;
        return path;
    }

    std::string m_file;
    std::vector<Frame> m_stack;
    std::map<YAML::anchor_t, std::string> m_anchors;
    std::vector<std::pair<std::string, YAML::anchor_t>> m_aliases;
};

} // namespace

YamlStructure scanYamlStructure(const std::string& text, const std::string& file)
{
    std::istringstream in(text);
    YAML::Parser parser(in);
    StructureScan scan(file);
    parser.HandleNextDocument(scan); // the first document, as YAML::Load reads
    return scan.result();
}

} // namespace dtsim
