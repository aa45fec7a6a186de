// A published layer-table run (ResNet-50 in MLPerf, AlexNet in 2012) as a scenario: the
// built-in table, data parallelism over the stated GPUs (and the row's tp for AlexNet's
// columns), the stated batch, samples as the unit of work. docs/validation.md, "Beyond
// transformers", lists the rows and their sources.
#include "run_to_scenario.h"

#include "../layers/families.h"
#include "../scenario_limits.h"
#include "../scenario_rules.h"
#include "text_match.h"

#include <cmath>

namespace dtsim {

std::variant<Scenario, SkippedRun> layerTableScenarioFromRun(const RunRecord& r, const HardwareSpec& hw)
{
    std::optional<LayerTable> table = builtinLayerTable(r.layerTable);
    if (!table)
        return SkippedRun { "architecture.table \"" + r.layerTable + "\" is not a built-in layer table" };
    Scenario s;
    s.name = r.id;
    s.hardware = hw;
    s.model.name = r.model;
    s.model.table.ref = r.layerTable;
    s.model.table.resolved = resolveLayerTable(std::move(*table));

    TrainingSpec& t = s.training;
    t.seqLen = 1;
    t.precision = runPrecision(r.precision, hw);
    if (!hw.supports(t.precision))
        return SkippedRun { "precision \"" + r.precision + "\" has no peak on " + hw.id };
    const bool mixed = t.precision != Precision::FP32 && t.precision != Precision::TF32;
    t.masterWeightsFp32 = mixed;
    t.gradReduce = mixed ? Precision::FP16 : Precision::FP32; // CNN stacks reduce fp16 gradients (Horovod, MXNet, DDP hooks)
    t.optimizer = text::has(text::lower(r.notes + " " + r.framework), "lamb") || text::has(text::lower(r.notes), "adam")
        ? Optimizer::Adam : Optimizer::Sgd;
    t.graphCapture = text::has(text::lower(r.notes + " " + r.parallelismNotes), "cuda graph");
    if (text::has(text::lower(r.notes), "unfused attention"))
        t.attention = AttentionKernel::Unfused;
    // NVIDIA's MLPerf MXNet ResNet folds batch norm and ReLU into the convolutions (cuDNN
    // fused operations); XLA fuses each norm's elementwise chain, and so does
    // DeepLearningExamples' MXNet ResNet in fp16 (its `runner` passes --fuse-bn-relu 1
    // --fuse-bn-add-relu 1 for float16 only); the eager stacks run every op as a kernel
    // of its own.
    const std::string stack = text::lower(r.framework + " " + r.sourceRef);
    t.convolutionFusion = text::has(stack, "mlperf") && text::has(stack, "mxnet");
    const bool mxnetHalf = text::has(stack, "mxnet") && mixed;
    t.fusedKernels = t.convolutionFusion || mxnetHalf || text::has(text::lower(r.framework), "xla");

    ParallelPlan& p = s.plan;
    // Some MLPerf configs reduce all gradients in one group after backward.
    p.overlapGradReduce = !text::has(text::lower(r.notes), "no gradient overlap");
    p.tp = r.tp.value_or(1);
    if (*r.numGpus % p.tp != 0)
        return SkippedRun { "tp does not divide num_gpus" };
    p.dp = *r.numGpus / p.tp;

    ClusterSpec& c = s.cluster;
    c.gpus = *r.numGpus;
    setLinksFromGpu(c, hw);
    c.gpusPerNode = r.gpusPerNode.value_or(c.gpusPerNode);
    if (c.gpusPerNode < c.scaleUpDomain && hw.scaleUpDomain <= 8)
        c.scaleUpDomain = c.gpusPerNode;
    if (const double bw = perGpuNetworkBandwidth(r.interconnect, c.gpusPerNode); bw > 0)
        c.scaleOutBandwidth = bw;

    const double samples = r.globalBatchSeqs.value_or(0);
    if (samples < 1)
        return SkippedRun { "batch.global_batch_seqs (samples per step) missing" };
    t.microBatch = std::max(1, int(std::lround(r.microBatch.value_or(samples / p.dp))));
    const int micro = std::max(1, int(std::lround(samples / (double(p.dp) * t.microBatch))));
    t.globalBatch = micro * p.dp * t.microBatch;
    t.tokens = 1000.0 * t.globalBatch; // throughput does not depend on the run's length
    if (auto issue = checkScenario(s))
        return SkippedRun { "plan rejected: " + issue->field + ": " + issue->reason };
    return s;
}

} // namespace dtsim
