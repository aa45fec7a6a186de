// The field registry: the docs, the loader, the writer and the panel derive from it,
// and any scenario the panel's edits can produce saves and reopens unchanged.
#include "test_data.h"

#include "simcore/fields/scenario_fields.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/random.h"
#include "simcore/scenario_limits.h"
#include "simcore/scenario_rules.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace dtsim;

namespace {

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> sourceFiles()
{
    std::vector<std::string> files;
    for (const char* dir : { "simcore", "widgets", "app" })
        for (const auto& e : std::filesystem::recursive_directory_iterator(test::dataPath(dir))) {
            const std::string ext = e.path().extension().string();
            if (ext == ".cpp" || ext == ".h")
                files.push_back(e.path().string());
        }
    return files;
}

// "cluster.tiers[0].latency" -> "cluster.tiers[].latency"
std::string withoutIndices(const std::string& path) { return std::regex_replace(path, std::regex(R"(\[[0-9]+\])"), "[]"); }

} // namespace

class TestFields : public QObject {
    Q_OBJECT
private slots:
    void docsAreTheRegistrysTables()
    {
        const std::string doc = readText(test::dataPath("docs/scenario.md"));
        const std::string begin = "<!-- BEGIN generated:scenario-fields -->\n";
        const std::size_t from = doc.find(begin);
        const std::size_t to = doc.find("<!-- END generated:scenario-fields -->");
        QVERIFY2(from != std::string::npos && to != std::string::npos, "docs/scenario.md lost its generated block");
        std::string expected = fieldReferenceMarkdown();
        while (!expected.empty() && expected.back() == '\n')
            expected.pop_back();
        QVERIFY2(doc.substr(from + begin.size(), to - from - begin.size()) == expected + "\n",
            "docs/scenario.md is stale: run tests/validation/update_docs.py build/app/dtsim-cli");
    }

    void everyFieldPathInTheSourcesIsRegistered()
    {
        // Error messages, plan rules and fixes name fields by path; a typo there would
        // put an error on no row. Every such literal must be a registered field.
        std::set<std::string> known;
        for (const FieldDef& f : scenarioFields())
            known.insert(f.path);
        for (const SectionDef& s : scenarioSections())
            known.insert(s.path);
        const std::regex literal(R"re("((model|training|hardware|cluster|parallel)\.[a-z_.\[\]0-9]+)")re");
        // The framework importers also name the frameworks' own keys (torchtitan's
        // "training.local_batch_size"): there only the fields they set are scenario paths.
        const std::regex setField(R"re((?:set|setInt|setDefault)\((?:[a-z*]+, )?"((model|training|hardware|cluster|parallel)\.[a-z_.\[\]0-9]+)")re");
        int checked = 0;
        for (const std::string& file : sourceFiles()) {
            if (file.ends_with("published_runs_loader.cpp"))
                continue; // the validation file's own schema (hardware.num_gpus, ...)
            const std::string text = readText(file);
            const std::regex& pattern = file.find("/frameworks/import_") != std::string::npos ? setField : literal;
            for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
                const std::string path = withoutIndices((*it)[1].str());
                if (path.ends_with(".h") || path.ends_with(".cpp") || path.ends_with("."))
                    continue; // an #include, or the start of a path built in code
                QVERIFY2(known.count(path), (file + ": \"" + path + "\" is not a registered scenario field").c_str());
                ++checked;
            }
        }
        QVERIFY2(checked > 30, "the sources name fewer fields than the plan rules alone do: is the pattern broken?");
    }

    void loaderWriterAndPanelSpellNoKey()
    {
        // The scenario's loader, writer, --set and parameter panel take every key from
        // the registry: none of them spells a key of any section below the top level.
        std::set<std::string> keys;
        for (const FieldDef& f : scenarioFields()) {
            const SectionDef* section = findSection(std::string(sectionOf(f.path)));
            QVERIFY2(!f.inFile() || section, (f.path + " is in no declared section").c_str());
            if (f.inFile() && !section->path.empty())
                keys.insert(std::string(keyOf(f.path)));
        }
        for (const SectionDef& s : scenarioSections())
            if (!s.path.empty())
                keys.insert(std::string(keyOf(s.path)));
        for (const char* k : { "global_batch", "tp", "span_gpus", "projects", "quota", "min_gpus", "arrivals_per_hour", "project_weights" })
            QVERIFY2(keys.count(k), k);
        for (const char* file : { "simcore/loader/scenario_loader.cpp", "simcore/loader/scenario_writer.cpp",
                 "simcore/loader/scenario_override.cpp", "widgets/parameter_fields.cpp", "widgets/parameter_panel.cpp",
                 "widgets/field_editor.cpp", "widgets/topology_form.cpp", "widgets/topology_tab.cpp" }) {
            const std::string text = readText(test::dataPath(file));
            QVERIFY2(!text.empty(), file);
            for (const std::string& k : keys)
                QVERIFY2(text.find("\"" + k + "\"") == std::string::npos, (std::string(file) + " spells \"" + k + "\"").c_str());
        }
    }

    void everyDeclarationIsComplete()
    {
        for (const FieldDef& f : scenarioFields()) {
            const char* path = f.path.c_str();
            const bool textual = f.type == FieldType::Text || f.type == FieldType::Gpu || f.type == FieldType::Topology
                || f.type == FieldType::Region;
            QVERIFY2(textual ? bool(f.getText) : bool(f.get && f.set), path);
            if (f.type == FieldType::Choice)
                QVERIFY2(!f.choices.empty(), path);
            QVERIFY2(!f.inPanel() || f.hasEditor(), path);
            if (f.hasEditor()) { // the panel's rows and the Topology tab's form
                QVERIFY2(!f.panel.label.empty() && f.panel.min <= f.panel.max, path);
                QVERIFY2(!(f.panel.tooltip.empty() && f.help.empty()), path);
            }
            if (f.inFile())
                QVERIFY2(!f.defaultText.empty(), (std::string(path) + " has no documented default").c_str());
        }
    }

    void randomPanelEditsSaveAndReopen()
    {
        // Any scenario the editors' edits produce (the panel's rows and the Topology
        // tab's form, which edits an entry of cluster.tiers[]) either reopens equal to
        // itself or is refused by checkScenario, which the window shows (never by the
        // loader alone).
        std::vector<const FieldDef*> editable;
        for (const FieldDef& f : scenarioFields())
            if (f.hasEditor() && f.type != FieldType::Region)
                editable.push_back(&f);
        SplitMix64 rng { 20261125 };
        auto below = [&rng](std::size_t n) { return std::size_t(rng.uniform() * double(n)); };
        int reopened = 0, refused = 0, entries = 0;
        for (const std::string& name : test::presetNames()) {
            Scenario s = test::preset(name);
            for (int edit = 0; edit < 300; ++edit) {
                const FieldDef& f = *editable[std::size_t(below(editable.size()))];
                if (!f.appliesTo(s))
                    continue; // the panel hides it (a layer table has no heads)
                const SectionDef* list = findSection(sectionOf(f.path));
                const int count = list && list->entries ? list->entries(s) : 1;
                if (count == 0)
                    continue; // no tier to edit
                const int entry = int(below(std::size_t(count)));
                entries += entry > 0;
                randomEdit(s, f, entry, rng);
                // Refused: the window shows the reason on the field's row; start again
                // from the valid preset.
                if (checkScenario(s)) {
                    ++refused;
                    s = test::preset(name);
                    continue;
                }
                const std::string yaml = scenarioToYaml(s);
                try {
                    const Scenario back = loadScenarioText(yaml, name + " after " + f.path, test::catalog(), {}, test::topologies());
                    QVERIFY2(back == s, (name + ": " + f.path + " edit does not reopen equal:\n" + yaml).c_str());
                    ++reopened;
                } catch (const InputError& e) {
                    QFAIL((name + ": saved after editing " + f.path + ", but the file does not reopen: " + e.what()).c_str());
                }
            }
        }
        qInfo("%d edits reopened equal, %d refused by checkScenario, %d of an entry past the first", reopened, refused, entries);
        QVERIFY(reopened > 500);
        QVERIFY(entries > 10); // the outer tiers, not only the first
    }

private:
    // A value an editor can give: a choice's value, a number in the editor's range (as
    // its slider spreads them), a flag, a tier's name.
    static void randomEdit(Scenario& s, const FieldDef& f, int entry, SplitMix64& rng)
    {
        auto below = [&rng](std::size_t n) { return std::size_t(rng.uniform() * double(n)); };
        if (f.type == FieldType::Gpu) {
            switchGpu(s, test::catalog()[std::size_t(below(test::catalog().size()))]);
            return;
        }
        if (f.type == FieldType::Text) {
            f.setText(s, "tier " + std::to_string(below(1000)), entry);
            return;
        }
        double v = 0;
        if (f.type == FieldType::Choice) {
            std::vector<int> values;
            for (const ChoiceName& c : f.choices)
                if (!c.alias)
                    values.push_back(c.value);
            v = values[std::size_t(below(values.size()))];
        } else {
            const double lo = f.panel.min, hi = f.panel.max, u = rng.uniform();
            const double shown = f.panel.slider == SliderScale::Log && lo > 0 ? lo * std::pow(hi / lo, u) : lo + (hi - lo) * u;
            v = shown * f.panel.displayScale;
            if (f.type == FieldType::Integer || f.type == FieldType::Flag)
                v = std::round(v);
        }
        if (f.edit)
            f.edit(s, v);
        else
            f.set(s, v, entry);
    }
};

QTEST_GUILESS_MAIN(TestFields)
#include "tst_fields.moc"
