// Gradient compression (training.grad_compression): the bytes each method puts on the wire
// against a hand count, the GPU time it costs, what it saves where the network is slow,
// its token cost, the plans the frameworks refuse, and that `none` changes nothing.
#include "simcore/convergence.h"
#include "simcore/grad_compression.h"
#include "simcore/layers/families.h"
#include "simcore/plan_check.h"
#include "simcore/scenario_limits.h"
#include "simcore/loader/published_runs_loader.h"
#include "simcore/loader/scenario_override.h"
#include "simcore/report_check.h"
#include "simcore/step.h"
#include "simcore/study/advice.h"
#include "simcore/validation/run_to_scenario.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

// Two linear layers on 1,024 features: 1,024 -> 4,096 (with bias) -> 1,000 (no bias).
// Matrices 4,096 x 1,024 and 1,000 x 4,096; one bias vector of 4,096.
constexpr double kElements = 4096.0 * 1024 + 1000.0 * 4096; // 8,290,304
constexpr double kVectors = 4096;
constexpr double kSides = (4096.0 + 1024) + (1000.0 + 4096); // 10,216

Scenario twoLinears(int dp, GradCompression m)
{
    Scenario s = test::preset("resnet50-mlperf");
    LayerTable t;
    t.name = "two linears";
    t.input = { 1024, 1, 1 };
    Layer a;
    a.name = "fc1";
    a.type = LayerType::Linear;
    a.outChannels = 4096;
    Layer b = a;
    b.name = "fc2";
    b.outChannels = 1000;
    b.bias = false;
    t.layers = { a, b };
    s.model.table.ref = "two-linears";
    s.model.table.resolved = resolveLayerTable(t);
    s.training.precision = Precision::FP32;
    s.training.gradReduce = Precision::FP32;
    s.training.masterWeightsFp32 = false;
    s.training.convolutionFusion = false;
    s.cluster.gpus = dp;
    s.cluster.gpusPerNode = 8;
    s.plan.dp = dp;
    s.training.microBatch = 64;
    s.training.globalBatch = 64 * dp;
    s.training.gradCompression = m;
    s.training.gradCompressionRank = 4;
    s.training.gradCompressionWarmup = 0;
    s.training.optimizer = m == GradCompression::OneBit ? Optimizer::Adam : Optimizer::Sgd;
    return s;
}

double dpBytes(const StepReport& r) { return r.comm[int(CommGroup::DP)].bytesPerGpu; }

// A data-parallel run whose gradient sync is exposed: a 1.35B Llama-shaped model without
// FSDP over 32 nodes on a 25 Gb/s NIC per GPU, the reduction not overlapped.
Scenario slowNetwork()
{
    Scenario s = test::preset("llama2-7b-8xa100");
    s.model.layers = 24;
    s.model.hidden = 2048;
    s.model.heads = s.model.kvHeads = 16;
    s.model.headDim = 128;
    s.model.ffnHidden = 5504;
    s.plan.zeroStage = 0;
    s.plan.recompute = Recompute::Full;
    s.cluster.gpus = 256;
    s.plan.dp = 256;
    s.training.microBatch = 1;
    s.training.globalBatch = 256;
    s.cluster.scaleOutBandwidth = 25e9 / 8;
    s.plan.overlapGradReduce = false;
    return s;
}

} // namespace

class TestCompression : public QObject {
    Q_OBJECT
private slots:
    // The matrices PowerSGD sees in the two-linear table, counted by hand.
    void matricesOfALayerTable()
    {
        const GradMatrices g = gradMatrices(twoLinears(16, GradCompression::PowerSgd), 0, 0);
        QCOMPARE(g.elements, kElements);
        QCOMPARE(g.vectors, kVectors);
        QCOMPARE(g.sides, kSides);
        QCOMPARE(g.matrices, 2.0);
        QCOMPARE(g.lowRankValues(4), 4 * kSides + kVectors);
    }

    // The CIFAR ResNet-18 of the PowerSGD paper: 21 matrices with sum(n + m) = 36,325 and
    // 9,610 norm and bias values, so rank 1, 2 and 4 send 243x, 136x and 72x fewer values,
    // the ratios the paper's Table 3 prints.
    void resnet18CifarMatchesThePapersRatios()
    {
        Scenario s = twoLinears(16, GradCompression::PowerSgd);
        s.model.table.resolved = resolveLayerTable(*builtinLayerTable("resnet-18-cifar"));
        const GradMatrices g = gradMatrices(s, 0, 0);
        QCOMPARE(g.matrices, 21.0);
        QCOMPARE(g.sides, 36325.0);
        QCOMPARE(g.vectors, 9610.0);
        QCOMPARE(g.total(), 11173962.0);
        QCOMPARE(std::lround(g.total() / g.lowRankValues(1)), 243L);
        QCOMPARE(std::lround(g.total() / g.lowRankValues(2)), 136L);
        QCOMPARE(std::lround(g.total() / g.lowRankValues(4)), 72L);
    }

    // Bytes one GPU sends per step in a group of p = 16, fp32 gradients (N = 8,294,400
    // values): a ring all-reduce sends 2 (p-1)/p of its buffer; PowerSGD all-reduces
    // r(n + m) per matrix plus the vectors; 1-bit sends N/8 bytes and 16 fp32 scales in an
    // all-to-all and again in an all-gather, (p-1)/p each; fp8 all-reduces one byte a
    // value; int8 all-gathers 16 one-byte copies, receiving (p-1) N.
    void bytesOnTheWire_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<double>("expected");
        const double p = 16, n = kElements + kVectors, ring = 2 * (p - 1) / p;
        QTest::newRow("none") << int(GradCompression::None) << ring * n * 4;
        QTest::newRow("powersgd r=4") << int(GradCompression::PowerSgd) << ring * (4 * kSides + kVectors) * 4;
        QTest::newRow("onebit") << int(GradCompression::OneBit) << 2 * (p - 1) / p * (n / 8 + 4 * p);
        QTest::newRow("fp8") << int(GradCompression::Fp8) << ring * n * 1;
        QTest::newRow("int8") << int(GradCompression::Int8) << (p - 1) * n;
    }
    void bytesOnTheWire()
    {
        QFETCH(int, method);
        QFETCH(double, expected);
        const StepReport r = predictStep(twoLinears(16, GradCompression(method)), test::calibration());
        QVERIFY2(std::fabs(dpBytes(r) / expected - 1) < 1e-12, qPrintable(QString::number(dpBytes(r)) + " vs " + QString::number(expected)));
    }

    // PowerSGD's GEMMs grow with the rank, and so do its bytes. (From rank 4: an fp32
    // factor's rows of 4 or 8 bytes at rank 1 or 2 are charged by the engine's GEMM model as
    // narrower-aligned operands, Calibration::gemmUnaligned and gemmAligned8Bytes, so ranks
    // 1 and 2 cost more than rank 4.)
    void powerSgdComputeGrowsWithRank()
    {
        Scenario s = twoLinears(16, GradCompression::PowerSgd);
        double lastCompute = 0, lastBytes = 0;
        for (int rank : { 4, 8, 16, 32, 64, 128 }) {
            s.training.gradCompressionRank = rank;
            const StepReport r = predictStep(s, test::calibration());
            QVERIFY2(r.breakdown.compression > lastCompute, qPrintable(QString("rank %1: %2 s after %3 s").arg(rank).arg(r.breakdown.compression).arg(lastCompute)));
            QVERIFY(dpBytes(r) > lastBytes);
            lastCompute = r.breakdown.compression;
            lastBytes = dpBytes(r);
        }
        // Every method but none costs GPU time; none costs nothing.
        for (GradCompression m : kAllGradCompressions) {
            const StepReport r = predictStep(twoLinears(16, m), test::calibration());
            QCOMPARE(r.breakdown.compression > 0, m != GradCompression::None);
        }
    }

    // 1-bit's step is the run's average: warm-up at full precision, then compressed.
    void oneBitWarmupAveragesTheSteps()
    {
        Scenario s = twoLinears(16, GradCompression::OneBit);
        s.training.gradCompressionWarmup = 0;
        const double compressed = dpBytes(predictStep(s, test::calibration()));
        const double full = dpBytes(predictStep(twoLinears(16, GradCompression::None), test::calibration()));
        s.training.gradCompressionWarmup = 0.25;
        const double mixed = dpBytes(predictStep(s, test::calibration()));
        QVERIFY(std::fabs(mixed - (0.25 * full + 0.75 * compressed)) < 1e-6 * full);
    }

    // Where the data-parallel sync is exposed, every method shortens it and the step.
    void exposedDataParallelTimeFalls()
    {
        const Scenario base = slowNetwork();
        const StepReport plain = predictStep(base, test::calibration());
        const double exposed = plain.breakdown.exposedComm[int(CommGroup::DP)];
        QVERIFY2(exposed > 0.2 * plain.stepTime, "the scenario is bound by its DP sync");
        for (GradCompression m : { GradCompression::PowerSgd, GradCompression::OneBit, GradCompression::Fp8 }) {
            Scenario s = base;
            s.training.gradCompression = m;
            QVERIFY(!checkScenario(s));
            const StepReport r = predictStep(s, test::calibration());
            const char* name = gradCompressionName(m).data();
            QVERIFY2(r.breakdown.exposedComm[int(CommGroup::DP)] < 0.5 * exposed, name);
            QVERIFY2(r.stepTime < plain.stepTime, name);
        }
        // int8's all-gather grows with the group: at 256 GPUs it sends more than the ring.
        Scenario s = base;
        s.training.gradCompression = GradCompression::Int8;
        QVERIFY(dpBytes(predictStep(s, test::calibration())) > dpBytes(plain));
    }

    // Error feedback: PowerSGD one gradient copy, 1-bit fp32 worker and server errors.
    void errorFeedbackMemory()
    {
        const double n = kElements + kVectors;
        const StepReport none = predictStep(twoLinears(16, GradCompression::None), test::calibration());
        const StepReport psgd = predictStep(twoLinears(16, GradCompression::PowerSgd), test::calibration());
        const StepReport onebit = predictStep(twoLinears(16, GradCompression::OneBit), test::calibration());
        QCOMPARE(none.memory.compression, 0.0);
        QCOMPARE(psgd.memory.compression, n * 4);
        QCOMPARE(onebit.memory.compression, n * 4 * (1 + 1.0 / 16));
        QVERIFY(psgd.memory.total > none.memory.total);
    }

    // The calibration's token factor reaches the run's tokens, steps and time.
    void tokenCostApplied()
    {
        Scenario s = test::preset("llama2-7b-8xa100");
        s.training.gradCompression = GradCompression::Fp8;
        const Calibration& shipped = test::calibration();
        // The published cost of each method is none extra (the calibration's sources).
        QCOMPARE(compressionTokenFactor(s, shipped), 1.0);
        Calibration c = shipped;
        c.convergence.compression[int(GradCompression::Fp8)].tokenFactor = 1.25;
        QCOMPARE(trainingTokens(s, c), 1.25 * s.training.tokens);
        const Report a = predictRun(s, shipped), b = predictRun(s, c);
        QVERIFY(std::fabs(b.steps / a.steps - 1.25) < 1e-12);
        QVERIFY(std::fabs(b.timeToTrain / a.timeToTrain - 1.25) < 1e-12);
        // A loss target too.
        s.training.target = TrainingTarget::Loss;
        s.training.targetLoss = 2.3;
        QVERIFY(std::fabs(trainingTokens(s, c) / trainingTokens(s, shipped) - 1.25) < 1e-12);
        // A calibration without the method's figure cannot price the run, and says which field.
        c.convergence.compression[int(GradCompression::Fp8)].known = false;
        QVERIFY(std::isnan(trainingTokens(s, c)));
        const auto why = compressionCostIssue(s, c);
        QVERIFY(why && why->find("grad_compression.fp8") != std::string::npos);
    }

    void refusedCombinations_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("zero");
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<bool>("refused");
        QTest::newRow("powersgd under ZeRO 1") << int(GradCompression::PowerSgd) << 1 << int(Optimizer::Adam) << true;
        QTest::newRow("powersgd, DDP") << int(GradCompression::PowerSgd) << 0 << int(Optimizer::Adam) << false;
        QTest::newRow("onebit with SGD") << int(GradCompression::OneBit) << 0 << int(Optimizer::Sgd) << true;
        QTest::newRow("onebit under ZeRO 3") << int(GradCompression::OneBit) << 3 << int(Optimizer::Adam) << true;
        QTest::newRow("onebit with Adam") << int(GradCompression::OneBit) << 0 << int(Optimizer::Adam) << false;
        QTest::newRow("int8 under ZeRO 2") << int(GradCompression::Int8) << 2 << int(Optimizer::Adam) << true;
        QTest::newRow("fp8 under ZeRO 3") << int(GradCompression::Fp8) << 3 << int(Optimizer::Adam) << false;
    }
    void refusedCombinations()
    {
        QFETCH(int, method);
        QFETCH(int, zero);
        QFETCH(int, optimizer);
        QFETCH(bool, refused);
        Scenario s = test::preset("llama2-7b-8xa100");
        s.plan.zeroStage = zero;
        s.training.optimizer = Optimizer(optimizer);
        s.training.gradCompression = GradCompression(method);
        const std::optional<PlanIssue> issue = checkPlan(s);
        QCOMPARE(issue.has_value(), refused);
        QCOMPARE(firstViolation(s) == PlanRule::GradCompression, refused);
        if (refused) {
            QCOMPARE(issue->field, std::string("training.grad_compression"));
            QVERIFY(issue->reason.find(zero > 0 ? "parallel.zero" : "training.optimizer") != std::string::npos);
        } else {
            QVERIFY(!badQuantity(predictRun(s, test::calibration())));
        }
    }

    // The loader names the field, file and line of a refused combination.
    void loaderRefusesWithTheField()
    {
        bool threw = false;
        try {
            test::preset("llama2-7b-8xa100", { parseOverride("training.grad_compression=powersgd") });
        } catch (const InputError& e) {
            threw = true;
            QVERIFY2(std::string(e.what()).find("training.grad_compression") != std::string::npos, e.what());
        }
        QVERIFY2(threw, "powersgd under the preset's ZeRO 3 is refused");
    }

    // The advisor suggests compression where exposed DP communication is at least a tenth
    // of the step, and not on a compute-bound run.
    void advisorSuggestsCompressionWhenDpIsExposed()
    {
        auto compressionSuggestions = [](const Advice& a) {
            int n = 0;
            for (const Suggestion& sg : a.suggestions)
                for (const auto& [path, value] : sg.sets)
                    n += path == "training.grad_compression";
            return n;
        };
        const Scenario slow = slowNetwork();
        const Advice a = advise(slow, test::calibration());
        QVERIFY(compressionSuggestions(a) >= 2); // fp8 and PowerSGD at least (ZeRO 0, Adam: 1-bit too)
        for (const Suggestion& sg : a.suggestions)
            if (sg.sets.size() == 1 && sg.sets[0].first == "training.grad_compression")
                QVERIFY(sg.gain > 0);
        // One 8-GPU node on NVLink: the gradient sync hides under backward.
        const Scenario fast = test::preset("llama2-7b-8xa100");
        const Report r = predictRun(fast, test::calibration());
        QVERIFY(r.step.breakdown.exposedComm[int(CommGroup::DP)] < 0.1 * r.step.stepTime);
        QCOMPARE(compressionSuggestions(advise(fast, test::calibration())), 0);
    }

    // PowerSGD's published speed-up (Vogels et al. 2019, Table 6: ResNet-18 on CIFAR-10, 16
    // workers, SGD 312 ms a batch, rank-2 PowerSGD 239 ms) from the two rows of
    // tests/validation/compression-runs.yaml, predicted within 20%.
    void powerSgdSpeedUpOfThePaper()
    {
        const std::vector<RunRecord> rows = loadPublishedRuns(test::dataPath("tests/validation/compression-runs.yaml"));
        QCOMPARE(int(rows.size()), 2);
        double step[2] = {};
        for (int i = 0; i < 2; ++i) {
            auto built = scenarioFromRun(rows[i], test::catalog(), test::calibration());
            if (auto* skipped = std::get_if<SkippedRun>(&built))
                QFAIL(qPrintable(QString::fromStdString(rows[i].id + ": " + skipped->reason)));
            const Scenario& s = std::get<Scenario>(built);
            QCOMPARE(s.training.gradCompression, i == 0 ? GradCompression::None : GradCompression::PowerSgd);
            QCOMPARE(s.plan.dp, 16);
            const StepReport r = predictStep(s, test::calibration());
            step[i] = r.stepTime;
            qInfo("%s: predicted %.1f ms a batch (published %.0f ms)", rows[i].id.c_str(), 1e3 * r.stepTime,
                1e3 * 2048 / *rows[i].derivedSamplesPerS);
        }
        QCOMPARE(std::get<Scenario>(scenarioFromRun(rows[1], test::catalog(), test::calibration())).training.gradCompressionRank, 2);
        const double published = 312.0 / 239.0;
        const double predicted = step[0] / step[1];
        qInfo("speed-up: predicted %.3f, published %.3f (%+.1f%%)", predicted, published, 100 * (predicted / published - 1));
        QVERIFY2(std::fabs(predicted / published - 1) <= 0.20, qPrintable(QString::number(predicted)));
    }

    // `none` (the default) leaves every preset's step as the hand formula of the plain sync
    // has it: no compression time, no error-feedback memory; and compression without
    // data parallelism changes nothing at all.
    void noneChangesNothing()
    {
        for (const char* name : { "llama2-7b-8xa100", "gpt3-175b-a100", "resnet50-mlperf", "mixtral-8x7b-h100" }) {
            const Scenario s = test::preset(name);
            QCOMPARE(s.training.gradCompression, GradCompression::None);
            const StepReport r = predictStep(s, test::calibration());
            QCOMPARE(r.breakdown.compression, 0.0);
            QCOMPARE(r.memory.compression, 0.0);
        }
        Scenario one = twoLinears(1, GradCompression::None);
        one.cluster.gpus = 1;
        const StepReport plain = predictStep(one, test::calibration());
        one.training.gradCompression = GradCompression::PowerSgd;
        const StepReport psgd = predictStep(one, test::calibration());
        QCOMPARE(psgd.stepTime, plain.stepTime);
        QCOMPARE(dpBytes(psgd), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCompression)
#include "tst_compression.moc"
