// Kernel speeds fitted to a profiler trace (dtsim-cli calibrate TRACE --scenario): the
// two H200 traces in tests/measurements/h200-pytorch against the scenarios they ran.
#include "simcore/input_error.h"
#include "simcore/loader/calibration_overlay_loader.h"
#include "simcore/measure/trace_fit.h"
#include "simcore/step.h"
#include "simcore/step_layer.h"
#include "test_data.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace dtsim;

namespace {

const std::string kFolder = "tests/measurements/h200-pytorch/";

Scenario scenario(const std::string& name)
{
    return loadScenarioFile(test::dataPath(kFolder + "scenarios/" + name + ".yaml"), test::catalog(), {}, test::topologies());
}

ProfileSummary trace(const std::string& name)
{
    return summarizeProfile(readKinetoTrace(test::dataPath(kFolder + name + ".trace.json.gz")));
}

// The GEMM time of the trace's steps that a Python script computes from the raw events
// (expected-steps.json, step_figures.py), their median.
double independentGemmSeconds(const std::string& name)
{
    QFile f(QString::fromStdString(test::dataPath(kFolder + "expected-steps.json")));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("expected-steps.json is missing");
    std::vector<double> v;
    for (const QJsonValue& s : QJsonDocument::fromJson(f.readAll()).object()[QString::fromStdString(name + ".trace.json.gz")].toArray())
        v.push_back(s.toObject()["gemm_s"].toDouble());
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

class TestTraceFit : public QObject {
    Q_OBJECT
private slots:
    void theTracedStepIsReproduced_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("gpt2") << "gpt2-124m-v50304-b16-s1024";
        QTest::newRow("llama") << "llama-0.5b-b8-s2048";
    }
    void theTracedStepIsReproduced()
    {
        QFETCH(QString, name);
        const Scenario s = scenario(name.toStdString());
        const TraceFit fit = fitTrace(s, test::calibration(), trace(name.toStdString()));
        QCOMPARE(fit.steps, 3);
        QVERIFY(fit.converged());
        // The GEMM time fitted to is the one the raw events give.
        QVERIFY2(std::abs(fit.measured.gemm / independentGemmSeconds(name.toStdString()) - 1) < 0.05,
            qPrintable(QString("GEMM %1 s").arg(fit.measured.gemm)));
        QVERIFY2(std::abs(fit.residual()) < 0.05, qPrintable(QString("fitted step %1% off").arg(100 * fit.residual())));
        // The uncalibrated split differs from the trace (the fit has something to do) ...
        QVERIFY(std::abs(fit.predicted.gemm / fit.measured.gemm - 1) > 0.05);
        QVERIFY(fit.kernels.stepOverhead >= 0 && fit.kernels.stepOverhead < fit.measuredStep - fit.measuredBusy + 0.01);

        // ... and the overlay, written and read back, gives the scenario the traced step.
        QTemporaryDir dir;
        const std::string path = dir.filePath("fit.yaml").toStdString();
        CalibrationOverlay o;
        o.kernels = fit.kernels;
        o.kernels.source = "test";
        std::ofstream(path) << calibrationOverlayText(o);
        Scenario calibrated = s;
        calibrated.calibration = loadCalibrationOverlay(path);
        calibrated.calibration.file = path;
        QCOMPARE(calibrated.calibration.kernels.source, std::string("test"));
        const StepReport r = predictStep(calibrated, test::calibration());
        QVERIFY2(std::abs(r.stepTime / fit.measuredStep - 1) < 0.05,
            qPrintable(QString("calibrated %1 s, traced %2 s").arg(r.stepTime).arg(fit.measuredStep)));
        QVERIFY(std::abs(r.kernels.gemm / fit.measured.gemm - 1) < 0.01);
        QVERIFY(std::abs(r.kernels.stream / fit.measured.stream - 1) < 0.01);
    }

    // A fitted speed never takes a kernel past the GPU's peaks.
    void fittedSpeedsStayWithinThePeaks()
    {
        Scenario s = scenario("llama-0.5b-b8-s2048");
        s.calibration.kernels.gemmScale = 9;
        s.calibration.kernels.memoryScale = 9;
        s.calibration.kernels.attentionScale = 9;
        s.calibration.kernels.source = "test";
        const step_detail::Rates r = step_detail::ratesFor(s, test::calibration());
        const double m = 16384, flops = 2 * m * m * m;
        QVERIFY(step_detail::gemmTime(r, m, m, m) >= flops / r.gemmPeak);
        QCOMPARE(r.memoryRate, s.hardware.memoryBandwidth);
        QVERIFY(r.attentionRate <= r.halfGemmPeak);
    }

    void whatCannotBeFittedIsRefused()
    {
        Scenario piped = scenario("llama-0.5b-b8-s2048");
        piped.plan.pp = 2;
        try {
            fitTrace(piped, test::calibration(), trace("llama-0.5b-b8-s2048"));
            QFAIL("a pipeline stage was fitted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("plan.pp"));
        }
        try {
            fitTrace(scenario("llama-0.5b-b8-s2048"), test::calibration(), ProfileSummary {});
            QFAIL("a trace without GPU kernels was fitted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("no GPU kernels"), e.what());
        }
        ProfileSummary stepless = trace("llama-0.5b-b8-s2048");
        stepless.steps.clear();
        try {
            fitTrace(scenario("llama-0.5b-b8-s2048"), test::calibration(), stepless);
            QFAIL("a trace without steps was fitted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("no ProfilerStep"), e.what());
        }
    }

    void badOverlayKernelsNameTheField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("ten times") << "kernels: {source: x, gemm_scale: 20}" << ":2: kernels.gemm_scale: a kernel speed ten times off";
        QTest::newRow("no source") << "kernels: {gemm_scale: 1.2}" << "kernels.source: is required";
        QTest::newRow("stall") << "kernels: {source: x, step_overhead: 2 min}" << "kernels.step_overhead: more than a minute";
        QTest::newRow("unknown key") << "kernels: {source: x, gemm: 1}" << "kernels.gemm";
    }
    void badOverlayKernelsNameTheField()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = dir.filePath("o.yaml").toStdString();
        std::ofstream(path) << "version: 1\n" << text.toStdString() << "\n";
        try {
            loadCalibrationOverlay(path);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestTraceFit)
#include "tst_trace_fit.moc"
