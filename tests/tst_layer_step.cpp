// Issue 26: scenarios on layer tables. The step's physics per layer type (convolutions
// against their implicit-GEMM roofline, streaming layers, AlexNet's column split over
// TP, data-parallel buckets, fused epilogues, the input pipeline), memory, the plan
// rules, the loader's errors, and the AlexNet preset against the paper's five to six days.
#include "simcore/input_error.h"
#include "simcore/layers/families.h"
#include "simcore/layers/layer_step.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/plan_check.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QTemporaryDir>
#include <algorithm>
#include <QtTest>

#include <fstream>

using namespace dtsim;

namespace {

constexpr double kDay = 86400;

HardwareSpec gpuById(const std::string& id)
{
    for (const HardwareSpec& h : test::catalog())
        if (h.id == id)
            return h;
    throw std::runtime_error("no GPU " + id);
}

// One layer (or a few) on one A100, so each term can be worked by hand.
Scenario tableScenario(LayerTable t, int batch, Precision p = Precision::BF16)
{
    Scenario s = test::preset("llama2-7b-8xa100");
    s.model = ModelSpec {};
    s.model.table.ref = "test";
    s.model.table.resolved = resolveLayerTable(std::move(t));
    s.training.seqLen = 1;
    s.training.globalBatch = s.training.microBatch = batch;
    s.training.tokens = 1000.0 * batch;
    s.training.precision = p;
    s.training.optimizer = Optimizer::Sgd;
    s.training.fusedKernels = false;
    s.training.graphCapture = true; // no host launch bound: the GPU's time alone
    s.cluster.gpus = 1;
    s.plan = ParallelPlan {};
    return s;
}

LayerTable oneConvolution(long long channels, long long out, long long kernel, long long size)
{
    LayerTable t;
    t.name = t.source = "test";
    t.input = { channels, size, size };
    Layer c;
    c.name = "c";
    c.type = LayerType::Convolution;
    c.outChannels = out;
    c.kernel = kernel;
    c.padding = kernel / 2;
    c.bias = false;
    c.split = LayerSplit::Channels;
    t.layers.push_back(c);
    return t;
}

Scenario loadText(const std::string& text, const std::string& origin = "t.yaml")
{
    return loadScenarioText(text, origin, test::catalog(), {}, test::topologies());
}

const char* kTableScenario = R"(version: 1
model: {table: resnet-50}
training: {global_batch: 256, micro_batch: 256, samples: 1.28M, precision: bf16, optimizer: sgd}
hardware: {gpu: a100-80gb}
cluster: {gpus: 1}
parallel: {tp: 1, dp: 1}
)";

} // namespace

class TestLayerStep : public QObject {
    Q_OBJECT
private slots:
    // A large convolution is compute-bound: its time is its FLOPs at the GEMM shape
    // efficiency of its implicit GEMM (M = batch x pixels, N = out channels, K = in x
    // kernel area) times the generation's convolution fraction, plus one kernel's cost;
    // backward is twice that (data and weight gradients) unless it reads the samples.
    void convolutionIsItsImplicitGemm()
    {
        LayerTable t = oneConvolution(256, 256, 3, 28);
        Layer first = t.layers[0];
        first.name = "first";
        t.layers.insert(t.layers.begin(), first);
        const Scenario s = tableScenario(t, 64);
        const Calibration& c = test::calibration();
        const StepReport r = predictStep(s, c);
        const GenerationCalibration& g = c.forGeneration("ampere");
        const double m = 64.0 * 28 * 28, n = 256, k = 256.0 * 9;
        const double one = 2 * m * n * k / (s.hardware.peak(Precision::BF16) * gemmEfficiency(g, m, n, k) * g.convolutionFraction)
            + c.kernelOverhead;
        QVERIFY(std::fabs(r.breakdown.forward / (2 * one) - 1) < 1e-9);
        // The first layer reads the samples: no data gradient. The second has both.
        QVERIFY(std::fabs(r.breakdown.backward / (3 * one) - 1) < 1e-9);
        QCOMPARE(r.modelFlopsPerStep, 3.0 * 2 * (2 * m * n * k)); // two bias-free layers, three passes
    }

    // FP32 on CUDA cores needs smaller tiles than the 16-bit tensor-core GEMMs the
    // generation's half_dim was fitted to: on a V100, 15.7 TFLOP/s x 4 B against
    // 125 x 2 gives a quarter of it; TF32 on an A100 (156 x 4 = 312 x 2) keeps it whole.
    void fp32TilesScaleWithOperandTraffic()
    {
        const Calibration& c = test::calibration();
        const double m = 64.0 * 56 * 56, n = 64, k = 64.0 * 9;
        auto forward = [&](const char* gpu, Precision p) {
            Scenario s = tableScenario(oneConvolution(64, 64, 3, 56), 64, p);
            s.hardware = gpuById(gpu);
            s.training.masterWeightsFp32 = false;
            return predictStep(s, c).breakdown.forward - c.kernelOverhead;
        };
        const HardwareSpec v100 = gpuById("v100");
        const GenerationCalibration& volta = c.forGeneration("volta");
        const double scale = v100.peak(Precision::FP32) * 4 / (v100.peak(Precision::FP16) * 2);
        QVERIFY(std::fabs(scale - 15.7 / 62.5) < 1e-3);
        const double expected = 2 * m * n * k / (v100.peak(Precision::FP32) * gemmEfficiency(volta, m, n, k, scale) * volta.convolutionFraction);
        QVERIFY(std::fabs(forward("v100", Precision::FP32) / expected - 1) < 1e-9);
        // Smaller tiles lose less on 64-channel layers: faster than at the whole half_dim.
        QVERIFY(gemmEfficiency(volta, m, n, k, scale) > 1.5 * gemmEfficiency(volta, m, n, k));
        const HardwareSpec a100 = gpuById("a100-80gb");
        const GenerationCalibration& ampere = c.forGeneration("ampere");
        const double tf32 = 2 * m * n * k / (a100.peak(Precision::TF32) * gemmEfficiency(ampere, m, n, k) * ampere.convolutionFraction);
        QVERIFY(std::fabs(forward("a100-80gb", Precision::TF32) / tf32 - 1) < 1e-9);
    }

    // dtsim-cli layers: the per-layer rows add up to the step's forward and backward, and
    // name what bounds each layer.
    void profileAddsUpToTheStep()
    {
        Scenario s = test::preset("resnet50-mlperf");
        const Calibration& c = test::calibration();
        const StepReport step = predictStep(s, c);
        double forward = 0, backward = 0;
        int fused = 0;
        const std::vector<LayerTiming> rows = layerTableProfile(s, c);
        QCOMPARE(rows.size(), s.model.table.resolved->table.layers.size());
        for (const LayerTiming& l : rows) {
            forward += l.forward;
            backward += l.backward;
            fused += l.bound == LayerBound::Fused;
        }
        QVERIFY(std::fabs(forward * step.microbatches / step.breakdown.forward - 1) < 1e-12);
        QVERIFY(std::fabs(backward * step.microbatches / step.breakdown.backward - 1) < 1e-12);
        QCOMPARE(fused, 49); // convolution fusion: every ReLU after a batch norm
        QCOMPARE(rows.front().bound, LayerBound::Compute);
    }

    // Streaming layers cost the passes their kernels make over the activation
    // (layer_step.cpp, memoryPasses): eager batch norm 3 forward and 5 backward, ReLU 2 and
    // 3, a residual add 3 and 3; fused elementwise chains fold the ReLU and the add into the
    // norm's pass; convolution fusion folds the norm and ReLU into the convolutions and
    // leaves the norm's backward and the block's add.
    void streamingLayersAndFusion()
    {
        LayerTable t = oneConvolution(64, 64, 1, 56);
        for (const char* n : { "bn", "relu" }) {
            Layer l;
            l.name = n;
            l.type = n[0] == 'b' ? LayerType::Norm : LayerType::Elementwise;
            t.layers.push_back(l);
        }
        Layer add;
        add.name = "add";
        add.type = LayerType::Elementwise;
        add.residual = "c";
        t.layers.push_back(add);
        Scenario s = tableScenario(t, 32);
        s.training.fusedKernels = false;
        const Calibration& c = test::calibration();
        const StepReport whole = predictStep(s, c);
        LayerTable convOnly = oneConvolution(64, 64, 1, 56);
        const StepReport conv = predictStep(tableScenario(convOnly, 32), c);
        const double tensor = 64.0 * 56 * 56 * 32 * 2; // bytes of one bf16 activation
        const double rate = s.hardware.memoryBandwidth * c.forGeneration("ampere").memoryFraction;
        const double k = c.kernelOverhead;
        // A fused ReLU moves no bytes of its own, but its arithmetic (one FLOP an element)
        // still runs on the vector units, at most at the FP32 peak.
        const double reluArithmetic = 64.0 * 56 * 56 * 32 / s.hardware.peak(Precision::FP32);
        auto added = [&](const StepReport& r, double forwardPasses, double backwardPasses, int forwardKernels, int backwardKernels,
                         double arithmetic = 0, double backwardArithmetic = 0) {
            return std::fabs((r.breakdown.forward - conv.breakdown.forward) - (forwardPasses * tensor / rate + forwardKernels * k + arithmetic)) < 1e-9
                && std::fabs((r.breakdown.backward - conv.breakdown.backward) - (backwardPasses * tensor / rate + backwardKernels * k + backwardArithmetic)) < 1e-9;
        };
        QVERIFY(added(whole, 3 + 2 + 3, 5 + 3 + 3, 3, 3));
        s.training.fusedKernels = true;
        QVERIFY(added(predictStep(s, c), 3 + 0 + 1, 5 + 1 + 1, 1, 1, reluArithmetic));
        s.training.convolutionFusion = true;
        // Under convolution fusion the norm and the ReLU ride in the convolutions: their
        // arithmetic is all that is left of them forward.
        QVERIFY(added(predictStep(s, c), 0 + 0 + 3, 3 + 0 + 1, 1, 1, 5 * 64.0 * 56 * 56 * 32 / s.hardware.peak(Precision::FP32) + reluArithmetic,
            2 * reluArithmetic));
        // Activations: the convolution keeps its input, the norm its input; ReLU and the
        // add work in place.
        QCOMPARE(whole.memory.activations, 2 * tensor);
    }

    // Attention runs at the generation's fused-attention rate, scaled by its head width
    // (and sequence length) as a transformer's does; backward recomputes the scores.
    void attentionAtTheFusedKernelsRate()
    {
        LayerTable t = oneConvolution(64, 3 * 256, 1, 14);
        Layer a;
        a.name = "attention";
        a.type = LayerType::Attention;
        a.heads = 4;
        t.layers.push_back(a);
        Scenario s = tableScenario(t, 32);
        s.training.attention = AttentionKernel::Flash2;
        const Calibration& c = test::calibration();
        const StepReport withAttention = predictStep(s, c);
        const StepReport convOnly = predictStep(tableScenario(oneConvolution(64, 3 * 256, 1, 14), 32), c);
        const double flops = 4.0 * 196 * 196 * 256 * 32;
        const double headShape = 64.0 / (64.0 + c.attentionHalfHeadDim);
        const double halfSeq = c.attentionHalfSeqFor(c.forGeneration("ampere"));
        const double lengthShape = halfSeq > 0 ? 196.0 / (196.0 + halfSeq) : 1.0;
        const double rate = s.hardware.peak(Precision::BF16) * c.forGeneration("ampere").attentionFraction * headShape * lengthShape;
        const double forward = withAttention.breakdown.forward - convOnly.breakdown.forward;
        QVERIFY(std::fabs(forward - (flops / rate + c.kernelOverhead)) < 1e-12);
        const double backward = withAttention.breakdown.backward - convOnly.breakdown.backward;
        QVERIFY(std::fabs(backward - (c.attentionBackwardFactor * flops / rate + c.kernelOverhead)) < 1e-9);
    }

    // DLRM's tables are sharded across every GPU: each holds 1/n of them, their rows are
    // updated in place (no all-reduce, no optimizer pass over 24 billion parameters), and
    // an all-to-all each way hands every GPU its samples' pooled vectors.
    void shardedEmbeddingTables()
    {
        const Scenario s = test::preset("dlrm-mlperf-dgxa100");
        const Calibration& c = test::calibration();
        const StepReport r = predictStep(s, c);
        const double tableParams = 187767399.0 * 128;
        const MemoryReport m = layerTableMemory(s, c);
        QVERIFY(m.weights > tableParams / 8 * 4 && m.weights < tableParams / 8 * 4 * 1.01);
        QVERIFY(m.gradients < 0.1e9); // only the MLPs' dense gradients
        const CommReport& tables = r.comm[int(CommGroup::EP)];
        QCOMPARE(tables.groupSize, 8);
        // 26 pooled 128-wide fp16 vectors a sample, 6,912 samples a GPU, 7/8 of them leave it, both ways.
        QVERIFY(std::fabs(tables.bytesPerGpu / (2 * 26 * 128 * 2.0 * 6912 * 7 / 8) - 1) < 1e-9);
        QVERIFY(r.comm[int(CommGroup::DP)].bytesPerGpu < 0.05e9); // the MLPs only (2.7 M parameters)
        QVERIFY(r.breakdown.optimizer < 1e-3);
        // The dot interaction of 27 vectors of 128 is batched over the 6,912 samples: it
        // streams the vectors and its 479 outputs (its FLOPs, padded to 32 x 32 x 128
        // tensor-core fragments, take less), forward in one kernel.
        const std::vector<LayerTiming> rows = layerTableProfile(s, c);
        const auto interaction = std::find_if(rows.begin(), rows.end(), [](const LayerTiming& l) { return l.type == LayerType::Interaction; });
        QVERIFY(interaction != rows.end());
        const double bytes = (27.0 * 128 + 128 + 351) * 6912 * 2;
        const double rate = s.hardware.memoryBandwidth * c.forGeneration("ampere").memoryFraction;
        QVERIFY(std::fabs(interaction->forward - (bytes / rate + c.kernelOverhead)) < 1e-9);
        QCOMPARE(interaction->bound, LayerBound::Memory);
    }

    // AlexNet's columns: with tp = 2 each GPU computes half of every layer; grouped
    // convolutions whose groups line up with the GPUs exchange nothing; conv3 and the
    // fully connected layers gather their input (and reduce-scatter its gradient).
    void alexNetColumns()
    {
        const Scenario s = test::preset("alexnet-2012-gtx580");
        const Calibration& c = test::calibration();
        const StepReport two = predictStep(s, c);
        Scenario one = s;
        one.plan.tp = 1;
        one.cluster.gpus = 1;
        const StepReport single = predictStep(one, c);
        QVERIFY(two.breakdown.forward < 0.6 * single.breakdown.forward);
        QVERIFY(two.breakdown.forward > 0.45 * single.breakdown.forward);
        const CommReport& tp = two.comm[int(CommGroup::TP)];
        QVERIFY(tp.totalSeconds > 0);
        // Gathered inputs, each way: pool2 (256x13x13), pool5 (256x6x6), fc6 and fc7 (4096 each), of 128 images in fp32.
        const double gathered = 128.0 * 4 * (256 * 13 * 13 + 256 * 6 * 6 + 4096 + 4096);
        QVERIFY(std::fabs(tp.bytesPerGpu / (2 * 0.5 * gathered) - 1) < 1e-9); // half of each tensor crosses, forward and back
        QCOMPARE(single.comm[int(CommGroup::TP)].totalSeconds, 0.0);
        // Half the weights on each GPU (every weighted layer is split).
        QVERIFY(std::fabs(two.memory.weights / single.memory.weights - 0.5) < 1e-9);
    }

    // The preset reproduces the paper: "between five and six days" (Sec. 1); the issue
    // asks for 30% of that.
    void alexNetPresetTrainsInFiveToSixDays()
    {
        const Report r = predictRun(test::preset("alexnet-2012-gtx580"), test::calibration());
        QVERIFY2(r.timeToTrain > 0.7 * 5 * kDay && r.timeToTrain < 1.3 * 6 * kDay, qPrintable(QString::number(r.timeToTrain / kDay)));
        QVERIFY(r.step.memory.fits);
        QCOMPARE(r.steps, 108e6 / 128);
    }

    // The DiT preset: the paper's 7 M steps at about 5.7 steps/s (14.2 days); its header
    // says why dtsim is faster (it runs the denoiser only, ...).
    void ditPresetFasterThanItsPaper()
    {
        const Report r = predictRun(test::preset("dit-xl2-tpuv3"), test::calibration());
        const double paper = 7e6 / 5.7;
        QVERIFY2(r.timeToTrain > 0.25 * paper && r.timeToTrain < paper, qPrintable(QString::number(r.timeToTrain / kDay)));
        QVERIFY(r.step.memory.fits);
        QCOMPARE(r.steps, 7e6);
    }

    // The MLPerf preset against its log: 28.41 minutes (the issue asks for 15%).
    void resnetMlperfPresetNearItsLog()
    {
        const Report r = predictRun(test::preset("resnet50-mlperf"), test::calibration());
        const double logged = 28.41 * 60;
        QVERIFY2(std::fabs(r.timeToTrain / logged - 1) < 0.15, qPrintable(QString::number(r.timeToTrain / 60)));
    }

    // Data parallelism: an all-reduce of the gradients in buckets; all but the last hide
    // behind backward, so a small model on a slow network shows the reduction.
    void dataParallelBuckets()
    {
        Scenario s = loadText(kTableScenario);
        const Calibration& c = test::calibration();
        s.cluster.gpus = 16;
        s.plan.dp = 16;
        s.training.globalBatch = 16 * 256;
        const StepReport fast = predictStep(s, c);
        const CommReport& dp = fast.comm[int(CommGroup::DP)];
        QVERIFY(dp.totalSeconds > 0);
        const double grads = 25557032.0 * 4; // fp32 gradients of bf16 training
        const double lastBucket = c.layerTableBucketBytes / grads;
        QVERIFY(dp.exposedSeconds >= lastBucket * dp.totalSeconds - 1e-12);
        s.plan.overlapGradReduce = false;
        QCOMPARE(predictStep(s, c).comm[int(CommGroup::DP)].exposedSeconds, dp.totalSeconds);
    }

    // The host's input pipeline bounds the step only when it is slower than the GPUs.
    void inputPipelineBound()
    {
        Scenario s = loadText(kTableScenario);
        const Calibration& c = test::calibration();
        const double gpuStep = predictStep(s, c).stepTime;
        s.training.loaderCoresPerGpu = 8;
        s.training.loaderSamplesPerCore = 1000; // 8,000 images/s: faster than the GPU
        QCOMPARE(predictStep(s, c).stepTime, gpuStep);
        s.training.loaderSamplesPerCore = 50; // 400 images/s
        const StepReport slow = predictStep(s, c);
        QVERIFY(std::fabs(slow.stepTime - 256.0 / 400) < 1e-12);
        QVERIFY(slow.breakdown.inputStall > 0);
    }

    void optimizerStatesAndSharding()
    {
        Scenario s = loadText(kTableScenario);
        const Calibration& c = test::calibration();
        const double params = 25557032;
        QCOMPARE(layerTableMemory(s, c).optimizer, params * (4 + 4)); // momentum + fp32 master
        s.training.optimizer = Optimizer::Adam;
        QCOMPARE(layerTableMemory(s, c).optimizer, params * (8 + 4));
        s.cluster.gpus = 4;
        s.plan.dp = 4;
        s.training.globalBatch = 1024;
        s.plan.zeroStage = 1;
        QCOMPARE(layerTableMemory(s, c).optimizer, params / 4 * (8 + 4));
    }

    void planRules()
    {
        Scenario s = loadText(kTableScenario);
        QCOMPARE(firstViolation(s), PlanRule::Ok);
        s.plan.pp = 2;
        s.cluster.gpus = 2;
        QCOMPARE(firstViolation(s), PlanRule::TableParallel);
        QCOMPARE(QString::fromStdString(checkPlan(s)->field), QString("parallel.pp"));
        s.plan.pp = 1;
        s.plan.tp = 3; // ResNet's 64-channel stem does not split three ways
        s.cluster.gpus = 3;
        QCOMPARE(firstViolation(s), PlanRule::TableTp);
        QVERIFY(checkPlan(s)->reason.find("conv1") != std::string::npos);
        s.plan.tp = 1;
        s.cluster.gpus = 1;
        s.plan.zeroStage = 3;
        QCOMPARE(firstViolation(s), PlanRule::TableZero);
    }

    // Bad input: the transformer fields are refused on a table, an unknown table is named,
    // a table file's own errors name that file; the writer round-trips a table scenario.
    void loaderErrorsAndRoundTrip()
    {
        auto refused = [](const std::string& text, const char* field, int line) {
            try {
                loadText(text);
                return QString("accepted");
            } catch (const InputError& e) {
                if (e.field() != field || e.line() != line)
                    return QString::fromStdString(e.field() + " line " + std::to_string(e.line()) + ": " + e.what());
            }
            return QString();
        };
        std::string text = kTableScenario;
        QCOMPARE(refused(std::string(text).replace(text.find("{table: resnet-50}"), 18, "{table: resnet-50, hidden: 64}"), "model.hidden", 2),
            QString());
        QCOMPARE(refused(std::string(text).replace(text.find("resnet-50"), 9, "resnet-49"), "model.table", 2), QString());
        QCOMPARE(refused(std::string(text).replace(text.find("samples: 1.28M"), 14, "tokens: 1.28M"), "training.tokens", 3), QString());

        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        std::ofstream(folder + "/net.yaml") << "version: 1\nname: n\nsource: test\ninput: {channels: 3, height: 8, width: 8}\nlayers:\n"
                                               "  - {name: a, type: convolution, out_channels: 4, kernel: 9}\n";
        std::string withFile = std::string(text).replace(text.find("resnet-50"), 9, "net.yaml");
        try {
            loadScenarioText(withFile, folder + "/s.yaml", test::catalog(), {}, test::topologies());
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.where()), QString::fromStdString(folder + "/net.yaml"));
            QCOMPARE(e.line(), 6);
        }
        const Scenario s = loadText(kTableScenario);
        QCOMPARE(s.model.table.resolved->table.layers.size(), builtinLayerTable("resnet-50")->layers.size());
        const std::string yaml = scenarioToYaml(s);
        QVERIFY(yaml.find("hidden") == std::string::npos && yaml.find("seq_len") == std::string::npos);
        QVERIFY(loadText(yaml) == s);
    }
};

QTEST_GUILESS_MAIN(TestLayerStep)
#include "tst_layer_step.moc"
