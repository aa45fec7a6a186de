#include "lecture_loader.h"

#include "../fields/scenario_fields.h"
#include "read_file.h"
#include "yaml_reader.h"

#include <algorithm>

namespace dtsim {

namespace {

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

LectureScript loadLectureScript(const std::string& path, const std::vector<std::string>& tabs)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "lecture script"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "title", "steps" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    LectureScript script;
    script.file = path;
    script.title = r.string(r.required(root, "", "title"), "title");
    const YAML::Node steps = r.required(root, "", "steps");
    if (!steps.IsSequence() || steps.size() == 0)
        r.fail(steps, "steps", "must be a list of one or more steps");
    std::string preset;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const YAML::Node n = steps[i];
        const std::string field = "steps[" + std::to_string(i) + "]";
        r.expectMap(n, field);
        r.checkKeys(n, field, { "preset", "tab", "set", "caption" });
        LectureStep step;
        step.index = int(i);
        step.line = n.Mark().line + 1;
        if (const YAML::Node p = r.child(n, field, "preset"))
            preset = r.string(p, field + ".preset");
        if (preset.empty())
            r.fail(n, field + ".preset", "the first step names a preset (later ones keep it unless they name another)");
        step.preset = preset;
        step.tab = r.string(r.required(n, field, "tab"), field + ".tab");
        if (std::find(tabs.begin(), tabs.end(), step.tab) == tabs.end())
            r.fail(n["tab"], field + ".tab", "\"" + step.tab + "\" is not a view; one of: " + joined(tabs));
        step.caption = r.string(r.required(n, field, "caption"), field + ".caption");
        if (step.caption.empty())
            r.fail(n["caption"], field + ".caption", "a step says what to look at");
        if (const YAML::Node set = r.child(n, field, "set")) {
            r.expectMap(set, field + ".set");
            for (const auto& kv : set) {
                if (!kv.first.IsScalar())
                    r.fail(kv.first, field + ".set", "a field path, such as cluster.gpus");
                const std::string key = kv.first.Scalar();
                if (!findField(key))
                    r.fail(kv.first, field + ".set." + key, "the scenario has no field \"" + key + "\" (docs/scenario.md lists them)");
                if (!kv.second.IsScalar())
                    r.fail(kv.second, field + ".set." + key, "a value, written as in the scenario file");
                step.sets.push_back({ key, kv.second.Scalar() });
                step.setLines.push_back(kv.second.Mark().line + 1);
            }
        }
        script.steps.push_back(std::move(step));
    }
    return script;
}

} // namespace dtsim
