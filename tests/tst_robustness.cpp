// Bad input of every class, on every field of every preset: negative, zero, NaN,
// infinite, huge, the wrong type, empty; unknown keys; truncated files; bytes that are
// not UTF-8; a 100 MB file; a directory; a device; malformed --set arguments. Each is
// either accepted and then simulated without a non-finite result, or refused with an
// InputError that names the file, a line and a field. Nothing else may happen.
#include "simcore/input_error.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/memory.h"
#include "simcore/plan_check.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

using namespace dtsim;

namespace {

struct Outcome {
    bool accepted = false;
    QString problem; // empty when the outcome is acceptable
};

// Loads `text`; a refusal must carry file, line and field; an accepted scenario with a
// valid plan must simulate to finite, positive figures.
Outcome tryLoad(const std::string& text, const std::string& origin, const std::vector<Override>& overrides = {},
    bool needLine = true)
{
    Outcome o;
    try {
        const Scenario s = loadScenarioText(text, origin, test::catalog(), overrides, test::topologies());
        o.accepted = true;
        if (!checkPlan(s)) {
            const MemoryReport m = memoryPerGpu(s, test::calibration());
            const StepReport r = predictStep(s, test::calibration());
            if (!std::isfinite(r.stepTime) || r.stepTime <= 0 || !std::isfinite(m.total) || !std::isfinite(r.mfu))
                o.problem = QString("accepted, but the step time is %1 and memory %2").arg(r.stepTime).arg(m.total);
        }
    } catch (const InputError& e) {
        const QString msg = e.what();
        if (!msg.startsWith(QString::fromStdString(origin) + ":") && !msg.startsWith("--set "))
            o.problem = "message does not name the file: " + msg;
        else if (needLine && e.line() <= 0)
            o.problem = "message names no line: " + msg;
        else if (e.field().empty() && needLine)
            o.problem = "message names no field: " + msg;
    } catch (const std::exception& e) {
        o.problem = QString("unexpected exception: ") + e.what();
    }
    return o;
}

// The lines of a saved scenario that hold a scalar value: (line index, key).
std::vector<std::pair<std::size_t, std::string>> scalarLines(const std::vector<std::string>& lines)
{
    static const std::regex scalar(R"(^(\s*)(- )?([A-Za-z_]+): (\S.*)$)");
    std::vector<std::pair<std::size_t, std::string>> out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (std::regex_match(lines[i], m, scalar) && m[3] != "version")
            out.push_back({ i, m[3] });
    }
    return out;
}

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (const std::string& l : lines)
        text += l + "\n";
    return text;
}

} // namespace

class TestRobustness : public QObject {
    Q_OBJECT
private slots:
    void presets_data()
    {
        QTest::addColumn<QString>("preset");
        for (const std::string& name : test::presetNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    void everyFieldWithEveryBadValue_data() { presets_data(); }
    void everyFieldWithEveryBadValue()
    {
        QFETCH(QString, preset);
        const std::vector<std::string> lines = splitLines(scenarioToYaml(test::preset(preset.toStdString())));
        static const char* bad[] = { "-1", "0", "-0.0", ".nan", ".inf", "-.inf", "1e308", "99999999999999999999999",
            "1e-300", "abc", "[1, 2]", "{a: 1}", "~", "''", "true", "\"12 parsecs\"" };
        int accepted = 0, refused = 0;
        QStringList problems;
        for (const auto& [index, key] : scalarLines(lines)) {
            for (const char* value : bad) {
                std::vector<std::string> edited = lines;
                edited[index] = edited[index].substr(0, edited[index].find(key + ":") + key.size() + 2) + value;
                const Outcome o = tryLoad(joinLines(edited), "bad.yaml");
                (o.accepted ? accepted : refused)++;
                if (!o.problem.isEmpty() && problems.size() < 20)
                    problems << QString("%1 = %2: %3").arg(QString::fromStdString(key), value, o.problem);
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        QVERIFY(refused > accepted); // most of these values are nonsense for most fields
    }

    void unknownKeysEverywhere_data() { presets_data(); }
    void unknownKeysEverywhere()
    {
        QFETCH(QString, preset);
        const std::vector<std::string> lines = splitLines(scenarioToYaml(test::preset(preset.toStdString())));
        for (const auto& [index, key] : scalarLines(lines)) {
            std::vector<std::string> edited = lines;
            const std::size_t at = edited[index].find(key + ":");
            edited[index] = edited[index].substr(0, at) + key + "_typo" + edited[index].substr(at + key.size());
            try {
                loadScenarioText(joinLines(edited), "typo.yaml", test::catalog(), {}, test::topologies());
                QFAIL(qPrintable(QString::fromStdString("accepted an unknown key " + key + "_typo")));
            } catch (const InputError& e) {
                QVERIFY2(int(index) + 1 == e.line() || QString(e.what()).contains("required"), e.what());
                QVERIFY2(QString(e.what()).contains(QString::fromStdString(key)), e.what());
            }
        }
    }

    void truncatedFiles_data() { presets_data(); }
    void truncatedFiles()
    {
        QFETCH(QString, preset);
        const std::string text = scenarioToYaml(test::preset(preset.toStdString()));
        QStringList problems;
        for (std::size_t cut = 0; cut < text.size(); cut += 41) {
            const Outcome o = tryLoad(text.substr(0, cut), "cut.yaml", {}, false);
            if (!o.problem.isEmpty())
                problems << QString("cut at %1: %2").arg(cut).arg(o.problem);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 10).join("\n")));
    }

    void bytesThatAreNotText()
    {
        const std::string text = scenarioToYaml(test::preset("mixtral-8x7b-h100"));
        QStringList problems;
        // Invalid UTF-8, NUL, control bytes and a byte-order mark at many places.
        static const std::string junk[] = { "\xff\xfe", std::string("\0", 1), "\xc3\x28", "\xed\xa0\x80", "\x1b[2J", "\xef\xbb\xbf" };
        for (std::size_t at = 0; at < text.size(); at += 97)
            for (const std::string& j : junk) {
                const Outcome o = tryLoad(text.substr(0, at) + j + text.substr(at), "junk.yaml", {}, false);
                if (!o.problem.isEmpty())
                    problems << o.problem;
            }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 10).join("\n")));
        QVERIFY(!tryLoad("version: 1\nname: \"\xff\xfe\"\n", "x.yaml", {}, false).accepted);
        // Deep nesting does not exhaust the stack.
        QVERIFY(tryLoad("version: 1\nmodel: " + std::string(100000, '['), "deep.yaml", {}, false).problem.isEmpty());
        QVERIFY(tryLoad("version: 1\nmodel: " + std::string(100000, '{'), "deep.yaml", {}, false).problem.isEmpty());
    }

    void filesThatAreNotScenarios()
    {
        QTemporaryDir dir;
        const std::string big = (dir.path() + "/big.yaml").toStdString();
        {
            std::ofstream out(big, std::ios::binary);
            const std::string block(1 << 20, '#');
            for (int i = 0; i < 100; ++i)
                out << block; // 100 MB of comment
        }
        QElapsedTimer timer;
        timer.start();
        try {
            loadScenarioFile(big, test::catalog());
            QFAIL("read a 100 MB file");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("larger than"), e.what());
        }
        QVERIFY(timer.elapsed() < 2000); // refused from its size, not read
        for (const std::string& path : { dir.path().toStdString(), std::string("/dev/null"), std::string("/dev/zero"),
                 (dir.path() + "/missing.yaml").toStdString() }) {
            try {
                loadScenarioFile(path, test::catalog());
                QFAIL(qPrintable(QString::fromStdString("loaded " + path)));
            } catch (const InputError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ":"), e.what());
            }
        }
    }

    void malformedSetArguments()
    {
        static const char* args[] = { "", "=", "=1", "a=", "parallel.tp=", "parallel.tp=[", "parallel..tp=2", ".tp=2",
            "parallel.tp.x=2", "parallel.tp=2=3", "\xff\xfe=1", "model.layers=1e999", "model.layers=-3",
            "cluster.tiers=[{span_gpus: -8}]", "cluster.tiers=7", "training.tokens={a: [}", "workload.projects=[]",
            "reliability.chaos=[{kind: nope}]", "parallel=1", "cost.region=mars" };
        const std::string base = scenarioToYaml(test::preset("mixtral-8x7b-h100"));
        for (const char* arg : args) {
            std::vector<Override> overrides;
            try {
                overrides.push_back(parseOverride(arg));
            } catch (const InputError& e) {
                QVERIFY2(QString(e.what()).startsWith("--set"), e.what());
                continue;
            }
            const Outcome o = tryLoad(base, "base.yaml", overrides, false);
            QVERIFY2(o.problem.isEmpty(), qPrintable(QString(arg) + ": " + o.problem));
        }
    }
};

QTEST_GUILESS_MAIN(TestRobustness)
#include "tst_robustness.moc"
