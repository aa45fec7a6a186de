// How kernels execute: what each recomputation policy reruns, the host that issues the
// kernels, attention efficiency against sequence length, and the output layer under FP8.
#include "simcore/loader/scenario_writer.h"
#include "simcore/memory.h"
#include "simcore/step.h"
#include "simcore/step_layer.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

StepReport step(const Scenario& s, const Calibration& c = test::calibration())
{
    return predictStep(s, c);
}

// Llama 2 7B on 8 A100s, FSDP, micro-batch 2 x 4k tokens.
Scenario llama7b(std::vector<Override> extra = {})
{
    return test::preset("llama2-7b-8xa100", extra);
}

} // namespace

class TestExecution : public QObject {
    Q_OBJECT
private slots:
    // torchtitan's per-op checkpointing saves every second matmul and reruns what the
    // backward needs of the rest (wk, w3) and the elementwise ops: more than Megatron's
    // selective (free with fused attention), less than rerunning the whole forward.
    // Eager replay also reruns wo, whose output only feeds the residual add.
    void perOpRerunsWhatBackwardNeeds()
    {
        const StepReport none = step(llama7b({ { "parallel.recompute", "none" } }));
        const StepReport perOp = step(llama7b({ { "parallel.recompute", "per-op" } }));
        const StepReport full = step(llama7b({ { "parallel.recompute", "full" } }));
        QVERIFY(llama7b().training.fusedKernels);
        QCOMPARE(none.breakdown.recompute, 0.0);
        QVERIFY(perOp.breakdown.recompute > 0.2 * perOp.breakdown.forward);
        QVERIFY(perOp.breakdown.recompute < 0.6 * full.breakdown.recompute);
        QVERIFY(perOp.stepTime > none.stepTime && perOp.stepTime < full.stepTime);
        // Hardware FLOPs count the rerun matmuls: 2 h (kv + ffn) per token a layer.
        const ModelSpec& m = llama7b().model;
        const double tokens = llama7b().training.tokensPerStep();
        const double rerun = 2.0 * m.hidden * m.layers * double(m.kvDim() + m.ffnHidden);
        QVERIFY(std::abs(perOp.hardwareFlopsPerStep - perOp.modelFlopsPerStep - rerun * tokens) < 1e-9 * perOp.modelFlopsPerStep);

        Scenario eager = llama7b({ { "parallel.recompute", "per-op" } });
        eager.training.fusedKernels = false;
        const StepReport replay = step(eager);
        const double withWo = rerun + 2.0 * m.hidden * m.layers * double(m.queryDim());
        QVERIFY(std::abs(replay.hardwareFlopsPerStep - replay.modelFlopsPerStep - withWo * tokens) < 1e-9 * replay.modelFlopsPerStep);
        QVERIFY(replay.breakdown.recompute > perOp.breakdown.recompute);
    }

    // Keeping the attention projections (MaxText's custom remat policy) reruns the
    // attention core and the MLP's gate and up projections, not Q/K/V, the output or the
    // down projection: cheaper than rerunning the forward, dearer than per-op; it keeps
    // Q, K, V and the output projection's output besides each layer's input.
    void keptProjectionsRerunAttentionAndMlpInputs()
    {
        const StepReport perOp = step(llama7b({ { "parallel.recompute", "per-op" } }));
        const StepReport kept = step(llama7b({ { "parallel.recompute", "projections" } }));
        const StepReport full = step(llama7b({ { "parallel.recompute", "full" } }));
        QVERIFY(kept.breakdown.recompute > perOp.breakdown.recompute);
        QVERIFY(kept.breakdown.recompute < 0.9 * full.breakdown.recompute);
        const ModelSpec& m = llama7b().model;
        const Scenario s = llama7b();
        const double tokens = s.training.tokensPerStep();
        const double attention = forwardFlopsPerToken(m, s.training.seqLen).attention;
        const double rerun = attention + 2.0 * m.hidden * m.layers * 2.0 * double(m.ffnHidden);
        QVERIFY(std::abs(kept.hardwareFlopsPerStep - kept.modelFlopsPerStep - rerun * tokens) < 1e-9 * kept.modelFlopsPerStep);

        // Memory per token a layer: input and attention output (h each), Q, K, V, and the
        // log-sum-exp (4 B a head); between full recomputation and none.
        const Scenario keep = llama7b({ { "parallel.recompute", "projections" } });
        const double tokensPerMb = double(s.training.microBatch) * s.training.seqLen;
        const double e = 2.0;
        const double expected = tokensPerMb * (e * (2.0 * m.hidden + m.queryDim() + 2.0 * m.kvDim()) + 4.0 * m.heads);
        QCOMPARE(activationBytesPerLayer(keep, false, Recompute::Projections), expected);
        QVERIFY(expected > activationBytesPerLayer(keep, false, Recompute::Full));
        QVERIFY(expected < activationBytesPerLayer(keep, false, Recompute::None));
    }

    // FP8 linears call _scaled_mm, which per-op checkpointing does not save: every
    // linear the backward needs reruns (wq, wk, wv, w1, w3), not every second one.
    void perOpUnderFp8RerunsTheNeededLinears()
    {
        auto h100 = [](const char* precision) {
            return test::preset("llama2-7b-8xa100",
                { { "hardware.gpu", "h100-sxm" }, { "training.precision", precision }, { "parallel.recompute", "per-op" } });
        };
        const StepReport bf16 = step(h100("bf16"));
        const StepReport fp8 = step(h100("fp8"));
        QVERIFY(fp8.breakdown.recompute / fp8.breakdown.forward > bf16.breakdown.recompute / bf16.breakdown.forward);
        QVERIFY(fp8.hardwareFlopsPerStep - fp8.modelFlopsPerStep > bf16.hardwareFlopsPerStep - bf16.modelFlopsPerStep);
        const ModelSpec& m = h100("fp8").model;
        const double tokens = h100("fp8").training.tokensPerStep();
        const double rerun = 2.0 * m.hidden * m.layers * double(m.queryDim() + 2 * m.kvDim() + 2 * m.ffnHidden);
        QVERIFY(std::abs(fp8.hardwareFlopsPerStep - fp8.modelFlopsPerStep - rerun * tokens) < 1e-9 * fp8.modelFlopsPerStep);
    }

    // Block recomputation of k of a stage's L layers: memory and time in between, and the
    // rerun time proportional to k.
    void blockRecomputationScalesWithLayers()
    {
        const Scenario base = llama7b({ { "parallel.recompute", "full" } });
        const int layers = base.model.layers;
        auto with = [&](int k) {
            Scenario s = base;
            s.plan.recomputeLayers = k;
            return s;
        };
        const StepReport all = step(with(0)), half = step(with(layers / 2)), one = step(with(1));
        QVERIFY(std::abs(half.breakdown.recompute / all.breakdown.recompute - 0.5) < 1e-9);
        QVERIFY(one.breakdown.recompute < half.breakdown.recompute);
        Scenario none = base;
        none.plan.recompute = Recompute::None;
        const double actAll = memoryPerGpu(with(0), test::calibration()).activations;
        const double actHalf = memoryPerGpu(with(layers / 2), test::calibration()).activations;
        const double actNone = memoryPerGpu(none, test::calibration()).activations;
        QVERIFY(actAll < actHalf && actHalf < actNone);
        // Half the layers keep everything: about half of the no-recompute activations.
        QVERIFY(std::abs(actHalf / actNone - 0.5) < 0.1);
    }

    // A layer runs no faster than the host issues its kernels: a tiny model is host-bound
    // unless the step is a captured graph; a large one is not.
    void tinyLayersAreHostBound()
    {
        const std::vector<Override> tiny = { { "model.layers", "4" }, { "model.hidden", "256" }, { "model.heads", "4" },
            { "model.ffn_hidden", "688" }, { "training.seq_len", "256" }, { "training.micro_batch", "1" } };
        auto withGraphs = [&](const char* on) {
            auto o = tiny;
            o.push_back({ "training.graph_capture", on });
            return step(llama7b(o));
        };
        const double eager = withGraphs("false").breakdown.forward, graph = withGraphs("true").breakdown.forward;
        QVERIFY2(eager > 2 * graph, qPrintable(QString("%1 vs %2").arg(eager).arg(graph)));
        const double big = step(llama7b({ { "training.graph_capture", "false" } })).stepTime;
        const double bigGraph = step(llama7b({ { "training.graph_capture", "true" } })).stepTime;
        QVERIFY(std::abs(big / bigGraph - 1) < 1e-3);
        // Epoch's idealized mode has no framework overhead.
        StepOptions ideal;
        ideal.idealized = true;
        QCOMPARE(predictStep(llama7b(tiny), test::calibration(), ideal).stepTime,
            predictStep(llama7b([&] { auto o = tiny; o.push_back({ "training.graph_capture", "true" }); return o; }()),
                test::calibration(), ideal).stepTime);
    }

    // TP overlap in the forward only (PyTorch async TP) exposes the backward's collectives:
    // between no overlap and TE's overlap of both passes.
    void forwardOnlyTpOverlapExposesTheBackward()
    {
        auto tpExposed = [](const char* overlap, const char* backward) {
            const Scenario s = test::preset("gpt3-175b-a100",
                { { "parallel.sequence_parallel", "true" }, { "parallel.tp_comm_overlap", overlap },
                    { "parallel.tp_comm_overlap_backward", backward } });
            return predictStep(s, test::calibration()).breakdown.exposedComm[int(CommGroup::TP)];
        };
        const double none = tpExposed("false", "true"), forward = tpExposed("true", "false"), both = tpExposed("true", "true");
        QVERIFY2(none > forward && forward > both, qPrintable(QString("%1 %2 %3").arg(none).arg(forward).arg(both)));
        // Full recomputation: forward, recompute and backward pass; the backward's third
        // stays fully exposed.
        QVERIFY(std::abs((forward - both) / none - 1.0 / 3.0) < 0.2);
    }

    // FP8 all-gathers under sequence parallelism (torchao's float8 TP): the two
    // all-gathers of a pass move one byte an element, the two reduce-scatters still two,
    // so the TP traffic falls to 3/4; 16-bit runs refuse the flag.
    void fp8TpAllGathersHalveOnlyTheGathers()
    {
        auto tpBytes = [](const char* fp8Gather) {
            const Scenario s = test::preset("gpt3-175b-a100",
                { { "hardware.gpu", "h100-sxm" }, { "training.precision", "fp8" }, { "parallel.sequence_parallel", "true" },
                    { "training.fp8_tp_all_gather", fp8Gather } });
            return predictStep(s, test::calibration()).comm[int(CommGroup::TP)].bytesPerGpu;
        };
        const double bf16Gathers = tpBytes("false"), fp8Gathers = tpBytes("true");
        QVERIFY2(std::abs(fp8Gathers / bf16Gathers - 0.75) < 1e-9, qPrintable(QString::number(fp8Gathers / bf16Gathers)));
        QVERIFY_THROWS_EXCEPTION(InputError, test::preset("gpt3-175b-a100", { { "training.fp8_tp_all_gather", "true" } }));
    }

    // FP8 parameter all-gathers (torchao FSDP float8 all-gather): ZeRO 3 gathers the
    // blocks' linears at one byte a weight; the reduce-scatter of gradients is unchanged.
    void fp8ParamGathersShrinkTheZero3Gathers()
    {
        auto dpBytes = [](const char* fp8Gather) {
            const Scenario s = llama7b({ { "hardware.gpu", "h100-sxm" }, { "training.precision", "fp8" }, { "parallel.zero", "3" },
                { "training.fp8_param_gather", fp8Gather } });
            return predictStep(s, test::calibration()).comm[int(CommGroup::DP)].bytesPerGpu;
        };
        // Per micro-batch: two gathers of 2 B and a reduce-scatter of 4 B (fp32 gradients)
        // a weight; with FP8 linears (~96% of a 7B model's weights) the gathers take ~1 B.
        const double ratio = dpBytes("true") / dpBytes("false");
        QVERIFY2(ratio > (2 * 1.0 + 4) / 8.0 && ratio < (2 * 1.1 + 4) / 8.0, qPrintable(QString::number(ratio)));
    }

    // FSDP prefetches the next layer's gather behind the current layer's backward, which
    // for a checkpointed layer includes its recomputed forward: recomputation widens the
    // window, so on a slow network less of the gathers and reduce-scatters is exposed;
    // recomputing half the layers (block method) widens half the windows.
    void recomputationWidensTheZero3BackwardWindow()
    {
        auto exposedDp = [](const char* recompute, const char* layers) {
            const Scenario s = llama7b({ { "cluster.gpus", "32" }, { "parallel.dp", "32" }, { "training.global_batch", "64" },
                { "cluster.scale_out_bandwidth", "3 GB/s" }, { "parallel.recompute", recompute },
                { "parallel.recompute_layers", layers } });
            return predictStep(s, test::calibration()).breakdown.exposedComm[int(CommGroup::DP)];
        };
        const double none = exposedDp("none", "0"), full = exposedDp("full", "0"), half = exposedDp("full", "16");
        QVERIFY2(none > 0 && full < 0.8 * none, qPrintable(QString("%1 %2").arg(none).arg(full)));
        QVERIFY2(half > full && half < none, qPrintable(QString("%1 %2 %3").arg(none).arg(half).arg(full)));
    }

    // torchao's rowwise FP8 gains nothing on GEMMs narrower than its auto-filter's
    // thresholds (N <= 2048, K <= 1024, or N <= 4096 and K <= 2048): they run at the
    // 16-bit rate and still pay their casts, so a model made only of such linears runs
    // slower in rowwise FP8 than in BF16, while tensorwise FP8 still gains.
    void rowwiseGainsNothingOnNarrowGemms()
    {
        auto forward = [](const char* precision, const char* scaling) {
            std::vector<Override> o { { "hardware.gpu", "h100-sxm" }, { "model.hidden", "1024" }, { "model.heads", "8" },
                { "model.ffn_hidden", "2048" }, { "training.precision", precision } };
            if (scaling)
                o.push_back({ "training.scaling", scaling });
            return predictStep(llama7b(o), test::calibration()).breakdown.forward;
        };
        const double bf16 = forward("bf16", nullptr);
        QVERIFY(forward("fp8", "rowwise") > bf16);
        QVERIFY(forward("fp8", "tensorwise") < bf16);
        // Without the limit the same rowwise layers would gain.
        Calibration plain = test::calibration();
        RecipeCalibration& rowwise = plain.recipes[scalingRecipeIndex(ScalingRecipe::Rowwise)];
        QVERIFY(rowwise.hasNarrowLimit());
        rowwise.narrowN = rowwise.narrowK = rowwise.narrowBoxN = rowwise.narrowBoxK = 0;
        const Scenario s = llama7b({ { "hardware.gpu", "h100-sxm" }, { "model.hidden", "1024" }, { "model.heads", "8" },
            { "model.ffn_hidden", "2048" }, { "training.precision", "fp8" }, { "training.scaling", "rowwise" } });
        QVERIFY(predictStep(s, plain).breakdown.forward < bf16);
    }

    // Separate Q, K, V (and gate, up) linears run narrower GEMMs than the fused ones, so
    // the same work takes longer, most under wide TP where K and V shrink to 128 columns.
    void separateProjectionsCostMoreThanFusedOnes()
    {
        auto compute = [](const char* fused, const char* tp) {
            const Scenario s = llama7b({ { "training.fused_projections", fused }, { "parallel.tp", tp }, { "parallel.dp", "1" },
                { "cluster.gpus", tp } });
            const StepReport r = predictStep(s, test::calibration());
            return r.breakdown.forward + r.breakdown.backward;
        };
        const double narrow = compute("false", "8") / compute("true", "8"), wide = compute("false", "1") / compute("true", "1");
        QVERIFY2(narrow > wide && wide > 1.0, qPrintable(QString("%1 %2").arg(narrow).arg(wide)));
    }

    // FlashAttention runs closer to its plateau on long sequences: dropping the length
    // term speeds a 1k-token step up more than a 32k-token one.
    void attentionEfficiencyRisesWithLength()
    {
        Calibration flat = test::calibration();
        flat.attentionHalfSeq = 0;
        for (GenerationCalibration& g : flat.generations)
            g.attentionHalfSeq = -1; // the shared (now flat) ramp
        auto gain = [&](const char* seq, const char* micro) {
            const Scenario s = llama7b({ { "training.seq_len", seq }, { "training.micro_batch", micro } });
            return step(s).stepTime / step(s, flat).stepTime;
        };
        const double shortSeq = gain("1024", "8"), longSeq = gain("32768", "1");
        QVERIFY(shortSeq > 1.0 && longSeq > 1.0);
        QVERIFY2(shortSeq > longSeq, qPrintable(QString("%1 vs %2").arg(shortSeq).arg(longSeq)));
    }

    // FP8 recipes keep the output layer in 16-bit: a larger vocabulary costs the same
    // time under FP8 as under BF16.
    void fp8KeepsTheOutputLayerIn16Bit()
    {
        auto delta = [](const char* precision) {
            auto s = [&](const char* vocab) {
                return test::preset("llama2-7b-8xa100",
                    { { "hardware.gpu", "h100-sxm" }, { "training.precision", precision }, { "model.vocab", vocab } });
            };
            const StepReport small = predictStep(s("32000"), test::calibration());
            const StepReport large = predictStep(s("256000"), test::calibration());
            return (large.breakdown.forward + large.breakdown.backward) - (small.breakdown.forward + small.breakdown.backward);
        };
        const double bf16 = delta("bf16"), fp8 = delta("fp8");
        QVERIFY2(std::abs(fp8 / bf16 - 1) < 0.02, qPrintable(QString("%1 vs %2").arg(fp8).arg(bf16)));
    }

    // EP overlap (Megatron-Core's --overlap-moe-expert-parallel-comm, DualPipe): the
    // all-to-alls hide behind a paired micro-batch's compute, so less is exposed while
    // the traffic stays the same and the hidden part slows the compute it overlaps.
    // Without a partner (one micro-batch a step) nothing hides.
    void epOverlapHidesAllToAllsBehindAPairedMicroBatch()
    {
        auto run = [](const char* overlap, const char* batch) {
            return predictStep(test::preset("mixtral-8x7b-h100",
                                    { { "parallel.overlap_ep_comm", overlap }, { "training.global_batch", batch } }),
                test::calibration());
        };
        const int ep = int(CommGroup::EP);
        const StepReport off = run("false", "1024"), on = run("true", "1024");
        QVERIFY(off.comm[ep].totalSeconds > 0);
        QCOMPARE(on.comm[ep].totalSeconds, off.comm[ep].totalSeconds);
        QVERIFY(on.comm[ep].exposedSeconds < 0.9 * off.comm[ep].exposedSeconds);
        QVERIFY(on.breakdown.contention > off.breakdown.contention);
        QVERIFY(on.stepTime < off.stepTime);
        const StepReport alone = run("true", "32"); // one micro-batch per replica
        QCOMPARE(alone.comm[ep].exposedSeconds, alone.comm[ep].totalSeconds);
    }

    // Node-limited routing (DeepSeek-V3): a token crosses the scale-out network once per
    // node it is routed to, at most M, instead of once per remote expert. Mixtral's EP 8
    // spans eight nodes here; with M at or above top-k nothing changes.
    void nodeLimitedRoutingCutsTheScaleOutShare()
    {
        auto epSeconds = [](const char* nodes) {
            const Scenario s = test::preset("mixtral-8x7b-h100", { { "model.moe.max_nodes_per_token", nodes } });
            return predictStep(s, test::calibration()).comm[int(CommGroup::EP)].totalSeconds;
        };
        const double unlimited = epSeconds("0"), topK = epSeconds("2"), one = epSeconds("1");
        QCOMPARE(topK, unlimited);
        QVERIFY2(one < 0.7 * unlimited, qPrintable(QString("%1 vs %2").arg(one).arg(unlimited)));
    }

    // A per-node dispatcher (DeepEP, HybridEP) sends a token once to each node holding any
    // of its experts. Mixtral's top-2 of 8 experts, one per node, always lands on two
    // nodes: no gain. 64 experts top-8 over the same 8 nodes land on 8 (1 - C(56,8)/C(64,8))
    // = 5.3 nodes on average, so the scale-out share falls by about a third.
    void perNodeDispatchSendsOneCopyPerNode()
    {
        auto epSeconds = [](std::vector<Override> o, const char* dispatcher) {
            o.push_back({ "parallel.ep_dispatcher", dispatcher });
            return predictStep(test::preset("mixtral-8x7b-h100", o), test::calibration()).comm[int(CommGroup::EP)].totalSeconds;
        };
        QCOMPARE(epSeconds({}, "deepep"), epSeconds({}, "alltoall"));
        const std::vector<Override> fine { { "model.moe.experts", "64" }, { "model.moe.top_k", "8" }, { "model.moe.expert_ffn_hidden", "1792" } };
        const double plain = epSeconds(fine, "alltoall"), perNode = epSeconds(fine, "deepep");
        QVERIFY2(perNode < 0.8 * plain && perNode > 0.5 * plain, qPrintable(QString("%1 vs %2").arg(perNode).arg(plain)));
    }

    // Issue 40: one MoE layer's time, part by part. The all-to-alls are the EP report's
    // per layer; the experts' part grows with their width, the router's with the expert
    // count; a dense model has none.
    void theMoeLayerSplitsIntoItsParts()
    {
        const Scenario mixtral = test::preset("mixtral-8x7b-h100");
        const StepReport r = predictStep(mixtral, test::calibration());
        const StepReport::MoeLayerTimes& ml = r.moeLayer;
        QVERIFY(ml.router > 0 && ml.permute > 0 && ml.experts > 0 && ml.dispatch > 0);
        QCOMPARE(ml.shared, 0.0);
        QCOMPARE(ml.dispatch, ml.combine);
        const int moeLayersOnStage = mixtral.model.layers / mixtral.plan.pp;
        const double perLayer = r.comm[int(CommGroup::EP)].totalSeconds / (double(moeLayersOnStage) * r.microbatches);
        QVERIFY2(std::abs((ml.dispatch + ml.combine) / perLayer - 1) < 1e-9, qPrintable(QString("%1 vs %2").arg(ml.dispatch + ml.combine).arg(perLayer)));
        // The experts dominate Mixtral's eight 14,336-wide experts; halving their width
        // roughly halves their part and leaves the router's.
        QVERIFY(ml.experts > 5 * (ml.router + ml.permute));
        const StepReport half = predictStep(test::preset("mixtral-8x7b-h100", { { "model.moe.expert_ffn_hidden", "7168" } }), test::calibration());
        QVERIFY2(half.moeLayer.experts < 0.6 * ml.experts && half.moeLayer.experts > 0.4 * ml.experts, qPrintable(QString::number(half.moeLayer.experts / ml.experts)));
        QCOMPARE(half.moeLayer.router, ml.router);
        const StepReport more = predictStep(test::preset("mixtral-8x7b-h100", { { "model.moe.experts", "64" } }), test::calibration());
        QVERIFY(more.moeLayer.router > ml.router);
        // A shared expert shows as its own part.
        const StepReport shared = predictStep(test::preset("mixtral-8x7b-h100", { { "model.moe.shared_experts", "1" } }), test::calibration());
        QVERIFY(shared.moeLayer.shared > 0);
        QCOMPARE(predictStep(test::preset("llama2-7b-8xa100"), test::calibration()).moeLayer.total(), 0.0);
    }

    // docs/model.md's worked example adds up by hand: each part's forward from the GEMM
    // prices (`dtsim-cli gemm`) and the bytes the text names, times three.
    void theWorkedMoeExampleAddsUpByHand()
    {
        const Scenario s = loadScenarioFile(test::dataPath("docs/examples/qwen3-30b-a3b-8xh100.yaml"), test::catalog(), {}, test::topologies());
        const step_detail::Rates r = step_detail::ratesFor(s, test::calibration());
        const StepReport::MoeLayerTimes& ml = predictStep(s, test::calibration()).moeLayer;
        const double T = 4 * 4096.0, h = 2048, K = 8, bytes = 2;
        auto near = [](double a, double b) { return std::abs(a / b - 1) < 1e-9; };
        QVERIFY(near(ml.router, 3 * step_detail::gemmTime(r, T, 128, h)));
        QVERIFY(near(ml.permute, 3 * (2 * 2 * K * T * h * bytes / r.memoryRate + 4 * r.kernel)));
        const double tokensPerExpert = T * K * 8 / 128; // 8,192
        const double expertGemms = step_detail::gemmTime(r, tokensPerExpert, 2 * 768, h) + step_detail::gemmTime(r, tokensPerExpert, h, 768);
        const double swiglu = 16 * tokensPerExpert * 3 * 768 * bytes / r.memoryRate + r.kernel;
        QVERIFY2(near(ml.experts, 3 * (16 * expertGemms + swiglu)), qPrintable(QString("%1 vs %2").arg(ml.experts).arg(3 * (16 * expertGemms + swiglu))));
        QVERIFY(std::abs(r.memoryRate / (0.9 * 3.35e12) - 1) < 0.01); // the text's 0.9 x 3.35 TB/s
    }

    // MoE parallel folding (Megatron-Core; Liu et al. 2025): the expert layers regroup a
    // stage's TP x CP x DP ranks as expert-TP x EP x expert-DP, so EP may exceed DP x CP.
    // Megatron-Bridge ran Qwen3-235B-A22B on 256 H100 with TP 2, DP 16 and EP 32.
    void moeParallelFoldingRegroupsTheStage()
    {
        const std::string qwen = R"(version: 1
model: {layers: 94, hidden: 4096, heads: 64, kv_heads: 4, head_dim: 128, ffn_hidden: 12288, gated_mlp: true,
  vocab: 151936, norm: rmsnorm, moe: {experts: 128, top_k: 8, expert_ffn_hidden: 1536}}
training: {global_batch: 2048, micro_batch: 1, seq_len: 4096, tokens: 1T}
hardware: {gpu: h100-sxm}
cluster: {gpus: 256, gpus_per_node: 8}
parallel: {tp: 2, pp: 8, dp: 16, ep: 32, sequence_parallel: true, schedule: interleaved, virtual_stages: 4, zero: 1,
  order: tp-cp-dp-pp}
)";
        auto load = [&](std::vector<Override> o) { return loadScenarioText(qwen, "qwen.yaml", test::catalog(), o, test::topologies()); };
        // Experts split like attention (expert_tp = tp = 2): 32 x 2 ranks do not fit 2 x 16.
        try {
            load({});
            QFAIL("accepted ep 32 x expert_tp 2 on 32 ranks");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("parallel.ep"));
            QVERIFY2(QString(e.what()).contains("expert_tp"), e.what());
        }
        const Scenario folded = load({ parseOverride("parallel.expert_tp=1") });
        QCOMPARE(folded.plan.etp(), 1);
        QCOMPARE(folded.plan.expertDataParallel(), 1LL);
        // Each GPU holds 128/32 = 4 whole experts of its stage's MoE layers.
        const ParameterCounts counts = countParameters(folded.model, folded.training.seqLen);
        const StageParams sp = stageParameters(folded, 0, counts);
        QVERIFY(std::abs(sp.experts / (12 * counts.expertParamsPerLayer / 32) - 1) < 1e-12);
        // The all-to-all spans the 32 consecutive ranks of TP x DP: 4 nodes.
        const StepReport r = step(folded);
        QCOMPARE(r.comm[int(CommGroup::EP)].groupSize, 32);
        QCOMPARE(r.comm[int(CommGroup::EP)].domains, 4);
        QVERIFY(r.memory.fits);
        // The same GPUs as expert_tp 2 x EP 16: each GPU does the same expert FLOPs (half
        // the tokens on whole experts, or all of them on half-width ones), so the step
        // differs only in how the work is shaped and exchanged, not by the FLOPs.
        const Scenario wide = load({ parseOverride("parallel.ep=16") });
        QCOMPARE(wide.plan.etp(), 2);
        const StepReport w = step(wide);
        QCOMPARE(w.comm[int(CommGroup::EP)].groupSize, 16);
        QCOMPARE(r.modelFlopsPerStep, w.modelFlopsPerStep);
        const double fwdRatio = r.breakdown.forward / w.breakdown.forward;
        QVERIFY2(fwdRatio > 0.8 && fwdRatio < 1.25, qPrintable(QString::number(fwdRatio)));
        // The experts' TP must divide their width, and is written back.
        try {
            load({ parseOverride("parallel.expert_tp=5"), parseOverride("parallel.ep=2") });
            QFAIL("accepted expert_tp 5 on a 1,536-wide expert");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("parallel.expert_tp"));
        }
        const Scenario back = loadScenarioText(scenarioToYaml(folded), "saved.yaml", test::catalog(), {}, test::topologies());
        QCOMPARE(back.plan.expertTp, 1);
    }
};

QTEST_GUILESS_MAIN(TestExecution)
#include "tst_execution.moc"
