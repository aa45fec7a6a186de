// dtsim-cli and dtsim end to end at issue 38's edges: output that cannot be written is
// a failure (exit 1, the reason), and every refusal names what is wrong in the words a
// user would look for: the file, the --set, the option, the folder.
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace dtsim::test;

namespace {

QString preset(const char* name) { return QString(DTSIM_SOURCE_DATA_DIR) + "/presets/" + name + ".yaml"; }

struct Run {
    int code = -1;
    QByteArray out, err;
};

// `program` with `args`, its standard output sent to `stdoutFile` ("" : captured), or
// closed when `closeStdout`.
Run run(const QString& program, const QStringList& args, const QString& stdoutFile = {}, bool closeStdout = false,
    const QStringList& env = {})
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert("QT_QPA_PLATFORM", "offscreen");
    for (const QString& kv : env)
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    if (closeStdout) {
        p.start("bash", QStringList { "-c", "exec \"$0\" \"$@\" >&-", program } + args);
    } else {
        if (!stdoutFile.isEmpty())
            p.setStandardOutputFile(stdoutFile);
        p.start(program, args);
    }
    Run r;
    if (!p.waitForFinished(scaledMs(120000))) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

Run cli(const QStringList& args, const QStringList& env = {}) { return run(DTSIM_CLI_PATH, args, {}, false, env); }

} // namespace

class TestCliMessages : public QObject {
    Q_OBJECT
private slots:
    // --- 4. Output that does not arrive ----------------------------------------------
    void aFailedWriteToStandardOutputIsAFailure_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("sweep --csv") << QStringList { "sweep", "llama2-7b-8xa100", "--x", "parallel.tp=1,2", "--y", "training.micro_batch=1,2", "--csv" };
        QTest::newRow("simulate --json") << QStringList { "simulate", "llama2-7b-8xa100", "--json" };
        QTest::newRow("calibrate --json") << QStringList { "calibrate", "--nccl-tests", QString(DTSIM_SOURCE_DATA_DIR) + "/tests/nccl/all_reduce_perf-8xh100.log", "--json" };
        QTest::newRow("fields --markdown") << QStringList { "fields", "--markdown" };
        QTest::newRow("run") << QStringList { "run", "llama2-7b-8xa100", "--trials", "10" };
    }
    void aFailedWriteToStandardOutputIsAFailure()
    {
        QFETCH(QStringList, args);
        const Run full = run(DTSIM_CLI_PATH, args, "/dev/full");
        QCOMPARE(full.code, 1);
        QVERIFY2(full.err.contains("standard output") && full.err.contains("No space left"), full.err.constData());
        const Run closed = run(DTSIM_CLI_PATH, args, {}, true);
        QCOMPARE(closed.code, 1);
        QVERIFY2(closed.err.contains("standard output is closed"), closed.err.constData());
    }

    // --- 6. Messages ----------------------------------------------------------------------
    void aMissingOverlayFromSetIsBlamedOnTheSet()
    {
        const Run r = cli({ "simulate", "llama2-7b-8xa100", "--set", "calibration=missing.yaml" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("--set calibration=missing.yaml: calibration: "), r.err.constData());
    }

    void anEmptySetSuggestsAValueOfTheFieldsKind_data()
    {
        QTest::addColumn<QString>("set");
        QTest::addColumn<QString>("suggests");
        QTest::newRow("table") << "model.table=" << "model.table=resnet-50";
        QTest::newRow("bandwidth") << "cluster.scale_out_bandwidth=" << "cluster.scale_out_bandwidth=\"1 ";
        QTest::newRow("flag") << "reliability.spares=" << "reliability.spares=true";
    }
    void anEmptySetSuggestsAValueOfTheFieldsKind()
    {
        QFETCH(QString, set);
        QFETCH(QString, suggests);
        const Run r = cli({ "simulate", "resnet50-mlperf", "--set", set });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("write e.g. " + suggests.toUtf8()), r.err.constData());
        QVERIFY2(!r.err.contains("=4"), r.err.constData()); // "model.table=4"
    }

    void aLayerTablesParameterLimitNamesTheTable()
    {
        QTemporaryDir dir;
        QFile t(dir.filePath("wide.yaml"));
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("version: 1\nname: too wide\nsource: test\ninput: {channels: 2000000000}\nlayers:\n"
                "  - {name: fc, type: linear, out_channels: 2000000000}\n");
        t.close();
        const Run r = cli({ "simulate", "resnet50-mlperf", "--set", "model.table=" + t.fileName() });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("model.table: the layer table") && r.err.contains("too wide"), r.err.constData());
        QVERIFY2(!r.err.contains("model.vocab") && !r.err.contains("vocabulary 0"), r.err.constData());
    }

    void aDataFolderTheUserNamesIsUsedOrRefused()
    {
        QTemporaryDir empty;
        const Run option = cli({ "presets", "--data", empty.path() });
        QCOMPARE(option.code, 2);
        QVERIFY2(option.err.contains("--data") && option.err.contains(empty.path().toUtf8()), option.err.constData());
        const Run env = cli({ "presets" }, { "DTSIM_DATA_DIR=" + empty.path() + "/nowhere" });
        QCOMPARE(env.code, 2);
        QVERIFY2(env.err.contains("DTSIM_DATA_DIR") && env.err.contains("not a folder"), env.err.constData());
#ifdef DTSIM_GUI_PATH
        const Run gui = run(DTSIM_GUI_PATH, { "--data", empty.path(), "--screenshot", empty.filePath("x.png") });
        QCOMPARE(gui.code, 2);
        QVERIFY2(gui.err.contains("--data"), gui.err.constData());
#endif
    }

    void aMeasuredStepAndAThroughputTogetherAreRefused()
    {
        const Run r = cli({ "calibrate", "llama2-7b-8xa100", "--measured-step", "30 s", "--measured-tokens-per-s", "35k" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not both"), r.err.constData());
    }

    void anOverlayThatCannotBeWrittenExitsOne()
    {
        // docs/cli.md: 1 for an output that could not be written. A full disk, by a
        // file-size limit of 0 bytes in the child.
        QTemporaryDir dir;
        const QString out = dir.filePath("o.yaml");
        QProcess p;
        p.start("bash", { "-c", "ulimit -f 0; exec \"$0\" \"$@\"", DTSIM_CLI_PATH, "calibrate", "llama2-7b-8xa100", "--measured-step", "30 s", "-o", out });
        QVERIFY(p.waitForFinished(scaledMs(60000)));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(p.readAllStandardError().contains("nothing was written"), "no reason given");
        QVERIFY(!QFile::exists(out));
        // A target that is no file is bad input, found before any work.
        const Run folder = cli({ "calibrate", "llama2-7b-8xa100", "--measured-step", "30 s", "-o", dir.path() });
        QCOMPARE(folder.code, 2);
    }

    // --- 3. A plan that does not fit, end to end -----------------------------------------
    void aPlanThatDoesNotFitIsNeitherPricedNorCompared()
    {
        const QStringList oneGpu { "--set", "cluster.gpus=1", "--set", "parallel.dp=1" };
        const Run cost = cli(QStringList { "cost", "llama2-7b-8xa100" } + oneGpu);
        QCOMPARE(cost.code, 2);
        QVERIFY2(cost.err.contains("does not fit"), cost.err.constData());
        const Run diff = cli(QStringList { "diff", "llama2-7b-8xa100", "llama2-7b-8xa100" } + oneGpu);
        QCOMPARE(diff.code, 0);
        QVERIFY2(diff.out.contains("does not fit") && diff.out.contains("B does not fit in memory"), diff.out.constData());
    }

#ifdef DTSIM_GUI_PATH
    void theWindowRefusesAScreenshotIntoAFolder()
    {
        QTemporaryDir dir;
        const Run folder = run(DTSIM_GUI_PATH, { "--preset", "gtx580-2012", "--screenshot", dir.path() });
        QCOMPARE(folder.code, 2); // "unknown export format" before
        QVERIFY2(folder.err.contains("is a folder"), folder.err.constData());
    }

    void theWindowRefusesAFigureItCannotExplain()
    {
        QTemporaryDir dir;
        const Run explain = run(DTSIM_GUI_PATH, { "--preset", "gtx580-2012", "--explain", "bogus", "--screenshot", dir.filePath("x.png") });
        QCOMPARE(explain.code, 2); // silently ignored before
        QVERIFY2(explain.err.contains("--explain") && explain.err.contains("mfu"), explain.err.constData());
    }

    void theWindowSaysWhyAFileDidNotOpen()
    {
        QTemporaryDir dir;
        const Run missing = run(DTSIM_GUI_PATH, { dir.filePath("none.yaml"), "--screenshot", dir.filePath("y.png") });
        QCOMPARE(missing.code, 2); // with nothing on stderr before
        QVERIFY2(missing.err.contains("none.yaml") && missing.err.contains("not found"), missing.err.constData());
    }

    void theWindowOpensAPresetByName()
    {
        QTemporaryDir dir;
        const Run r = run(DTSIM_GUI_PATH, { "gtx580-2012", "--screenshot", dir.filePath("x.png") });
        QCOMPARE(r.code, 0);
        QVERIFY(QFile::exists(dir.filePath("x.png")));
    }
#endif

    // --- Issue 42: dtsim-cli import and export -----------------------------------------
    // A file with an unknown or a contradictory key: exit 2, "file:line: key: why", and
    // nothing written; one case per format.
    void importRefusesUnknownAndContradictoryKeys_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); // after the file's path
        QTest::newRow("hf unknown") << "config.json" << QByteArray("{\n  \"model_type\": \"llama\",\n  \"hiden_size\": 4096\n}\n") << ":3: hiden_size: not a key";
        QTest::newRow("hf twice") << "config.json" << QByteArray("{\"model_type\": \"llama\",\n\"num_hidden_layers\": 2,\n\"num_hidden_layers\": 4}\n")
                                  << ":3: num_hidden_layers: the key appears twice";
        QTest::newRow("megatron unknown") << "run.sh" << QByteArray("torchrun pretrain_gpt.py \\\n  --num-layer 4\n") << ":2: --num-layer: not a key";
        QTest::newRow("megatron contradiction") << "run.sh" << QByteArray("python pretrain_gpt.py --micro-batch-size 1\npython pretrain_gpt.py --micro-batch-size 2\n")
                                                << ":2: --micro-batch-size: given again with another value";
        QTest::newRow("torchtitan unknown") << "job.toml" << QByteArray("[training]\nlocal_batchsize = 8\n") << ":2: training.local_batchsize: not a key";
        QTest::newRow("deepspeed unknown") << "ds.json" << QByteArray("{\"train_batch_size\": 8,\n \"zero_optimization\": {\"stag\": 1}}\n")
                                           << ":2: zero_optimization.stag: not a key";
        QTest::newRow("deepspeed contradiction") << "ds.json"
                                                 << QByteArray("{\"train_batch_size\": 100,\n \"train_micro_batch_size_per_gpu\": 3}\n")
                                                 << ":1: train_batch_size: gives training.global_batch = 100";
        QTest::newRow("nemo unknown") << "recipe.yaml" << QByteArray("model:\n  num_layers: 4\n  hiden_size: 512\n") << ":3: model.hiden_size: not a key";
        QTest::newRow("nemo bad value") << "recipe.yaml" << QByteArray("model:\n  tensor_model_parallel_size: two\n") << ":2: model.tensor_model_parallel_size: expected a number";
    }
    void importRefusesUnknownAndContradictoryKeys()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(name), out = dir.filePath("out.yaml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const Run r = cli({ "import", path, "-o", out });
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(path + expected), r.err.constData());
        QVERIFY(!QFileInfo::exists(out));
    }

    // Import writes a scenario that loads, with each value's origin at its head; export
    // of it says what the framework cannot express.
    void importWritesAScenarioThatLoads()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("imported.yaml");
        const QString hf = QString(DTSIM_SOURCE_DATA_DIR) + "/tests/frameworks/hf/mixtral-8x7b.json";
        const Run r = cli({ "import", hf, "-o", out, "--set", "cluster.gpus=64", "--set", "parallel.ep=8" });
        QVERIFY2(r.code == 0, r.err.constData());
        const Run sim = cli({ "simulate", out });
        QVERIFY2(sim.code == 0, sim.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains("model.moe.experts = 8   <- " + hf + ":"));
        const Run ex = cli({ "export", out, "--to", "deepspeed" });
        QCOMPARE(ex.code, 0);
        QVERIFY(ex.err.contains("not expressed: parallel: TP 1, PP 1, CP 1, EP 8"));
        QCOMPARE(cli({ "export", out, "--to", "jax" }).code, 2);
        QCOMPARE(cli({ "import", hf, "--var", "NOEQUALS" }).code, 2);
        QCOMPARE(cli({ "import", hf, "--set", "model=no-such-model" }).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliMessages)
#include "tst_cli_messages.moc"
