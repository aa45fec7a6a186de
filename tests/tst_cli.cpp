// dtsim-cli end to end: JSON keys and values, listing commands, exit codes and messages.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <cmath>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_runner.h"

namespace {

using Run = dtsim::test::CliRun;

Run cli(const QStringList& args) { return dtsim::test::runCli(args); }

QString preset(const char* name) { return QString(DTSIM_SOURCE_DATA_DIR) + "/presets/" + name + ".yaml"; }

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    // Issue 25: `advise` names a regime and its changes; applying the top one with --set
    // gives the time to train it predicted. `sweep` and `diff` refuse what they cannot do.
    void adviseTopSuggestionReproducesWithSet()
    {
        const Run a = cli({ "advise", preset("llama3-405b-h100"), "--json" });
        QCOMPARE(a.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(a.out).object();
        QVERIFY(!o["regime"].toString().isEmpty());
        const QJsonArray list = o["suggestions"].toArray();
        QVERIFY(list.size() >= 3);
        const QJsonObject top = list[0].toObject();
        QStringList args { "simulate", preset("llama3-405b-h100"), "--json" };
        for (const QJsonValue v : top["set"].toArray())
            args << "--set" << v.toString();
        const Run applied = cli(args);
        QCOMPARE(applied.code, 0);
        const double t = QJsonDocument::fromJson(applied.out).object()["time_to_train_s"].toDouble();
        QVERIFY2(std::abs(t / top["time_to_train_s"].toDouble() - 1) < 1e-6, qPrintable(QString::number(t)));
        QVERIFY(std::abs(o["time_to_train_s"].toDouble() / t - 1 - top["gain"].toDouble()) < 1e-6);

        const Run noY = cli({ "sweep", preset("gpt3-175b-a100"), "--x", "parallel.tp=1,2" });
        QCOMPARE(noY.code, 2);
        QVERIFY(noY.err.contains("--y"));
        const Run badField = cli({ "sweep", preset("gpt3-175b-a100"), "--x", "parallel.tq=1,2", "--y", "parallel.pp=1,2" });
        QCOMPARE(badField.code, 2);
        QVERIFY(badField.err.contains("parallel.tq"));
        const Run badValue = cli({ "sweep", preset("gpt3-175b-a100"), "--x", "cluster.scale_out_bandwidth=fast", "--y", "parallel.pp=1,2" });
        QCOMPARE(badValue.code, 2);
        QVERIFY(badValue.err.contains("cluster.scale_out_bandwidth"));
        for (const char* axis : { "parallel.tp=1..8*x", "parallel.tp=1..8*", "parallel.tp=1..2*1e400", "parallel.tp=1,,2", "parallel.tp=8..1*2" }) {
            const Run bad = cli({ "sweep", preset("gpt3-175b-a100"), "--x", axis, "--y", "parallel.pp=1,2" });
            QCOMPARE(bad.code, 2); // refused with the option, never an internal error
            QVERIFY2(bad.err.startsWith("--x: parallel.tp"), bad.err.constData());
        }
        const Run csv = cli({ "sweep", preset("gpt3-175b-a100"), "--x", "cluster.gpus=512,1024", "--y", "training.global_batch=1536", "--csv" });
        QCOMPARE(csv.code, 0);
        QCOMPARE(csv.out.count('\n'), 2);
        const Run same = cli({ "diff", preset("gpt3-175b-a100"), preset("gpt3-175b-a100"), "--json" });
        QCOMPARE(same.code, 0);
        QVERIFY(QJsonDocument::fromJson(same.out).object()["inputs"].toArray().isEmpty());
        QCOMPARE(cli({ "diff", preset("gpt3-175b-a100") }).code, 2);
    }

    void simulateJsonHasTheDocumentedKeys()
    {
        const Run r = cli({ "simulate", preset("gpt3-175b-a100"), "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        for (const char* key : { "step_time_s", "mfu", "hfu", "tflops_per_gpu", "tokens_per_s", "memory_per_gpu_bytes",
                 "fits_in_memory", "time_to_train_s", "gpu_hours", "sync_wall_gpus", "breakdown" })
            QVERIFY2(o.contains(key), key);
        const double mfu = o["mfu"].toDouble();
        QVERIFY2(mfu > 0.2 && mfu < 0.7, qPrintable(QString::number(mfu)));
        QVERIFY(o["fits_in_memory"].toBool());
        QVERIFY(o["hfu"].toDouble() > mfu); // full recompute
        double sum = 0;
        for (const QJsonValue v : o["breakdown"].toObject())
            sum += v.toDouble();
        QVERIFY(qAbs(sum - o["step_time_s"].toDouble()) < 1e-6 * sum);
        // Days to train at a plausible MFU: tens of days for GPT-3 on 1,024 A100s.
        const double days = o["time_to_train_s"].toDouble() / 86400;
        QVERIFY2(days > 15 && days < 80, qPrintable(QString::number(days)));
    }

    void presetNameWorksAsFile()
    {
        const Run r = cli({ "simulate", "llama2-7b-8xa100" });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("step time"));
    }

    void setOverridesAField()
    {
        const Run a = cli({ "simulate", preset("gpt3-175b-a100"), "--json" });
        const Run b = cli({ "simulate", preset("gpt3-175b-a100"), "--json", "--set", "cluster.scale_out_bandwidth=25 Gbps" });
        QCOMPARE(b.code, 0);
        const double ta = QJsonDocument::fromJson(a.out).object()["step_time_s"].toDouble();
        const double tb = QJsonDocument::fromJson(b.out).object()["step_time_s"].toDouble();
        QVERIFY(tb > ta);
    }

    void listings()
    {
        const Run p = cli({ "presets" });
        QCOMPARE(p.code, 0);
        for (const char* n : { "gpt3-175b-a100", "llama3-405b-h100", "llama2-7b-8xa100", "mixtral-8x7b-h100", "gtx580-2012" })
            QVERIFY2(p.out.contains(n), n);
        const Run h = cli({ "hardware", "--json" });
        QCOMPARE(h.code, 0);
        QVERIFY(QJsonDocument::fromJson(h.out).array().size() >= 13);
    }

    void malformedScenarioExitsTwoWithLocation()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + "/bad.yaml";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("version: 1\nmodel:\n  layers: 0\n");
        f.close();
        const Run r = cli({ "simulate", path });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith((path + ":3: model.layers: ").toUtf8()), r.err.constData());
    }

    void validateJson()
    {
        const Run r = cli({ "validate", QString(DTSIM_SOURCE_DATA_DIR) + "/tests/validation/published-runs.yaml", "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o["runs"].toArray().size() >= 226);
        const QJsonObject first = o["runs"].toArray().first().toObject();
        for (const char* key : { "id", "quality", "reported_tokens_per_s_per_gpu", "predicted_tokens_per_s_per_gpu", "rel_error", "skipped" })
            QVERIFY2(first.contains(key), key);
        for (const char* group : { "good", "all" })
            for (const char* key : { "count", "median_abs_rel_error", "p90_abs_rel_error", "max_abs_rel_error" })
                QVERIFY2(o[group].toObject().contains(key), key);
        QVERIFY(o["per_source"].toObject().contains("mpt"));
        QCOMPARE(cli({ "validate", "/nonexistent.yaml" }).code, 2);
    }

    void plannerCommandsPrintParseableOutput()
    {
        const Run search = cli({ "search", preset("llama2-7b-8xa100"), "--top", "3", "--json" });
        QCOMPARE(search.code, 0);
        const QJsonObject so = QJsonDocument::fromJson(search.out).object();
        QCOMPARE(so["top"].toArray().size(), 3);
        QVERIFY(so["baseline"].isObject());
        QVERIFY(so["rejected"].toObject().contains("memory"));

        const Run frontier = cli({ "frontier", "--gpu", "h100-sxm", "--months", "3", "--points", "12", "--json" });
        QCOMPARE(frontier.code, 0);
        const QJsonObject fo = QJsonDocument::fromJson(frontier.out).object();
        QCOMPARE(fo["points"].toArray().size(), 12);
        for (const char* key : { "max_flop_at_80pct", "max_flop_any" })
            QVERIFY(fo[key].toDouble() > 0);
        const QJsonObject first = fo["points"].toArray().first().toObject();
        for (const char* key : { "flop", "mfu", "gpus", "tp", "pp", "dp", "ep", "batch_tokens", "step_time_s", "days" })
            QVERIFY2(first.contains(key), key);

        const Run csv = cli({ "frontier", "--gpu", "gtx580", "--months", "3", "--points", "5", "--csv" });
        QCOMPARE(csv.code, 0);
        QCOMPARE(csv.out.trimmed().split('\n').size(), 6);

        const Run scaling = cli({ "scaling", "gpt3-175b-a100", "--json" });
        QCOMPARE(scaling.code, 0);
        const QJsonObject sc = QJsonDocument::fromJson(scaling.out).object();
        QVERIFY(sc["fixed_batch"].toArray().size() > 3);
        QVERIFY(sc["sync_wall_gpus"].toInt() > 0);

        const Run bench = cli({ "bench", "--json" });
        QCOMPARE(bench.code, 0);
        const QJsonObject bo = QJsonDocument::fromJson(bench.out).object();
        for (const char* key : { "plans_per_s", "search_ms", "frontier_ms", "trace_ms", "montecarlo_10k_ms", "montecarlo_in_memory_10k_ms", "cluster_ms" })
            QVERIFY2(bo[key].toDouble() > 0, key);

        QCOMPARE(cli({ "frontier", "--gpu", "nope", "--months", "3" }).code, 2);
        QCOMPARE(cli({ "frontier", "--gpu", "h100-sxm", "--months", "-1" }).code, 2);
        QCOMPARE(cli({ "search", "gpt3-175b-a100", "--objective", "speed" }).code, 2);
    }

    void runJsonHasTheDocumentedKeys()
    {
        const Run r = cli({ "run", "llama3-405b-h100", "--trials", "200", "--seed", "5", "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        for (const char* key : { "cluster_mtbf_s", "checkpoint_interval_s", "checkpoint_write_s", "expected_time_to_train_s",
                 "overhead_fraction", "p50_s", "p90_s", "p99_s", "goodput", "lost_gpu_hours" })
            QVERIFY2(o.contains(key), key);
        QVERIFY(o["p50_s"].toDouble() <= o["p90_s"].toDouble());
        QVERIFY(o["p90_s"].toDouble() <= o["p99_s"].toDouble());
        QVERIFY(o["goodput"].toDouble() > 0.5 && o["goodput"].toDouble() < 1);
        QVERIFY(o["lost_gpu_hours"].toObject()["gpu"].toDouble() > 0);
        QVERIFY(!o.contains("clean"));
        // The same seed gives the same answer.
        QCOMPARE(cli({ "run", "llama3-405b-h100", "--trials", "200", "--seed", "5", "--json" }).out, r.out);

        // Chaos events: compared against the clean run.
        QTemporaryDir dir;
        QFile in(preset("llama3-405b-h100"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile chaos(dir.filePath("chaos.yaml"));
        QVERIFY(chaos.open(QIODevice::WriteOnly));
        chaos.write(in.readAll() + "reliability:\n  chaos:\n    - {at: 3 days, event: straggler, target: gpu 1042, slowdown: 0.15}\n");
        chaos.close();
        const Run c = cli({ "run", chaos.fileName(), "--trials", "50", "--json" });
        QCOMPARE(c.code, 0);
        const QJsonObject co = QJsonDocument::fromJson(c.out).object();
        QVERIFY(co["p50_s"].toDouble() > 1.1 * co["clean"].toObject()["p50_s"].toDouble());

        QCOMPARE(cli({ "run", "llama3-405b-h100", "--trials", "0" }).code, 2);
        QCOMPARE(cli({ "run", "llama3-405b-h100", "--seed", "x" }).code, 2);
        const Run bad = cli({ "run", "llama3-405b-h100", "--set", "reliability.straggler_slowdown=-1" });
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("reliability.straggler_slowdown"));
    }

    void costJsonAndCostObjective()
    {
        const Run r = cli({ "cost", "gpt3-175b-a100", "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        for (const char* key : { "total_usd", "energy_mwh", "co2e_tonnes", "breakdown" })
            QVERIFY2(o.contains(key), key);
        double sum = 0;
        for (const QJsonValue v : o["breakdown"].toObject())
            sum += v.toDouble();
        QVERIFY(qAbs(sum - o["total_usd"].toDouble()) < 1e-6 * sum);
        QVERIFY(o["energy_mwh"].toDouble() > 0 && o["co2e_tonnes"].toDouble() > 0);

        const Run s = cli({ "search", "gpt3-175b-a100", "--objective", "cost", "--top", "2", "--json" });
        QCOMPARE(s.code, 0);
        const QJsonObject so = QJsonDocument::fromJson(s.out).object();
        QVERIFY(so["saving_vs_naive"].toDouble() >= 0.2);
        QVERIFY(so.contains("saving_vs_given"));
        QVERIFY(so["top"].toArray().first().toObject()["cost_usd"].toDouble() > 0);

        // No rental price for a 2012 GPU: a clear message, exit 2.
        const Run bad = cli({ "cost", "gtx580-2012", "--set", "cost.ownership=rent" });
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("cost.gpu_hour_usd"));
        QCOMPARE(cli({ "cost", "gpt3-175b-a100", "--set", "cost.region=mars" }).code, 2);
        QCOMPARE(cli({ "cost", "gtx580-2012" }).code, 0); // the preset owns its cluster
    }

    void badInvocationsExitTwo()
    {
        QCOMPARE(cli({}).code, 2);
        QCOMPARE(cli({ "frobnicate" }).code, 2);
        QCOMPARE(cli({ "simulate" }).code, 2);
        QCOMPARE(cli({ "simulate", "/nonexistent/x.yaml" }).code, 2);
        const Run r = cli({ "simulate", preset("gpt3-175b-a100"), "--set", "parallel.tp" });
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("path=value"));
        QCOMPARE(cli({ "simulate", preset("gpt3-175b-a100"), "--bogus" }).code, 2);
    }

    // Issue 23: measure, write an overlay, and a scenario that names it simulates with it
    // and says so; bad measurements exit 2 naming what is wrong.
    void calibrateWritesAnOverlayAScenarioUses()
    {
        QTemporaryDir dir;
        const QString overlay = dir.path() + "/measured.yaml";
        const QString log = QString(DTSIM_SOURCE_DATA_DIR) + "/tests/nccl/all_reduce_perf-8xh100.log";
        Run r = cli({ "calibrate", "--nccl-tests", log, "-o", overlay });
        QCOMPARE(r.code, 2); // which tier it measured is the user's to say
        QVERIFY(r.err.contains("--tier"));
        r = cli({ "calibrate", "--nccl-tests", log, "--tier", "scale_up", "-o", overlay });
        QCOMPARE(r.code, 0);
        const QString scenario = dir.path() + "/run.yaml";
        QFile::copy(preset("llama2-7b-8xa100"), scenario);
        r = cli({ "calibrate", scenario, "--measured-step", "33 s", "-o", overlay, "--json" });
        QCOMPARE(r.code, 0);
        const double scale = QJsonDocument::fromJson(r.out).object()["compute_scale"].toDouble();
        QVERIFY(scale > 0.5 && scale < 1);
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::Append));
        f.write("calibration: measured.yaml\n");
        f.close();
        r = cli({ "simulate", scenario, "--json" });
        QCOMPARE(r.code, 0);
        const QJsonObject c = QJsonDocument::fromJson(r.out).object()["calibration"].toObject();
        QCOMPARE(c["file"].toString(), QString("measured.yaml"));
        QVERIFY(std::abs(c["compute_scale"].toDouble() / scale - 1) < 1e-5); // written to six digits
        QCOMPARE(c["collectives"].toArray().size(), 1);
        // The scenario at its fitted speed takes the measured step.
        r = cli({ "simulate", scenario });
        QVERIFY2(r.out.contains("calibrated from measured.yaml"), r.out.constData());
        // Unreachable, unreadable, not a trace: exit 2 with the reason.
        r = cli({ "calibrate", scenario, "--measured-step", "1 ms" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--measured-step: 1 ms is faster than"), r.err.constData()); // faster than the GPUs' peak allows
        r = cli({ "calibrate", dir.path() + "/nothing.json" });
        QCOMPARE(r.code, 2);
        r = cli({ "calibrate", scenario });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not JSON"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
