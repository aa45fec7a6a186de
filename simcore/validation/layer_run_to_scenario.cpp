// A published layer-table run (ResNet-50 in MLPerf, AlexNet in 2012) as a scenario: the
// built-in table, data parallelism over the stated GPUs (and the row's tp for AlexNet's
// columns), the stated batch, samples as the unit of work. docs/validation.md, "Beyond
// transformers", lists the rows and their sources.
#include "run_to_scenario.h"

#include "../layers/families.h"
#include "../scenario_limits.h"
#include "../scenario_rules.h"
#include "text_match.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace dtsim {

namespace {

// A Tesla K80 is two GK210 GPUs on one board, and the catalogue describes the board
// (resources/hardware/k80.yaml: 2 x 2,496 cores, 2 x 12 GB, 2 x 240 GB/s); frameworks and
// clouds count each GK210 as a GPU. A row that runs one process a GK210 gets half the
// board's FLOP/s, memory, bandwidth and power.
HardwareSpec oneGk210(HardwareSpec board)
{
    for (double& peak : board.peakDenseFlops)
        peak /= 2;
    board.memoryBytes /= 2;
    board.memoryBandwidth /= 2;
    board.tdpWatts /= 2;
    board.idleWatts /= 2;
    board.name += ", one GK210";
    return board;
}

// "powersgd rank N" in a row's notes: the run compressed its gradients with PowerSGD.
void compressionFromNotes(TrainingSpec& t, const std::string& notes)
{
    const std::string n = text::lower(notes);
    const auto at = n.find("powersgd rank ");
    if (at == std::string::npos)
        return;
    t.gradCompression = GradCompression::PowerSgd;
    t.gradCompressionRank = std::max(1, std::atoi(n.c_str() + at + std::strlen("powersgd rank ")));
}

} // namespace

std::variant<Scenario, SkippedRun> layerTableScenarioFromRun(const RunRecord& r, const HardwareSpec& hw)
{
    std::optional<LayerTable> table = builtinLayerTable(r.layerTable);
    if (!table)
        return SkippedRun { "architecture.table \"" + r.layerTable + "\" is not a built-in layer table" };
    Scenario s;
    s.name = r.id;
    const bool gk210 = hw.id == "k80" && text::has(text::lower(r.accelerator), "gk210");
    s.hardware = gk210 ? oneGk210(hw) : hw;
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
    compressionFromNotes(t, r.notes);
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
