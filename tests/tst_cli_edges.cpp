// dtsim-cli at the edges of issue 19, end to end: where output may go, traces too
// large to write, runs that cannot finish, and messages that name the right origin.
// Exit codes: 0 success, 2 bad input, 1 an output that could not be written.
#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace dtsim::test;

namespace {

QString preset(const char* name) { return QString(DTSIM_SOURCE_DATA_DIR) + "/presets/" + name + ".yaml"; }

QString firstLine(const QByteArray& err)
{
    for (const QString& l : QString::fromUtf8(err).split('\n', Qt::SkipEmptyParts))
        if (!l.startsWith("note: "))
            return l;
    return {};
}

} // namespace

class TestCliEdges : public QObject {
    Q_OBJECT
private slots:
    // --- 6. trace -o on a FIFO or a device; a full disk ---------------------------------
    void traceWritesRegularFilesOnly()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("pipe");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
        for (const QString& target : { fifo, QString("/dev/full"), QString("/dev/null"), dir.path() }) {
            const CliRun r = runCli({ "trace", "llama2-7b-8xa100", "-o", target }, scaledMs(20000));
            QCOMPARE(r.code, 2);
            QVERIFY2(firstLine(r.err).startsWith("-o: " + target + " is "), r.err.constData());
        }
        struct stat st {};
        QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode)); // not replaced by a regular file
        // A folder that is not there is bad input too, found before any work.
        const CliRun missing = runCli({ "trace", "llama2-7b-8xa100", "-o", dir.filePath("no/such/t.json") }, scaledMs(20000));
        QCOMPARE(missing.code, 2);
        QVERIFY2(firstLine(missing.err).contains("does not exist"), missing.err.constData());
    }

    void aTraceThatCannotBeWrittenSaysWhyAndLeavesNothing()
    {
        // A file-size limit fails the write as a full disk does: the system's reason,
        // no partial file, a non-zero exit.
        QTemporaryDir dir;
        const QString out = dir.filePath("t.json");
        QProcess p;
        p.start("/bin/sh", { "-c", QString("ulimit -f 8; exec '%1' trace llama2-7b-8xa100 -o '%2'").arg(DTSIM_CLI_PATH, out) });
        QVERIFY(p.waitForFinished(scaledMs(20000)));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // SIGXFSZ does not kill it
        QCOMPARE(p.exitCode(), 1);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("File too large") && err.contains("nothing was written"), qPrintable(err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    void traceNeedsAnOutput()
    {
        // Issue 22, item 15: without -o it wrote trace.json into the working folder.
        QTemporaryDir dir;
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(DTSIM_CLI_PATH, { "trace", "llama2-7b-8xa100" });
        QVERIFY(p.waitForFinished(scaledMs(20000)));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(p.readAllStandardError().contains("-o trace.json"), "the message says how to name the output");
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }

    void traceToStandardOutput()
    {
        const CliRun r = runCli({ "trace", "llama2-7b-8xa100", "-o", "-" }, scaledMs(20000));
        QCOMPARE(r.code, 0);
        QVERIFY(QJsonDocument::fromJson(r.out).object().contains("traceEvents"));
        QVERIFY(r.err.contains("events on")); // the summary moves to stderr
    }

    void aTraceOverAGigabyteIsRefusedBeforeAnyWork()
    {
        // 100 steps of the 405B preset with a row per TP rank took 2.2 GB and wrote 1.5 GB.
        QTemporaryDir dir;
        QElapsedTimer timer;
        timer.start();
        const CliRun r = runCli({ "trace", "llama3-405b-h100", "--ranks", "--steps", "100", "-o", dir.filePath("t.json") },
            scaledMs(20000));
        QCOMPARE(r.code, 2);
        const QString msg = firstLine(r.err);
        QVERIFY2(msg.startsWith("--steps: this trace would be about") && msg.contains("GB") && msg.contains("drop --ranks"),
            qPrintable(msg));
        QVERIFY(!QFile::exists(dir.filePath("t.json")));
        QVERIFY(timer.elapsed() < scaledMs(5000)); // refused from the estimate, not after simulating
    }

    // --- 4. No NaN or infinity leaves: runs that cannot finish are refused ---------------
    void aRunThatCannotFinishIsRefusedNotPrinted()
    {
        for (const char* command : { "run", "cost" }) {
            const CliRun r = runCli({ command, "llama3-405b-h100", "--json", "--set", "reliability.checkpoint_interval=1e12 s" },
                scaledMs(20000));
            QCOMPARE(r.code, 2);
            QVERIFY(r.out.isEmpty()); // no JSON with null in it
            QVERIFY2(firstLine(r.err).startsWith("--set reliability.checkpoint_interval=1e12 s: reliability.checkpoint_interval:"),
                r.err.constData());
        }
        // Asked for more trials than a failure-prone run affords: refused, naming --trials.
        const CliRun many = runCli({ "run", "llama3-405b-h100", "--trials", "1000000", "--set", "reliability.checkpoint_interval=4 h" },
            scaledMs(20000));
        QCOMPARE(many.code, 2);
        QVERIFY2(firstLine(many.err).startsWith("--trials: at most"), many.err.constData());
    }

    void validateRefusesARowThatIsNotANumber()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("runs.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("- id: mine-1\n  quality: good\n  architecture: {layers: 32, hidden_size: 4096, attention_heads: 32, seq_len: 2048}\n"
                "  result: {tflops_per_gpu: .inf}\n");
        f.close();
        const CliRun r = runCli({ "validate", f.fileName() }, scaledMs(20000));
        QCOMPARE(r.code, 2);
        QVERIFY2(firstLine(r.err).startsWith(f.fileName() + ":4: [0].result.tflops_per_gpu:"), r.err.constData());
    }

    // --- 7. Messages name the right origin ----------------------------------------------
    void anUnknownRegionHasItsLine()
    {
        QTemporaryDir dir;
        QFile in(preset("llama2-7b-8xa100"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile out(dir.filePath("mars.yaml"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(in.readAll() + "cost:\n  region: mars\n");
        out.close();
        const CliRun r = runCli({ "cost", out.fileName() }, scaledMs(20000));
        QCOMPARE(r.code, 2);
        QVERIFY2(firstLine(r.err).startsWith(out.fileName() + ":33: cost.region: unknown region \"mars\""), r.err.constData());
    }

    void optionsNameTheirRange()
    {
        const CliRun r = runCli({ "frontier", "--gpu", "gtx580", "--months", "1e9" }, scaledMs(20000));
        QCOMPARE(r.code, 2);
        QCOMPARE(firstLine(r.err), QString("--months: \"1e9\" is not a training duration in months from 0.01 to 1200"));
    }

    void aSetThatSplitsAnAliasSaysSo()
    {
        QTemporaryDir dir;
        QFile in(preset("llama2-7b-8xa100"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        text.replace("hidden: 4096", "hidden: &h 4096\n  head_dim: *h");
        QFile out(dir.filePath("alias.yaml"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        const CliRun r = runCli({ "simulate", out.fileName(), "--json", "--set", "model.hidden=8192", "--set", "model.heads=64",
                                    "--set", "model.kv_heads=64" },
            scaledMs(20000));
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.startsWith("note: --set model.hidden=8192: model.head_dim was the same YAML node"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliEdges)
#include "tst_cli_edges.moc"
