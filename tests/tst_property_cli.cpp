// Random values, extremes among them, in every field of every preset, through every
// command of dtsim-cli (advise, sweep and diff included: diff compares the preset with
// itself changed by the --set), each run with a limit of 5 s of CPU (measured on the child; a
// hang is stopped at 20 s of wall time). The limit catches an input that sends a
// command into a runaway loop (a billion-sequence batch once took 15 s), not speed: the
// largest legitimate case, a 1000-point idealized K80 frontier on both cores, takes
// 1.6 s of CPU alone and 2.2-2.6 s beside the sanitizer and fuzzing jobs; speed is
// `dtsim-cli bench`'s to report. The property: the command
// either exits 0 with finite, non-negative results, or exits 2 with a message that
// names where the bad input is (the file and line, the --set, or the option) and the
// field; never a signal, a hang, a NaN or an infinity.
//
// Seeded, so a failure reproduces: DTSIM_PROPERTY_SEED picks another seed and
// DTSIM_PROPERTY_ROUNDS runs every field that many times (default 1).
#include "cli_runner.h"
#include "test_data.h"

#include "simcore/loader/scenario_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <random>

using namespace dtsim;

namespace {

struct Field {
    std::string preset;
    std::string path;  // as --set takes it: "cluster.tiers[0].span_gpus"
    std::string value; // the preset's own
};

void collectLeaves(const YAML::Node& n, const std::string& path, const std::string& preset, std::vector<Field>& out)
{
    if (n.IsMap()) {
        for (const auto& kv : n)
            collectLeaves(kv.second, path.empty() ? kv.first.Scalar() : path + "." + kv.first.Scalar(), preset, out);
    } else if (n.IsSequence()) {
        for (std::size_t i = 0; i < n.size(); ++i)
            collectLeaves(n[i], path + "[" + std::to_string(i) + "]", preset, out);
    } else if (n.IsScalar() && path != "version") {
        out.push_back({ preset, path, n.Scalar() });
    }
}

// Every field each preset writes, plus the optional ones a preset may leave out.
std::vector<Field> allFields()
{
    std::vector<Field> fields;
    for (const std::string& name : test::presetNames()) {
        collectLeaves(YAML::Load(scenarioToYaml(test::preset(name))), "", name, fields);
        for (const char* optional : { "training.deadline", "hardware.power_limit", "reliability.checkpoint_interval",
                 "reliability.straggler_slowdown", "reliability.degraded_link.bandwidth_fraction",
                 "reliability.storage_write_bandwidth", "reliability.storage_read_bandwidth", "reliability.staging_bandwidth",
                 "cost.gpu_hour_usd", "cost.region", "cost.pue", "parallel.recompute_layers", "model.moe.experts",
                 "model.moe.top_k", "workload.horizon" })
            fields.push_back({ name, optional, "" });
    }
    return fields;
}

// The preset's value scaled by a power of ten (whole numbers stay whole, a unit stays),
// or one of the values that broke dtsim before.
std::string randomValue(const Field& f, std::mt19937_64& rng)
{
    static const char* extremes[] = { "0", "-1", "1", "0.5", "2", "3", "7", "1e-9", "1e-300", "1e9", "2147483647",
        "2147483648", "9223372036854775807", "1e20", "1e300", ".nan", ".inf", "-.inf", "abc", "''", "~", "[1, 2]",
        "{a: 1}", "true", "1 kB/s", "1e12 s", "1 year", "1 ns", "8", "64", "1024", "100000" };
    static const double powers[] = { -9, -6, -3, -1, 0.3, 1, 2, 3, 6, 9, 12 };
    static const QRegularExpression number(R"(^(-?[0-9.]+(?:e[+-]?[0-9]+)?)(\s.*)?$)");
    const auto match = number.match(QString::fromStdString(f.value));
    if (match.hasMatch() && rng() % 3 != 0) {
        const double v = match.captured(1).toDouble();
        const double scaled = v * std::pow(10.0, powers[rng() % std::size(powers)]);
        const bool whole = !match.captured(1).contains('.') && !match.captured(1).contains('e');
        const QString text = whole ? QString::number(static_cast<long long>(std::min(scaled, 9e18))) : QString::number(scaled, 'g', 6);
        return (text + match.captured(2)).toStdString();
    }
    return extremes[rng() % std::size(extremes)];
}

// The path of the first number that is not finite, or negative where only a signed
// figure may be (relative errors, savings), in a JSON document; empty when none.
QString badNumber(const QJsonValue& v, const QString& path)
{
    // Signed by meaning: errors, savings, changes (advise, diff) and a sweep's "current"
    // cell index (-1: the scenario is off the grid).
    static const QRegularExpression signedKey(R"((rel_error|saving_vs|error|change\b|\.current\[))");
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (!std::isfinite(d) || (d < 0 && !signedKey.match(path).hasMatch()))
            return path + " = " + QString::number(d);
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            if (QString bad = badNumber(a[i], QString("%1[%2]").arg(path).arg(i)); !bad.isEmpty())
                return bad;
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (QString bad = badNumber(it.value(), path + "." + it.key()); !bad.isEmpty())
                return bad;
    }
    return {};
}

// A refusal's first line must say where (the --set, "file:line" or the option) and
// which field: "--set a.b=c: a.b: reason", "x.yaml:12: training.tokens: reason",
// "--trials: reason".
bool namesTheField(const QString& message, const QStringList& setArgs)
{
    QString rest;
    for (const QString& s : setArgs)
        if (message.startsWith("--set " + s + ": "))
            rest = message.mid(int(QString("--set " + s + ": ").size()));
    if (rest.isEmpty()) {
        static const QRegularExpression option(R"(^--[a-z-]+: \S)");
        if (option.match(message).hasMatch())
            return true;
        static const QRegularExpression file(R"(^[^:\s]+(:\d+)?: (.*)$)");
        const auto m = file.match(message);
        if (!m.hasMatch())
            return false;
        rest = m.captured(2);
    }
    static const QRegularExpression field(R"(^[A-Za-z_][\w.\[\]]*: \S)");
    return field.match(rest).hasMatch();
}

} // namespace

class TestPropertyCli : public QObject {
    Q_OBJECT
private slots:
    void everyFieldEveryCommand()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath("trace.json");
        const std::vector<QStringList> commands { { "simulate", "--json" }, { "scaling", "--json" },
            { "search", "--json", "--top", "3" }, { "cost", "--json" }, { "run", "--json", "--trials", "100" },
            { "cluster", "--json" }, { "trace", "-o", trace, "--steps", "2" }, { "advise", "--json" },
            { "sweep", "--json", "--x", "cluster.scale_out_bandwidth=100 Gbps,400 Gbps", "--y", "hardware.memory_bandwidth=1 TB/s,3 TB/s" },
            { "diff", "SAME", "--json" } };
        const unsigned long long seed = qEnvironmentVariableIsSet("DTSIM_PROPERTY_SEED")
            ? qEnvironmentVariable("DTSIM_PROPERTY_SEED").toULongLong() : 19;
        const int rounds = std::max(1, qEnvironmentVariableIntValue("DTSIM_PROPERTY_ROUNDS"));
        std::mt19937_64 rng(seed);
        const std::vector<Field> fields = allFields();
        QVERIFY(fields.size() > 300);
        int accepted = 0, refused = 0;
        double slowest = 0;
        QString slowestLine;
        QStringList problems;
        for (int round = 0; round < rounds; ++round)
            for (const Field& f : fields) {
                QStringList sets { QString::fromStdString(f.path + "=" + randomValue(f, rng)) };
                if (rng() % 4 == 0) { // now and then a second field at once
                    const Field& g = fields[rng() % fields.size()];
                    if (g.preset == f.preset)
                        sets << QString::fromStdString(g.path + "=" + randomValue(g, rng));
                }
                const QStringList& command = commands[rng() % commands.size()];
                QStringList args { command.front(), QString::fromStdString(f.preset) };
                args << command.mid(1);
                args.replaceInStrings(QRegularExpression("^SAME$"), QString::fromStdString(f.preset)); // diff: the preset against itself changed
                for (const QString& s : sets)
                    args << "--set" << s;
                const test::CliRun r = test::runCli(args, test::scaledMs(20000));
                const QString line = "dtsim-cli " + args.join(' ');
                const QStringList errLines = QString::fromUtf8(r.err).split('\n', Qt::SkipEmptyParts);
                QString message;
                for (const QString& l : errLines)
                    if (!l.startsWith("note: ")) {
                        message = l;
                        break;
                    }
                if (r.cpuSeconds > slowest)
                    slowest = r.cpuSeconds, slowestLine = line;
                if (r.timedOut || r.cpuSeconds > test::scaledMs(5000) / 1000.0) {
                    problems << QString("over 5 s (%1 s of CPU): ").arg(r.cpuSeconds, 0, 'f', 2) + line;
                } else if (r.code == 0) {
                    ++accepted;
                    if (args.contains("--json")) {
                        QJsonParseError error;
                        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
                        const QString bad = doc.isNull() ? "not JSON: " + error.errorString()
                            : badNumber(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()), "");
                        if (!bad.isEmpty())
                            problems << bad + ": " + line;
                    } else if (QString::fromUtf8(r.out).contains(QRegularExpression(R"(\b(nan|inf)\b)",
                                   QRegularExpression::CaseInsensitiveOption))) {
                        problems << "nan or inf in the output: " + line;
                    }
                } else if (r.code == 2) {
                    ++refused;
                    if (!namesTheField(message, sets))
                        problems << "names no field (" + message + "): " + line;
                } else {
                    problems << QString("exit %1 (%2): %3").arg(r.code).arg(message, line);
                }
                if (problems.size() >= 15)
                    break;
            }
        qInfo("%d accepted, %d refused, seed %llu; the slowest case took %.2f s of CPU: %s", accepted, refused, seed, slowest,
            qPrintable(slowestLine));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        // The values are drawn to reach both outcomes, not only refusals.
        QVERIFY(accepted > 30);
        QVERIFY(refused > 30);
    }

    void frontierOptions()
    {
        // The command without a scenario: its options get the same treatment.
        std::mt19937_64 rng(7);
        static const char* gpus[] = { "gtx580", "h100-sxm", "b200", "k80", "nope" };
        static const char* months[] = { "3", "0", "-1", "1e9", "1e-9", "0.01", "1200", "abc", ".nan", "120" };
        static const char* points[] = { "2", "10", "1000", "0", "1e3", "abc" };
        static const char* modes[] = { "realistic", "idealized", "both" };
        QStringList problems;
        for (int i = 0; i < 30; ++i) {
            const QStringList args { "frontier", "--json", "--gpu", gpus[rng() % 5], "--months", months[rng() % 10], "--points",
                points[rng() % 6], "--mode", modes[rng() % 3] };
            const test::CliRun r = test::runCli(args, test::scaledMs(20000));
            const QString line = "dtsim-cli " + args.join(' ');
            if (r.timedOut || r.cpuSeconds > test::scaledMs(5000) / 1000.0)
                problems << QString("over 5 s (%1 s of CPU): ").arg(r.cpuSeconds, 0, 'f', 2) + line;
            else if (r.code == 0) {
                const QString bad = badNumber(QJsonDocument::fromJson(r.out).object(), "");
                if (!bad.isEmpty())
                    problems << bad + ": " + line;
            } else if (r.code != 2 || !QString::fromUtf8(r.err).startsWith("--"))
                problems << QString("exit %1 (%2): %3").arg(r.code).arg(QString::fromUtf8(r.err).trimmed(), line);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
    }
};

QTEST_GUILESS_MAIN(TestPropertyCli)
#include "tst_property_cli.moc"
