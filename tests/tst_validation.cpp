// Fidelity: the engine against every published run in tests/validation/, and the rules
// that turn a published row into a scenario and a measured throughput.
#include "simcore/loader/published_runs_loader.h"
#include "simcore/loader/residuals_loader.h"
#include "simcore/study/error_band.h"
#include "simcore/memory.h"
#include "simcore/validation/reported_throughput.h"
#include "simcore/validation/run_to_scenario.h"
#include "simcore/validation/extrapolation.h"
#include "simcore/validation/validation.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

using namespace dtsim;

namespace {

const std::vector<RunRecord>& publishedRuns()
{
    static const std::vector<RunRecord> runs = loadPublishedRuns(test::dataPath("tests/validation/published-runs.yaml"));
    return runs;
}

const ValidationResult& result()
{
    static const ValidationResult r = validateRuns(publishedRuns(), test::catalog(), test::calibration());
    return r;
}

// The rows before issue 40's additions: the level the model reached on them is held
// (the guards below); issue 40's rows (MoE frameworks beyond Megatron-Bridge, 8,000+
// GPUs) show where it is not yet, in docs/validation.md.
constexpr std::size_t kRowsBeforeIssue40 = 270;

const ValidationResult& earlierResult()
{
    static const ValidationResult r = validateRuns(
        std::vector<RunRecord>(publishedRuns().begin(), publishedRuns().begin() + kRowsBeforeIssue40), test::catalog(), test::calibration());
    return r;
}

const RunRecord& run(const std::string& id)
{
    for (const RunRecord& r : publishedRuns())
        if (r.id == id)
            return r;
    qFatal("no run %s", id.c_str());
}

Scenario built(const RunRecord& r)
{
    auto s = scenarioFromRun(r, test::catalog(), test::calibration());
    if (!std::holds_alternative<Scenario>(s))
        qFatal("%s skipped: %s", r.id.c_str(), std::get<SkippedRun>(s).reason.c_str());
    return std::get<Scenario>(s);
}

} // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    // Issue 25: the error bands. Leave-one-out on the published runs: each good row's band
    // comes from the other rows most like it (same traits as a scenario has: generation,
    // dense or MoE, precision, scale); about 80% of rows fall inside their own 80% band.
    void errorBandsCoverTheirShareLeaveOneOut()
    {
        const std::vector<Residual> residuals = residualsOf(result());
        const BandCoverage c = leaveOneOutCoverage(residuals);
        const int banded = c.banded, inside = c.inside;
        const double coverage = c.share();
        QVERIFY2(banded >= int(0.9 * residuals.size()), qPrintable(QString("%1 of %2 rows have a band").arg(banded).arg(residuals.size())));
        QVERIFY2(coverage >= 0.70 && coverage <= 0.90, qPrintable(QString("coverage %1 over %2 rows").arg(coverage).arg(banded)));
        qInfo("error bands: %d of %d good rows inside their own leave-one-out 80%% band (%.1f%%)", inside, banded, 100 * coverage);
    }

    // The shipped residuals are the engine's: regenerate them (update_docs.py) after any
    // change that moves a prediction.
    void shippedResidualsAreCurrent()
    {
        const std::vector<Residual> shipped = loadResiduals(test::dataPath("resources/validation/residuals.yaml"));
        std::map<std::string, double> now;
        for (const ValidationRow& r : result().rows)
            if (!r.skipped && r.quality == "good")
                now[r.id] = r.relError;
        QCOMPARE(shipped.size(), now.size());
        for (const Residual& r : shipped) {
            QVERIFY2(now.count(r.id), r.id.c_str());
            QVERIFY2(std::abs(now[r.id] - r.error) < 2e-6,
                qPrintable(QString::fromStdString(r.id) + ": resources/validation/residuals.yaml is stale; run tests/validation/update_docs.py"));
        }
    }

    void everyRunIsCoveredOrSkippedForAStatedReason()
    {
        QCOMPARE(int(result().rows.size()), int(publishedRuns().size()));
        int skipped = 0;
        for (const ValidationRow& r : result().rows) {
            if (r.skipped) {
                ++skipped;
                QVERIFY2(!r.skipReason.empty(), r.id.c_str());
                // Only rows that lack something the engine needs may be skipped, and none is good.
                QVERIFY2(r.quality != "good", (r.id + ": " + r.skipReason).c_str());
            } else {
                QVERIFY2(std::isfinite(r.predicted) && r.predicted > 0, r.id.c_str());
            }
        }
        QVERIFY(skipped <= 10);
        QCOMPARE(earlierResult().good.count, 219);
    }

    // Issue 26: at least 20 published non-transformer runs (tests/validation/
    // layer-table-runs.yaml) validate with a median error within 15%; none is skipped,
    // none is predicted out of memory.
    void layerTableRunsMeetIssue26()
    {
        const ValidationResult v = validateRuns(loadPublishedRuns(test::dataPath("tests/validation/layer-table-runs.yaml")),
            test::catalog(), test::calibration());
        QVERIFY2(v.good.count >= 20, qPrintable(QString::number(v.good.count)));
        QVERIFY2(v.good.median <= 0.15, qPrintable(QString("median %1").arg(v.good.median)));
        QCOMPARE(v.goodOutOfMemory, 0);
        for (const ValidationRow& r : v.rows)
            QVERIFY2(!r.skipped, r.id.c_str());
    }

    // Issue 20's targets hold on the issue's own file: the first 245 rows of this copy
    // are ../shared/validation/published-runs.yaml (tests/validation/README.md; this
    // project's 25 rows follow): good rows median <= 4%, p90 <= 10%, MoE median <= 10%,
    // Blackwell median <= 8%, every source with 3+ good rows <= 8%.
    void issueFileMeetsIssue20()
    {
        constexpr std::size_t kIssueRows = 245;
        QVERIFY(publishedRuns().size() > kIssueRows);
        QCOMPARE(publishedRuns()[kIssueRows - 1].id, std::string("dgxc2505-llama31-405b-gb200-bf16-512gpu"));
        QCOMPARE(publishedRuns()[kIssueRows].id, std::string("mb2511-gb300-llama31-405b-fp8cs")); // the first added
        const std::vector<RunRecord> issueRows(publishedRuns().begin(), publishedRuns().begin() + kIssueRows);
        const ValidationResult v = validateRuns(issueRows, test::catalog(), test::calibration());
        QCOMPARE(v.good.count, 202);
        QVERIFY2(v.good.median <= 0.04, qPrintable(QString("median %1").arg(v.good.median)));
        QVERIFY2(v.good.p90 <= 0.10, qPrintable(QString("p90 %1").arg(v.good.p90)));
        QVERIFY2(v.goodMoe.median <= 0.10, qPrintable(QString("MoE %1").arg(v.goodMoe.median)));
        QVERIFY2(v.goodBlackwell.median <= 0.08, qPrintable(QString("Blackwell %1").arg(v.goodBlackwell.median)));
        QCOMPARE(v.goodOutOfMemory, 0);
        for (const auto& [source, st] : v.goodBySource)
            if (st.count >= 3)
                QVERIFY2(st.median <= 0.08, qPrintable(QString("%1 median %2").arg(source.c_str()).arg(st.median)));
        for (const ValidationRow& r : v.rows)
            QVERIFY2(!r.skipped || r.skipReason.rfind("plan rejected", 0) != 0, r.id.c_str());
    }

    // Issue 20's targets on good rows are median <= 4% and p90 <= 10%; with the 25 rows
    // this project added (Blackwell and 8-16k GPUs) neither is met yet. The bounds are the
    // level reached (docs/validation.md lists the rows above 10%) and only tighten
    // (torchtitan's FP8 all-gathers and separate Q/K/V linears once moved the median from
    // 4.28% to 4.31% while cutting the p90; Ampere's own attention length ramp then
    // brought both down: 3.99% / 11.35%; the recipe and FSDP work of issue 20's last
    // session: 3.83% / 11.10%). Issue 40 counted the activation and FP8 input casts of
    // every local expert, not one expert's (a bug): 3.83% / 11.32%, the bounds follow.
    void goodRowsErrorDoesNotRegress()
    {
        const ErrorStats& g = earlierResult().good;
        QVERIFY2(g.median <= 0.039, qPrintable(QString("median %1").arg(g.median)));
        QVERIFY2(g.p90 <= 0.114, qPrintable(QString("p90 %1").arg(g.p90)));
    }

    // Every source with three or more good runs stays within 8% median error, found from
    // the data so a new source is held to it too. The exceptions so far, each with its own
    // bound at the level reached (docs/validation.md says why): Megatron-Bridge 25.11 and
    // 26.04.01 with this project's added rows, whose GB300 rows run 13-22% faster and
    // GPT-OSS rows 28-41% slower than dtsim predicts (on the issue's own rows both are
    // within 8%). Issue 40's per-expert activation traffic moved Megatron-Bridge 25.11
    // from 8.1% to 8.3% and 26.04.01 from 9.7% to 12.6% (its B300 Qwen3-235B MXFP8 row,
    // whose per-expert MXFP8 casts now count for every expert, -8.9% -> -15.7%, becomes
    // the median; rows already too slow got slower).
    void everyLargeSourceWithinEightPercent()
    {
        int checked = 0;
        for (const auto& [source, s] : earlierResult().goodBySource) {
            if (s.count < 3)
                continue;
            ++checked;
            const double bound = source == "mb2511" ? 0.083 : source == "mb260401" ? 0.126 : 0.08;
            QVERIFY2(s.median <= bound, qPrintable(QString("%1 median %2").arg(source.c_str()).arg(s.median)));
        }
        QVERIFY(checked >= 11);
    }

    void frontierRowsWithinTheirTargets()
    {
        // Issue 20 asks <= 10% on mixture-of-experts rows and <= 8% on Blackwell rows. On the
        // issue's file (6 and 7 rows) dtsim reaches 6.4% and 5.9%; with this project's
        // added rows (15 and 24) 11.1% and 9.2%, the bounds held here. Issue 40's
        // per-expert activation traffic (every local expert's, not one's) took the MoE
        // rows to 13.3%: the two too-fast outliers closer (+57% -> +44%, +41% -> +38%),
        // the Blackwell MXFP8 and DeepSeek rows, already too slow, further off.
        QVERIFY(earlierResult().goodMoe.count >= 15);
        QVERIFY2(earlierResult().goodMoe.median <= 0.134, qPrintable(QString::number(earlierResult().goodMoe.median)));
        QVERIFY(earlierResult().goodBlackwell.count >= 24);
        QVERIFY2(earlierResult().goodBlackwell.median <= 0.093, qPrintable(QString::number(earlierResult().goodBlackwell.median)));
    }

    // Issue 20 asked for at least 8 new public runs at 4,000+ GPUs or on Blackwell; the
    // project added 25 (tests/validation/README.md), 39 such rows in all.
    void frontierRunsArePresent()
    {
        int frontier = 0;
        for (std::size_t i = 0; i < publishedRuns().size(); ++i) {
            const ValidationRow& v = result().rows[i];
            if (!v.skipped && (v.blackwell || publishedRuns()[i].numGpus.value_or(0) >= 4000))
                ++frontier;
        }
        QVERIFY2(frontier >= 39, qPrintable(QString::number(frontier)));
    }

    void runsThatHappenedFitInMemory()
    {
        QCOMPARE(earlierResult().goodOutOfMemory, 0);
        for (const ValidationRow& r : earlierResult().rows)
            if (!r.skipped && r.quality == "good")
                QVERIFY2(r.predictedFits, r.id.c_str());
    }

    // Issue 40's rows: at least 6 new MoE runs and 3 at 8,000+ GPUs, every one read (none
    // skipped). Their errors are reported, not bounded (docs/validation.md).
    void issue40RowsAreRead()
    {
        QCOMPARE(publishedRuns()[kRowsBeforeIssue40].id, std::string("automodel-h100-dsv3-1024gpu")); // the first added
        int moe = 0, huge = 0;
        for (std::size_t i = kRowsBeforeIssue40; i < publishedRuns().size(); ++i) {
            const ValidationRow& v = result().rows[i];
            QVERIFY2(!v.skipped, (v.id + ": " + v.skipReason).c_str());
            moe += publishedRuns()[i].architectureType == "moe";
            huge += publishedRuns()[i].numGpus.value_or(0) >= 8000;
        }
        QVERIFY2(moe >= 6 && huge >= 3, qPrintable(QString("%1 MoE, %2 at 8,000+ GPUs").arg(moe).arg(huge)));
        qInfo("issue 40 rows: %d MoE, %d at 8,000+ GPUs", moe, huge);
    }

    // Rows whose source states the peak memory per GPU are compared with it. torchtitan
    // reports the caching allocator's peak reservation, which the engine's allocated peak
    // plus a small margin undershoots (docs/validation.md); the bound holds the level.
    void memoryIsComparedWhereStated()
    {
        const ErrorStats& m = result().memory;
        QVERIFY(m.count >= 10);
        QVERIFY2(m.median <= 0.41, qPrintable(QString::number(m.median)));
        for (const ValidationRow& r : result().rows)
            if (r.reportedMemoryGib)
                QVERIFY2(r.predictedMemoryGib > 0 && std::isfinite(r.memoryRelError), r.id.c_str());
    }

    void moeRecipesFollowMegatronBridge()
    {
        // Expert TP 1 (folding) and the EP all-to-all overlap of the Qwen3-235B H100 recipe.
        const Scenario q = built(run("mb2511-h100-qwen3-235b-a22b"));
        QCOMPARE(q.plan.etp(), 1);
        QVERIFY(q.plan.epCommOverlap);
        // DeepSeek-V3: HybridEP per-node dispatch and group-limited routing (4 nodes).
        const Scenario d = built(run("mb2509-h100-deepseekv3"));
        QVERIFY(d.plan.epNodeDispatch);
        QCOMPARE(d.model.moe.maxNodesPerToken, 4);
        // Qwen3-30B-A3B on H100: HybridEP from the 26.04 release's recipe on, the plain
        // all-to-all in 25.11's (Megatron-Bridge v0.4.0/v0.5.0 against v0.2.0).
        QVERIFY(built(run("mb2606-h100-qwen3-30b-ep16")).plan.epNodeDispatch);
        QVERIFY(!built(run("mb2511-h100-qwen3-30b-a3b")).plan.epNodeDispatch);
    }

    // torchtitan's Llama has separate wq/wk/wv and w1/w3 linears; under tensorwise FP8
    // with TP it all-gathers in FP8 (rowwise: regular TP); a row that names FSDP's float8
    // all-gather gathers FP8 weights. Megatron-Core rows keep fused projections.
    void torchtitanFp8CommunicationAndProjections()
    {
        const Scenario tensorwise = built(run("torchtitan-2506-8b-64gpu-fp8-tensorwise-vanillatp"));
        QVERIFY(!tensorwise.training.fusedProjections);
        QVERIFY(tensorwise.training.fp8TpAllGather);
        QVERIFY(!tensorwise.training.fp8ParamGather);
        QVERIFY(!built(run("torchtitan-2506-8b-64gpu-fp8-rowwise-vanillatp")).training.fp8TpAllGather);
        QVERIFY(!built(run("torchtitan-2506-8b-64gpu-bf16-vanillatp")).training.fp8TpAllGather);
        const Scenario trainy = built(run("torchtitan-trainy-h200-8b-32gpu"));
        QVERIFY(trainy.training.fp8ParamGather);
        QVERIFY(!trainy.training.fp8TpAllGather); // TP 1
        const Scenario nemo = built(run("dgxc-llama31-70b-fp8-256gpu"));
        QVERIFY(nemo.training.fusedProjections);
        QVERIFY(!nemo.training.fp8TpAllGather && !nemo.training.fp8ParamGather);
    }

    // Narayanan et al.'s rows give TFLOP/s counted by their Eq. 3; converting with that
    // rule must reproduce the throughput the dataset derived independently.
    void eq3ConversionMatchesDerivedThroughput()
    {
        int checked = 0;
        for (const RunRecord& r : publishedRuns()) {
            if (r.id.rfind("ptdp-", 0) != 0 || !r.derivedTokensPerSPerGpu)
                continue;
            auto built = scenarioFromRun(r, test::catalog(), test::calibration());
            QVERIFY(std::holds_alternative<Scenario>(built));
            const ReportedThroughput t = reportedThroughput(r, std::get<Scenario>(built));
            QVERIFY(t.tokensPerSecondPerGpu.has_value());
            const double rel = *t.tokensPerSecondPerGpu / *r.derivedTokensPerSPerGpu - 1;
            QVERIFY2(std::abs(rel) < 0.01, qPrintable(QString("%1: %2").arg(r.id.c_str()).arg(rel)));
            ++checked;
        }
        QCOMPARE(checked, 7);
    }

    // Framework facts read from a row: each rule changes what it names and nothing else.
    void nemoRecipesReduceInBf16AndOverlapTp()
    {
        RunRecord r = run("dgxc-llama31-70b-bf16-256gpu");
        Scenario s = built(r);
        QCOMPARE(s.training.gradReduce, Precision::BF16);
        QVERIFY(s.plan.tp > 1 && s.plan.tpCommOverlap);
        r.framework = "Megatron-LM (2021)";
        s = built(r);
        QCOMPARE(s.training.gradReduce, Precision::FP32);
        QVERIFY(!s.plan.tpCommOverlap);
    }

    void overlappedPipelineSendsMeanInterleaved()
    {
        // Megatron-Core's weak-scaling table says PP communication overlapped, which
        // Megatron does only under the interleaved schedule.
        const Scenario s = built(run("mcore-h100-weak-462B"));
        QCOMPARE(s.plan.schedule, Schedule::Interleaved1F1B);
        QVERIFY(s.plan.virtualStages > 1);
    }

    void oneFewerLayerOnTheEndStages()
    {
        // Llama 3 (Sec. 3.3.2): 126 layers over 16 stages as 7 + 14 x 8 + 7.
        const Scenario s = built(run("llama3-paper-405b-16384gpu-seq8k"));
        QCOMPARE(s.plan.firstStageLayers, 7);
        QCOMPARE(s.plan.lastStageLayers, 7);
        QCOMPARE(stageLayers(s.model.layers, s.plan).middle, 8);
    }

    void torchtitanPipelineSplitsIntoPpMicrobatches()
    {
        const Scenario s = built(run("torchtitan-2412-t5-405b-512gpu-interleaved-1f1b"));
        // Local batch 256 / DP 8 = 32 sequences, split into PP = 8 micro-batches of 4.
        QCOMPARE(s.plan.pp, 8);
        QCOMPARE(s.training.microBatch, 4);
    }

    void asyncTpOverlapsTheForwardOnly()
    {
        const Scenario async = built(run("torchtitan-2506-8b-64gpu-bf16-asynctp"));
        QVERIFY(async.plan.tpCommOverlap && !async.plan.tpCommOverlapBackward);
        QVERIFY(!built(run("torchtitan-2506-8b-64gpu-bf16-vanillatp")).plan.tpCommOverlap);
        const Scenario te = built(run("dgxc-llama31-70b-bf16-256gpu"));
        QVERIFY(te.plan.tpCommOverlap && te.plan.tpCommOverlapBackward);
    }

    void compileOffIsEager()
    {
        RunRecord r = run("torchtitan-2412-t1-8b-8gpu-fsdp");
        const std::string text = r.framework + " " + r.sourceRef + " " + r.notes + " " + r.parallelismNotes;
        QVERIFY(text.find("compile=off") != std::string::npos);
        QVERIFY(!built(r).training.fusedKernels);
        QVERIFY(built(run("torchtitan-2412-t1-8b-8gpu-fsdp-compile")).training.fusedKernels);
        // torchao Float8 training runs compiled even where the row omits it.
        RunRecord trainy = run("torchtitan-trainy-h200-8b-32gpu");
        QVERIFY(built(trainy).training.fusedKernels);
        trainy.precision = "bf16";
        QVERIFY(!built(trainy).training.fusedKernels);
    }

    void perOpCheckpointingIsRead()
    {
        QCOMPARE(built(run("torchtitan-2506-8b-64gpu-bf16-vanillatp")).plan.recompute, Recompute::PerOp);
        QCOMPARE(built(run("torchtitan-2506-70b-256gpu-bf16-asynctp")).plan.recompute, Recompute::Full);
    }

    // NVIDIA's MaxText recipe keeps the attention projections (configure.sh's custom remat
    // policy) where the row leaves recomputation unstated; it fits, as the run did.
    void maxtextRecipeKeepsProjections()
    {
        for (const char* id : { "dgxc-maxtext-llama2-70b-bf16-64gpu", "dgxc-maxtext-llama2-70b-fp8-64gpu" }) {
            const Scenario s = built(run(id));
            QCOMPARE(s.plan.recompute, Recompute::Projections);
            QVERIFY(memoryPerGpu(s, test::calibration()).fits);
        }
        RunRecord other = run("dgxc-maxtext-llama2-70b-bf16-64gpu");
        other.sourceRef = "MaxText README";
        QVERIFY(built(other).plan.recompute != Recompute::Projections);
    }

    // A run that happened fitted: with recomputation unstated, a 2022+ stack recomputes
    // as few layers as fit; a 2020 stack all or none.
    void leastRecomputationThatFitsIsPartial()
    {
        const Scenario s = built(run("dgxc-nemotron4-340b-bf16-128gpu"));
        const int stageLayers = (s.model.layers + s.plan.pp - 1) / s.plan.pp;
        QCOMPARE(s.plan.recompute, Recompute::Full);
        QVERIFY(s.plan.recomputeLayers > 0 && s.plan.recomputeLayers < stageLayers);
        QVERIFY(memoryPerGpu(s, test::calibration()).fits);
        Scenario fewer = s;
        fewer.plan.recomputeLayers = s.plan.recomputeLayers - 1;
        if (fewer.plan.recomputeLayers > 0)
            QVERIFY(!memoryPerGpu(fewer, test::calibration()).fits);
        QCOMPARE(built(run("megatron-v1-dgxa100-dp128-bs2048-8B")).plan.recomputeLayers, 0);
    }

    // Megatron-LM v1 had no gradient accumulation: each replica ran its whole batch in
    // one pass (GBS 2048 over DP 128: 16 sequences at once).
    void megatronV1RunsTheReplicaBatchInOnePass()
    {
        RunRecord r = run("megatron-v1-dgxa100-dp128-bs2048-8B");
        QVERIFY(!r.microBatch);
        Scenario s = built(r);
        QCOMPARE(s.plan.dp, 128);
        QCOMPARE(s.training.microBatch, 16);
        QCOMPARE(s.training.globalBatch, 2048);
        r.framework = "Megatron-LM (2021)";
        QCOMPARE(built(r).training.microBatch, 1);
    }

    // Megatron-LM's local DDP (to 2022) and DeepSpeed's pipeline engine reduce gradients
    // after the last backward; Megatron-Core and PyTorch FSDP overlap them.
    void oldStacksReduceGradientsAfterTheBackward()
    {
        for (const char* id : { "megatron-v1-dgxa100-dp128-bs2048-8B", "ptdp-table1-18B", "gpt-neox-20b", "bloom-176b-tr11-main" }) {
            const Scenario s = built(run(id));
            QVERIFY2(!s.plan.overlapGradReduce && !s.plan.overlapParamGather, id);
        }
        RunRecord r = run("ptdp-table1-18B");
        r.framework = "Megatron-LM (NVIDIA, 2021)";
        QVERIFY(!built(r).plan.overlapGradReduce);
        r.framework = "Megatron-LM v3.0";
        QVERIFY(!built(r).plan.overlapGradReduce);
        r.framework = "Megatron-LM 2024 (Megatron-Core 0.9)";
        QVERIFY(built(r).plan.overlapGradReduce);
        r.framework = "Megatron-Core r0.8.0";
        QVERIFY(built(r).plan.overlapGradReduce);
        QVERIFY(built(run("ibm-fsdp-llama2-7b-a100-128")).plan.overlapGradReduce);
        r = run("gpt-neox-20b"); // DeepSpeed without pipelining: ZeRO-2 reduces from hooks
        r.pp = 1;
        r.dp = 48;
        r.zeroOrFsdp = "ZeRO-2 (DeepSpeed)";
        QVERIFY(built(r).plan.overlapGradReduce);
        r.zeroOrFsdp = "ZeRO-1 (DeepSpeed)";
        QVERIFY(!built(r).plan.overlapGradReduce);
    }

    // DeepSeek-V3's row names DualPipe and node-limited routing; its accelerator text
    // gives bandwidths ("NVLink 160 GB/s"), which are not a memory size.
    void deepseekRowReadsOverlapRoutingAndMemory()
    {
        const Scenario s = built(run("deepseek-v3-2048-h800"));
        QVERIFY(s.plan.epCommOverlap);
        QCOMPARE(s.model.moe.maxNodesPerToken, 4);
        for (const HardwareSpec& hw : test::catalog())
            if (hw.id == "h800")
                QCOMPARE(s.hardware.memoryBytes, hw.memoryBytes);
        QVERIFY(!built(run("mb2509-h100-deepseekv3")).plan.epCommOverlap);
    }

    // Sequence parallelism (Korthikanti et al. 2022) is on by default only in stacks that have it.
    void sequenceParallelOnlyWhereTheStackHasIt()
    {
        RunRecord r = run("gpt-neox-20b");
        QVERIFY(!r.sequenceParallel);
        QVERIFY(!built(r).plan.sequenceParallel);
        r.framework = "Megatron-Core r0.8.0";
        QVERIFY(built(r).plan.sequenceParallel);
        r.sequenceParallel = false;
        QVERIFY(!built(r).plan.sequenceParallel);
    }

    // GPT-NeoX's 2022 logger: (6 x parameters + 60 s h L) per token. The NeoX-20B row
    // states no rule, so 117 TFLOP/s converts with it: 747 tokens/s per GPU, the rate
    // at which 150k steps of 3.15M tokens take the paper's 1,830 hours on 96 GPUs.
    void gptNeoxTflopsConvertWithItsLogger()
    {
        RunRecord r = run("gpt-neox-20b");
        QCOMPARE(flopRuleOf(r), FlopRule::NeoxLogged);
        const Scenario s = built(r);
        const double perGpu = *reportedThroughput(r, s).tokensPerSecondPerGpu;
        QVERIFY2(std::abs(perGpu - 747.3) < 3.0, std::to_string(perGpu).c_str());
        r.flopsAccounting = "hardware FLOPs (Megatron Eq. 3)";
        QCOMPARE(flopRuleOf(r), FlopRule::HardwareFullAttention);
        r = run("gpt-neox-20b");
        r.sourceRef += " (2024 rerun)";
        QCOMPARE(flopRuleOf(r), FlopRule::HardwareFullAttention);
    }

    // "Checkpoint every n-th block" with MFU and HFU reported: HFU/MFU = (3 + f)/3 gives
    // the fraction f of blocks rerun (IBM 13B: 0.40/0.35 -> 3/7 of 40 layers = 17).
    void hfuOverMfuGivesTheRecomputedBlocks()
    {
        RunRecord r = run("ibm-fsdp-llama2-13b-h100-96");
        QCOMPARE(*r.hfu / *r.mfu, 0.40 / 0.35);
        Scenario s = built(r);
        QCOMPARE(s.plan.recompute, Recompute::Full);
        QCOMPARE(s.plan.recomputeLayers, 17);
        r.hfu.reset();
        QVERIFY(built(r).plan.recomputeLayers < 17); // without HFU: the least that fits
    }

    void xlaStacksRunCapturedGraphs()
    {
        QVERIFY(built(run("dgxc-maxtext-llama2-70b-bf16-64gpu")).training.graphCapture);
        QVERIFY(!built(run("dgxc-llama31-70b-bf16-256gpu")).training.graphCapture);
    }

    void flopRules()
    {
        QCOMPARE(flopRuleOf("Paper Eq. 3 (96*B*s*l*h^2*(1+s/6h+V/16lh)) counts ..."), FlopRule::HardwareFullAttention);
        QCOMPARE(flopRuleOf("MFU (model FLOPs, no recompute counted)"), FlopRule::ModelFullAttention);
        QCOMPARE(flopRuleOf("not specified (likely 6ND-style model FLOPs)"), FlopRule::SixN);
    }

    void acceleratorNames()
    {
        QCOMPARE(acceleratorId("A100-SXM4-40GB"), std::string("a100-40gb"));
        QCOMPARE(acceleratorId("A100 (80GB, Selene assumed)"), std::string("a100-80gb"));
        // The 80 GB A100 shipped from November 2020: unstated size in 2020 means 40 GB.
        QCOMPARE(acceleratorId("A100-SXM4 (DGX A100, 2020; memory size not stated)"), std::string("a100-40gb"));
        QCOMPARE(acceleratorId("A100-SXM4 (DGX A100, 2021)"), std::string("a100-80gb"));
        QCOMPARE(acceleratorId("A100 80GB (2020)"), std::string("a100-80gb"));
        QCOMPARE(acceleratorId("H100-SXM5-80GB (EOS)"), std::string("h100-sxm"));
        QCOMPARE(acceleratorId("H200 SXM 141GB"), std::string("h200"));
        QCOMPARE(acceleratorId("H100 SXM 96GB HBM2e, 500W power limit (Grand Teton)"), std::string("h100-sxm-hbm2e"));
        QCOMPARE(acceleratorId("TPU v5e"), std::string("tpu-v5e"));
        QCOMPARE(acceleratorId("V100-SXM3 (DGX-2)"), std::string("v100"));
        QCOMPARE(acceleratorId("Gaudi 3"), std::string());
    }

    void interconnectText()
    {
        const double gbit = 1e9 / 8;
        QCOMPARE(perGpuNetworkBandwidth("8x H100, NVLink4 900 GB/s, 8x 400 Gb/s InfiniBand compute links per node", 8), 400 * gbit);
        QCOMPARE(perGpuNetworkBandwidth("1600 Gbps node-node (RoCE) = 200 Gb/s per GPU", 8), 200 * gbit);
        QCOMPARE(perGpuNetworkBandwidth("12 nodes; 4x ConnectX-6 HCAs per node (GPUDirect RDMA)", 8), 100 * gbit);
        QCOMPARE(perGpuNetworkBandwidth("800 Gbps inter-node", 8), 100 * gbit);
        QCOMPARE(perGpuNetworkBandwidth("", 8), 0.0);
    }

    // Any file in the schema works, with defaults for what it leaves out.
    void otherFilesInTheSchema()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/runs.yaml").toStdString();
        std::ofstream(path) << R"(- id: mine-a-1
  quality: good
  framework: Megatron-Core
  architecture: {type: dense, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, head_dim: 128,
                 ffn_hidden_size: 14336, vocab_size: 128256, seq_len: 8192, moe: null}
  hardware: {accelerator: H100-SXM-80GB, num_gpus: 8, gpus_per_node: 8, interconnect: null}
  parallelism: {tp: 1, pp: 1, dp: 8, cp: null, ep: null, sequence_parallel: null, virtual_pipeline: null,
                zero_or_fsdp: distributed optimizer, pipeline_schedule: null}
  batch: {micro_batch: 1, global_batch_seqs: 128}
  activation_recompute: null
  precision: bf16
  result: {tokens_per_s_per_gpu: 9000}
  flops_accounting: model FLOPs
- id: mine-b-1
  quality: noisy
  architecture: {layers: 2}
  hardware: {accelerator: Mystery chip, num_gpus: 4}
)";
        const ValidationResult v = validateRuns(loadPublishedRuns(path), test::catalog(), test::calibration());
        QCOMPARE(int(v.rows.size()), 2);
        QVERIFY(!v.rows[0].skipped);
        QCOMPARE(v.rows[0].reported, 9000.0);
        QVERIFY(v.rows[1].skipped);
        QVERIFY(v.goodBySource.count("mine"));
        QCOMPARE(v.good.count, 1);
    }

    void errorStatistics()
    {
        const ErrorStats s = errorStats({ 0.5, 0.1, 0.2, 0.3, 0.4 });
        QCOMPARE(s.count, 5);
        QCOMPARE(s.median, 0.3);
        QVERIFY(std::abs(s.p90 - 0.46) < 1e-12); // linear interpolation between 0.4 and 0.5
        QCOMPARE(s.max, 0.5);
    }

    // Calibrate, then extrapolate (docs/calibration.md): fitted on each model-and-stack's
    // smallest run, the speed reproduces that run, stays near the model's, and the
    // larger runs' median error falls (the tail rises: one run's noise carries over).
    void calibrateThenExtrapolate()
    {
        const ExtrapolationResult x = extrapolationCheck(publishedRuns(), test::catalog(), test::calibration());
        QVERIFY2(x.groups.size() >= 20, qPrintable(QString::number(x.groups.size())));
        QVERIFY(x.after.count >= 50);
        for (const ExtrapolationGroup& g : x.groups) {
            QVERIFY2(g.computeScale > 0.5 && g.computeScale < 2, qPrintable(QString::fromStdString(g.key)));
            QVERIFY(!g.runs.empty());
            for (const ExtrapolatedRun& r : g.runs)
                QVERIFY(r.gpus > g.fittedGpus);
        }
        QVERIFY2(x.after.median < x.before.median, qPrintable(QString("%1 -> %2").arg(x.before.median).arg(x.after.median)));
    }

    // Issue 40: the llama3-405b-h100 preset and the Llama 3 paper's 16,384-GPU row are the
    // same run read two ways (a scenario file, the validation schema); both must predict
    // it alike. The paper's wording fixes V = 8 (the row's `inferred`); the preset follows.
    void theLlama3PresetIsItsValidationRow()
    {
        const StepReport preset = predictStep(test::preset("llama3-405b-h100"), test::calibration());
        const Scenario row = built(run("llama3-paper-405b-16384gpu-seq8k"));
        const StepReport validated = predictStep(row, test::calibration());
        QCOMPARE(row.plan.virtualStages, 8);
        QVERIFY2(std::abs(validated.stepTime / preset.stepTime - 1) < 0.02,
            qPrintable(QString("preset %1 s, validation row %2 s").arg(preset.stepTime).arg(validated.stepTime)));
        QVERIFY2(std::abs(validated.mfu / preset.mfu - 1) < 0.02, qPrintable(QString("MFU %1 vs %2").arg(preset.mfu).arg(validated.mfu)));
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
