// The step's inputs and its first phase, the layer costs (step_phases.h).
#include "step_phases.h"

#include "eager_autocast.h"

#include <algorithm>
#include <cmath>

namespace dtsim::step_detail {

StepInputs stepInputs(const Scenario& s, const Calibration& c, const StepOptions& o)
{
    const ParallelPlan& p = s.plan;
    StepInputs in { s, c };
    in.idealized = o.idealized;
    in.r = ratesFor(s, c);
    in.r.idealized = o.idealized;
    if (o.idealized)
        in.r.hostKernel = 0; // Epoch's idealized runs have no framework overhead
    in.eff = commEfficiencyFor(s, c);
    in.eta = c.overlapEfficiency;
    in.mb = std::max(1, microbatchesPerStep(s));
    in.v = p.schedule == Schedule::Interleaved1F1B ? std::max(1, p.virtualStages) : 1;

    in.sh.tokens = double(s.training.microBatch) * s.training.seqLen / p.cp;
    in.sh.normTokens = (p.sequenceParallel && p.tp > 1) ? in.sh.tokens / p.tp : in.sh.tokens;
    in.sh.elem = storageBytes(s.training.precision);

    in.stages = stageLayers(s.model.layers, p);
    in.layersPerStage = in.stages.fullest(); // the slowest stage
    in.moePerStage = std::min(in.layersPerStage, layersOnFullestStage(s.model.moeLayerCount(), p.pp));
    in.densePerStage = in.layersPerStage - in.moePerStage;

    in.dense = layerTimes(s, in.r, in.sh, false);
    in.moe = s.model.isMoe() ? layerTimes(s, in.r, in.sh, true) : LayerTimes {};
    in.attnBack = c.attentionBackwardFactor;
    in.recompute = recomputePlan(s, in.layersPerStage);
    in.counts = countParameters(s.model, s.training.seqLen);
    return in;
}

namespace {

// The embedding lookup (first stage) and the logits and cross-entropy (last stage), per
// micro-batch, into `sc`.
void pipelineEnds(const StepInputs& in, StageCompute& sc)
{
    const Scenario& s = in.s;
    const ModelSpec& m = s.model;
    const TrainingSpec& tr = s.training;
    const Rates& r = in.r;
    const double tokens = in.sh.tokens;
    sc.embedForward = streamTime(r, tokens * m.hidden * in.sh.elem, 1);
    const double vocabLocal = double(m.vocab) / s.plan.tp;
    // FP8 recipes keep the output layer in 16-bit: Megatron-Core's output layer is not a
    // Transformer Engine linear, and torchao's Float8 conversion filters out "output".
    Rates outputRates = r;
    outputRates.gemmPeak = r.halfGemmPeak;
    outputRates.elementBytes = storageBytes(tr.precision);
    if (s.plan.tp > 1) {
        // A vocabulary split over TP is padded to whole shards (Megatron: a multiple of
        // 128 x TP), so each GPU's slice of the output layer is aligned.
        outputRates.aligned8 = outputRates.unaligned = 1.0;
    }
    sc.logitsGemm = gemmTime(outputRates, tokens, vocabLocal, m.hidden);
    const double crossEntropy = streamTime(r, tokens * vocabLocal * 4.0 * 2, 2); // fp32 softmax
    sc.logitsForward = sc.logitsGemm + crossEntropy;
    sc.logitsBackward = 2.0 * sc.logitsGemm + crossEntropy;
    sc.embedBackward = sc.embedForward;
    if (tr.autocast && !tr.fusedKernels) {
        // Eager under autocast: the fp32 table's lookup, and the loss over upcast logits.
        const EagerTraffic embed = autocastEmbeddingTraffic(s, tokens), loss = autocastLossTraffic(s, tokens, vocabLocal);
        sc.embedForward = streamTime(r, embed.forwardBytes, embed.forwardKernels);
        sc.embedBackward = streamTime(r, embed.backwardBytes, embed.backwardKernels);
        sc.logitsForward = sc.logitsGemm + streamTime(r, loss.forwardBytes, loss.forwardKernels);
        sc.logitsBackward = 2.0 * sc.logitsGemm + streamTime(r, loss.backwardBytes, loss.backwardKernels);
    }
}

} // namespace

StageCompute stageCompute(const StepInputs& in)
{
    const ParallelPlan& p = in.s.plan;
    const LayerTimes &dense = in.dense, &moe = in.moe;
    StageCompute sc;
    sc.forward = in.densePerStage * dense.forward() + in.moePerStage * moe.forward();
    sc.backward = in.densePerStage * dense.backward(in.attnBack) + in.moePerStage * moe.backward(in.attnBack);
    const RecomputePlan& plan = in.recompute;
    sc.recompute = plan.layerShare
        * (in.densePerStage * plan.layerRerun(in.s, dense).seconds
            + (in.moePerStage > 0 ? in.moePerStage * plan.layerRerun(in.s, moe).seconds : 0.0));

    pipelineEnds(in, sc);
    if (p.pp == 1) {
        sc.forward += sc.embedForward + sc.logitsForward;
        sc.backward += sc.embedBackward + sc.logitsBackward;
    } else {
        // The slowest stage sets the pipeline's pace: an end stage runs its layers plus the
        // embedding or the output layer and loss (uneven stages give the ends fewer layers).
        const StageLayers& st = in.stages;
        const double layerF = sc.forward / std::max(1, in.layersPerStage);
        const double layerB = sc.backward / std::max(1, in.layersPerStage);
        const double middleF = p.pp > 2 ? st.middle * layerF : 0.0;
        const double middleB = p.pp > 2 ? st.middle * layerB : 0.0;
        sc.forward = std::max({ middleF, st.first * layerF + sc.embedForward, st.last * layerF + sc.logitsForward });
        sc.backward = std::max({ middleB, st.first * layerB + sc.embedBackward, st.last * layerB + sc.logitsBackward });
    }
    return sc;
}

void reportKernels(const StepInputs& in, const StageCompute& sc, StepReport& out)
{
    StepReport::KernelTimes& k = out.kernels;
    const RecomputePlan& plan = in.recompute;
    auto add = [&](const LayerTimes& lt, int layers) {
        const LayerRerun rerun = plan.layerRerun(in.s, lt);
        const double gemm = 3.0 * lt.gemmForward + plan.layerShare * rerun.gemm;
        const double attention = (1.0 + in.attnBack) * lt.attentionForward + plan.layerShare * rerun.attention;
        const double stream = lt.streamForward + lt.streamBackward + plan.layerShare * rerun.stream;
        // In doubles: micro-batches x layers passes int's range at the largest batches.
        const double passes = double(in.mb) * layers;
        k.gemm += passes * gemm;
        k.attention += passes * attention;
        k.stream += passes * stream;
    };
    add(in.dense, in.densePerStage);
    if (in.moePerStage > 0)
        add(in.moe, in.moePerStage);
    if (in.s.plan.pp == 1) {
        k.gemm += in.mb * 3.0 * sc.logitsGemm;
        k.stream += in.mb * (sc.embedForward + sc.embedBackward + sc.logitsForward + sc.logitsBackward - 3.0 * sc.logitsGemm);
    }
}

} // namespace dtsim::step_detail
