#include "layer_step.h"

#include "../step.h"
#include "../step_comm.h"
#include "../step_compression.h"
#include "../step_layer.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

using namespace step_detail;

// A convolution as an implicit GEMM (Chetlur et al. 2014, Sec. 3.1): output pixels x
// output channels x (input channels x kernel area), at the GEMM shape efficiency scaled
// by the generation's convolution kernels against its GEMMs; bound below by streaming
// the input, weights and output once (implicit GEMM never writes the im2col matrix).
struct BoundTime {
    double seconds = 0;
    LayerBound bound = LayerBound::Compute;
};
BoundTime convTime(const Rates& r, double convolutionFraction, double m, double n, double k, double groups, double ioElements)
{
    if (m <= 0 || n <= 0 || k <= 0)
        return {};
    const double rate = r.gemmPeak * gemmEfficiency(*r.eff, m, n, k, r.tileScale) * convolutionFraction;
    const double compute = groups * 2.0 * m * n * k / rate;
    const double memory = (ioElements + groups * k * n) * r.elementBytes / r.memoryRate;
    return { std::max(compute, memory) + r.kernel, memory > compute ? LayerBound::Memory : LayerBound::Compute };
}

// A memory-bound layer's traffic in passes over its input (pooling also writes and,
// in backward, reads its smaller output once, added by the caller), forward and backward,
// counted from what each kernel reads and writes, at three levels of fusion:
// - eager (every op its own kernel: PyTorch, cuDNN's BatchNormalizationForwardTraining):
//   batch norm reads its input for the statistics, again to normalize, and writes (3);
//   backward reads x and dy for the scale and shift gradients, again for dx, and writes
//   dx (5). ReLU reads and writes (2); backward reads y and dy and writes dx (3). A residual
//   add reads two inputs and writes (3); backward passes dy to both branches unchanged,
//   and where they meet again their gradients are summed (3). Pooling reads and writes
//   its output (1 + output); backward zero-fills dx and scatters dy into it (2 + output).
// - elementwise chains fused (XLA, torch.compile, MXNet's BatchNormAddRelu): batch norm
//   still takes a reduction and a normalizing pass (3, backward 5), but the ReLU and the
//   residual add ride in its normalizing pass: the add reads the shortcut (1), and in
//   backward the ReLU's mask reads y (1) and the shortcut's gradient is read where the
//   branches meet (1).
// - convolution fusion (cuDNN fused operations in NVIDIA's MLPerf MXNet ResNet:
//   NormConvolution puts the statistics in the convolution's epilogue and the scale,
//   shift and ReLU in the next convolution's prologue; ScaleBiasAddRelu ends a block;
//   backward runs the NHWC persistent batch-norm(-add-ReLU) kernels, which read x, dy and
//   the ReLU bit mask once and write dx): batch norm costs nothing forward and 3 passes
//   backward, ReLU nothing, a residual add 3 forward (both inputs, the output) and 1
//   backward (the shortcut's dx).
enum class Fusion { Eager, Elementwise, Convolution };

struct MemoryPasses {
    double forward = 0, backward = 0;
    int forwardKernels = 1, backwardKernels = 1;
};

MemoryPasses memoryPasses(const Layer& l, Fusion f)
{
    const bool add = !l.residual.empty();
    switch (l.type) {
    case LayerType::Pooling:
        return { 1, 2, 1, 1 };
    case LayerType::Norm:
        if (!l.affine)
            return { 2, 4, 1, 1 }; // local response norm: read, write; backward twice that
        return f == Fusion::Convolution ? MemoryPasses { 0, 3, 0, 1 } : MemoryPasses { 3, 5, 1, 1 };
    default:
        switch (f) {
        case Fusion::Eager: return add ? MemoryPasses { 3, 3, 1, 1 } : MemoryPasses { 2, 3, 1, 1 };
        case Fusion::Elementwise: return add ? MemoryPasses { 1, 1, 0, 0 } : MemoryPasses { 0, 1, 0, 0 };
        case Fusion::Convolution: return add ? MemoryPasses { 3, 1, 1, 0 } : MemoryPasses { 0, 0, 0, 0 };
        }
    }
    return {};
}

// One layer's work for one micro-batch on one GPU, and the tensor-parallel traffic it adds.
struct LayerWork {
    double forward = 0, backward = 0;
    double commForward = 0, commBackward = 0, commBytes = 0;
    double parameters = 0; // dense, held by this GPU (all-reduced, updated every step)
    double shardedParameters = 0; // embedding tables sharded across the GPUs (updated sparsely, in place)
    double activationBytes = 0;
    int forwardKernels = 1, backwardKernels = 1; // each costs the host a launch in eager stacks
    LayerBound bound = LayerBound::Compute;
};

struct TableWork {
    std::vector<LayerWork> layers;
    double forward = 0, backward = 0, commForward = 0, commBackward = 0, commBytes = 0;
    double tableExchange = 0, tableExchangeBytes = 0; // the sharded embeddings' all-to-alls, both ways
    double parameters = 0, shardedParameters = 0, activationBytes = 0;
};

// One layer of the table as the walk reaches it: its row, its costs, and how its input arrives.
struct LayerAt {
    const Layer& l;
    const LayerCost& lc;
    int src;         // the layer whose output it reads (< 0: the samples)
    bool inputSplit; // that output is split by channels across the TP group
    bool readsData;  // no gradient flows back into the samples themselves
    double inBytes, outBytes;
};

// Walks the table once, tracking which outputs are split by channels across the TP group.
// Each kind of layer has its own member, which fills the layer's work and returns whether
// its output is split.
class TableWalker {
public:
    TableWalker(const Scenario& s, const Calibration& c, const Rates& r, const CommEfficiency& eff, CommReport& tpRep,
        CommReport& tableRep)
        : m_s(s)
        , m_c(c)
        , m_r(r)
        , m_eff(eff)
        , m_tpRep(tpRep)
        , m_tableRep(tableRep)
        , m_tp(s.plan.tp)
        , m_batch(s.training.microBatch)
        , m_elem(storageBytes(s.training.precision))
        , m_tpSpan(groupSpan(s.cluster, m_tp, s.plan.stride(Axis::TP)))
    {
    }

    TableWork walk()
    {
        const ResolvedLayerTable& t = *m_s.model.table.resolved;
        std::vector<char> splitOutput(t.table.layers.size(), 0);
        for (std::size_t i = 0; i < t.table.layers.size(); ++i) {
            const Layer& l = t.table.layers[i];
            const LayerCost& lc = t.cost.layers[i];
            const int src = t.source[i];
            const LayerAt a { l, lc, src, src >= 0 && splitOutput[std::size_t(src)], src < 0,
                lc.input.elements() * m_batch * m_elem, lc.output.elements() * m_batch * m_elem };
            LayerWork w;
            w.parameters = lc.parameters;
            w.activationBytes = lc.activationElements * m_batch * m_elem;
            switch (l.type) {
            case LayerType::Convolution:
            case LayerType::Linear: splitOutput[i] = matrixWork(a, w); break;
            case LayerType::Embedding: embeddingWork(a, w); break;
            case LayerType::Interaction: interactionWork(a, w); break;
            case LayerType::Attention: splitOutput[i] = attentionWork(a, w); break;
            case LayerType::Pooling:
            case LayerType::Norm:
            case LayerType::Elementwise: splitOutput[i] = memoryBoundWork(a, w); break;
            }
            // The host issues the layer's kernels one by one unless the step is captured.
            if (w.forwardKernels > 0 && m_r.hostKernel * w.forwardKernels > w.forward)
                w.bound = LayerBound::Launch;
            w.forward = std::max(w.forward, w.forwardKernels * m_r.hostKernel);
            w.backward = std::max(w.backward, w.backwardKernels * m_r.hostKernel);
            add(w);
        }
        return m_out;
    }

private:
    CommOp tpComm(CollectiveKind kind, double bytes)
    {
        return m_tp > 1 && bytes > 0 ? comm(kind, bytes, m_tpSpan, m_s, m_eff, m_tpRep) : CommOp {};
    }

    void add(const LayerWork& w)
    {
        m_out.forward += w.forward;
        m_out.backward += w.backward;
        m_out.commForward += w.commForward;
        m_out.commBackward += w.commBackward;
        m_out.commBytes += w.commBytes;
        m_out.parameters += w.parameters;
        m_out.shardedParameters += w.shardedParameters;
        m_out.activationBytes += w.activationBytes;
        m_out.layers.push_back(w);
    }

    // A convolution or a linear layer, its output channels split across the TP group when
    // the table says so.
    bool matrixWork(const LayerAt& a, LayerWork& w)
    {
        const Layer& l = a.l;
        const LayerCost& lc = a.lc;
        const int tp = m_tp;
        const double batch = m_batch;
        const bool splitHere = l.split == LayerSplit::Channels && tp > 1;
        // AlexNet's columns: a grouped convolution whose groups line up with the GPUs
        // reads only its own GPU's channels; any other layer reading a split input
        // gathers it (and reduce-scatters its gradient in backward).
        const bool local = splitHere && l.type == LayerType::Convolution && l.groups % tp == 0;
        if (a.inputSplit && !local) {
            const CommOp gather = tpComm(CollectiveKind::AllGather, a.inBytes);
            const CommOp scatter = tpComm(CollectiveKind::ReduceScatter, a.inBytes);
            w.commForward = gather.seconds;
            w.commBackward = scatter.seconds;
            w.commBytes = gather.bytesSent + scatter.bytesSent;
        } else if (splitHere && !a.inputSplit && !a.readsData) {
            // Each GPU's share of the output channels sends a partial input gradient.
            const CommOp reduce = tpComm(CollectiveKind::AllReduce, a.inBytes);
            w.commBackward = reduce.seconds;
            w.commBytes = reduce.bytesSent;
        }
        const double share = splitHere ? 1.0 / tp : 1.0;
        w.parameters *= share;
        if (l.type == LayerType::Convolution) {
            const double m = batch * double(lc.output.height) * double(lc.output.width);
            const double k = double(lc.input.channels / l.groups) * double(l.kernel) * double(l.kernel);
            const double groupsHere = local ? double(l.groups) / tp : double(l.groups);
            const double n = double(l.outChannels) / l.groups * (local ? 1.0 : share);
            const double io = (lc.input.elements() * (local ? share : 1.0) + lc.output.elements() * share) * batch;
            const BoundTime t = convTime(m_r, m_r.eff->convolutionFraction, m, n, k, groupsHere, io);
            w.forward = t.seconds;
            w.bound = t.bound;
        } else {
            w.forward = gemmTime(m_r, batch, double(l.outChannels) * share, lc.input.elements());
        }
        // Backward: the weight gradient, and the data gradient unless the input is the samples.
        w.backward = w.forward * (a.readsData ? 1.0 : 2.0);
        w.backwardKernels = a.readsData ? 1 : 2;
        if (a.inputSplit && local)
            w.activationBytes /= tp; // otherwise the gathered input is kept whole
        return splitHere;
    }

    // Sharded by table across every GPU (DLRM's hybrid parallelism, Naumov et al.
    // 2019, Sec. 3): each GPU looks up its tables for all the step's samples (the
    // same bytes as every table for its own samples), then an all-to-all hands
    // each GPU its samples' pooled vectors, and back in backward.
    void embeddingWork(const LayerAt& a, LayerWork& w)
    {
        const Scenario& s = m_s;
        const bool sharded = a.l.split == LayerSplit::Tables && s.plan.gpus() > 1;
        const double lookupBytes = double(a.l.lookups) * double(a.l.dim) * m_batch * m_elem;
        w.forward = streamTime(m_r, lookupBytes + a.outBytes, 1);
        w.backward = 2.0 * w.forward; // the rows' gradients added in place (sparse update)
        w.bound = LayerBound::Memory;
        if (sharded) {
            const GroupSpan world = groupSpan(s.cluster, int(s.plan.gpus()), 1);
            const CommOp a2a = comm(CollectiveKind::AllToAll, a.outBytes, world, s, m_eff, m_tableRep);
            m_tableRep.groupSize = int(s.plan.gpus());
            m_out.tableExchange += 2 * a2a.seconds;
            m_out.tableExchangeBytes += 2 * a2a.bytesSent;
            w.shardedParameters = w.parameters / double(s.plan.gpus());
            w.parameters = 0;
        }
    }

    // Pairwise dots of n vectors of width d (the layer's input holds them side by
    // side): one (n x d)(d x n) product a sample, batched over the micro-batch, so
    // the batch fills the GPU and only the padding of n and d to the 16 x 16 x 16
    // tensor-core fragments NVIDIA's dot-interaction kernels use is lost (not the
    // shape efficiency of one tiny GEMM); bound by reading the vectors and writing
    // the result.
    void interactionWork(const LayerAt& a, LayerWork& w) const
    {
        const Rates& r = m_r;
        const double batch = m_batch, elem = m_elem;
        const double n = double(a.l.inputs.size()), d = double(a.lc.input.channels) / n;
        auto padded = [](double x) { return x / (16.0 * std::ceil(x / 16.0)); };
        const double efficiency = r.eff->peakFraction * padded(n) * padded(n) * padded(d);
        const double compute = a.lc.forwardFlops * batch / (r.gemmPeak * efficiency);
        const double bytes = (n * d + a.lc.output.channels) * batch * elem;
        w.forward = std::max(compute, bytes / r.memoryRate) + r.kernel;
        w.backward = 2.0 * w.forward;
        w.activationBytes = n * d * batch * elem;
        w.bound = compute >= bytes / r.memoryRate ? LayerBound::Compute : LayerBound::Memory;
    }

    // FlashAttention-class kernels (the generation's fused-attention rate, as for a
    // transformer: step_layer.cpp) on each head's positions; heads split with their
    // channels. Backward recomputes the scores (attention_backward_factor).
    bool attentionWork(const LayerAt& a, LayerWork& w) const
    {
        const Layer& l = a.l;
        const LayerCost& lc = a.lc;
        const Rates& r = m_r;
        const double batch = m_batch;
        const double share = a.inputSplit ? 1.0 / m_tp : 1.0;
        const double positions = double(lc.input.height) * double(lc.input.width);
        const double keys = lc.keyPositions > 0 ? lc.keyPositions : positions; // cross-attention: the memory's
        const double headDim = double(lc.output.channels) / double(l.heads);
        const double headShape = headDim / (headDim + r.attentionHalfHeadDim);
        const double lengthShape = r.attentionHalfSeq > 0 ? keys / (keys + r.attentionHalfSeq) : 1.0;
        if (m_s.training.fusedAttention()) {
            const double rate = m_s.training.attention == AttentionKernel::Native ? r.nativeAttentionRate : r.attentionRate;
            w.forward = lc.forwardFlops * batch * share / (rate * headShape * lengthShape) + r.kernel;
            w.backward = m_c.attentionBackwardFactor * (w.forward - r.kernel) + r.kernel;
        } else {
            // Unfused (before FlashAttention): Q.K^T and A.V as batched GEMMs per head,
            // the scores written by the first, read and rewritten by the softmax, read
            // by the second (as for a transformer: step_layer.cpp); backward twice that.
            // A causal mask still computes and stores every score.
            const double heads = double(l.heads) * share;
            const double flops = lc.forwardFlops * (l.causal ? 2.0 : 1.0);
            const double gemm = flops * batch * share / (r.gemmPeak * gemmEfficiency(*r.eff, positions, keys, headDim, r.tileScale));
            const double scores = batch * heads * positions * keys * m_elem;
            w.forward = gemm + streamTime(r, 4 * scores, 1) + 2 * r.kernel;
            w.backward = 2 * w.forward;
            w.activationBytes += scores; // the softmax output is kept for backward
        }
        w.activationBytes *= share;
        return a.inputSplit;
    }

    // Pooling, norms and elementwise layers: passes over memory (see memoryPasses), or
    // the vector units' arithmetic where that is slower.
    bool memoryBoundWork(const LayerAt& a, LayerWork& w) const
    {
        const Layer& l = a.l;
        const Rates& r = m_r;
        const TrainingSpec& tr = m_s.training;
        const double share = a.inputSplit ? 1.0 / m_tp : 1.0;
        // A layer reading the samples themselves has nothing to fold into.
        const Fusion fusion = a.src < 0 ? Fusion::Eager
            : tr.convolutionFusion      ? Fusion::Convolution
            : tr.fusedKernels           ? Fusion::Elementwise : Fusion::Eager;
        const MemoryPasses passes = memoryPasses(l, fusion);
        const double pooledOutput = l.type == LayerType::Pooling ? a.outBytes : 0.0;
        w.forward = passes.forward > 0 ? streamTime(r, (passes.forward * a.inBytes + pooledOutput) * share, passes.forwardKernels) : 0.0;
        w.backward = passes.backward > 0 ? streamTime(r, (passes.backward * a.inBytes + pooledOutput) * share, passes.backwardKernels) : 0.0;
        // Fused or not, the arithmetic runs somewhere: at most at the vector units'
        // peak (backward: twice the forward FLOPs, as the model counts them).
        const double arithmetic = r.vectorRate > 0 ? a.lc.forwardFlops * m_batch * share / r.vectorRate : 0.0;
        w.forward = std::max(w.forward, arithmetic);
        w.backward = std::max(w.backward, 2 * arithmetic);
        w.forwardKernels = passes.forwardKernels;
        w.backwardKernels = passes.backwardKernels;
        w.bound = passes.forwardKernels + passes.backwardKernels == 0 ? LayerBound::Fused : LayerBound::Memory;
        w.parameters *= share;
        // In place: ReLU and residual adds overwrite their input (the next layer keeps
        // it); norms and pooling keep theirs.
        w.activationBytes = l.type == LayerType::Elementwise ? 0.0 : w.activationBytes * share;
        return a.inputSplit;
    }

    const Scenario& m_s;
    const Calibration& m_c;
    const Rates& m_r;
    const CommEfficiency& m_eff;
    CommReport& m_tpRep;
    CommReport& m_tableRep;
    const int m_tp;
    const double m_batch; // sequences or samples per micro-batch
    const double m_elem;  // bytes per activation element
    const GroupSpan m_tpSpan;
    TableWork m_out;
};

TableWork tableWork(const Scenario& s, const Calibration& c, const Rates& r, const CommEfficiency& eff, CommReport& tpRep, CommReport& tableRep)
{
    return TableWalker(s, c, r, eff, tpRep, tableRep).walk();
}

// The memory of the walked table (the step has walked it already).
MemoryReport memoryOf(const Scenario& s, const Calibration& c, const TableWork& work)
{
    const ParallelPlan& p = s.plan;
    const TrainingSpec& tr = s.training;
    const bool mixed = tr.precision != Precision::FP32 && tr.precision != Precision::TF32;
    const double masterBytes = (mixed && tr.masterWeightsFp32) ? 4.0 : 0.0;
    // SGD with momentum keeps one fp32 state, Adam two.
    const double stateBytes = (tr.optimizer == Optimizer::Adam ? 8.0 : 4.0) + masterBytes;
    auto shard = [&](int minStage) { return p.zeroStage >= minStage ? work.parameters / p.dp : work.parameters; };
    MemoryReport m;
    // Sharded embedding tables: fp32 rows, updated in place by their sparse gradients
    // (no dense gradient, no optimizer state).
    m.weights = work.parameters * storageBytes(tr.precision) + work.shardedParameters * 4.0;
    m.gradients = shard(2) * storageBytes(tr.gradReduce);
    m.optimizer = shard(1) * stateBytes;
    m.activations = work.activationBytes;
    m.compression = compressionStateBytes(s, work.parameters, p.dp);
    const double allocated = m.weights + m.gradients + m.optimizer + m.activations + m.compression;
    m.reserved = c.forGeneration(s.hardware.generation).reservedMemoryBytes + c.allocatorOverhead * allocated;
    m.total = allocated + m.reserved;
    m.capacity = s.hardware.memoryBytes;
    m.inflightMicrobatches = 1;
    m.fits = m.total <= m.capacity;
    return m;
}


} // namespace

StepReport predictLayerTableStep(const Scenario& s, const Calibration& c, bool idealized)
{
    const ParallelPlan& p = s.plan;
    const TrainingSpec& tr = s.training;
    Rates r = ratesFor(s, c);
    if (idealized)
        r.hostKernel = 0;
    const CommEfficiency eff = commEfficiencyFor(s, c);
    const double eta = c.overlapEfficiency;

    StepReport out;
    const int mb = std::max(1, tr.globalBatch / std::max(1, p.dp * tr.microBatch));
    out.microbatches = mb;
    auto& tpRep = out.comm[idx(CommGroup::TP)];
    auto& dpRep = out.comm[idx(CommGroup::DP)];
    auto& tableRep = out.comm[idx(CommGroup::EP)]; // the embeddings' all-to-all, as expert parallelism's
    const TableWork work = tableWork(s, c, r, eff, tpRep, tableRep);

    // Tensor (column) parallel exchanges sit between layers: nothing to hide them behind.
    const double tpMb = work.commForward + work.commBackward;
    StepBreakdown& b = out.breakdown;
    b.forward = mb * work.forward;
    b.backward = mb * work.backward;
    b.exposedComm[idx(CommGroup::TP)] = mb * tpMb;
    tpRep.totalSeconds = tpRep.exposedSeconds = mb * tpMb;
    tpRep.bytesPerGpu = mb * work.commBytes;
    b.exposedComm[idx(CommGroup::EP)] = mb * work.tableExchange;
    tableRep.totalSeconds = tableRep.exposedSeconds = mb * work.tableExchange;
    tableRep.bytesPerGpu = mb * work.tableExchangeBytes;

    // Data parallel: the gradients are reduced in buckets as backward produces them
    // (PyTorch DDP, Horovod, MXNet's kvstore), so all but the last bucket can hide behind
    // the last micro-batch's backward.
    const double gradBytes = wireBytesPerValue(tr);
    const double paramBytes = storageBytes(tr.precision);
    double dpTotal = 0, dpBytes = 0;
    if (p.dp > 1 && work.parameters > 0) {
        const GroupSpan g = groupSpan(s.cluster, p.dp, p.stride(Axis::DP));
        const GradCompression method = tr.gradCompression;
        if (method == GradCompression::Fp8)
            b.compression = fp8CastSeconds(r, work.parameters, storageBytes(tr.gradReduce));
        if (p.zeroStage == 0 && method != GradCompression::None && method != GradCompression::Fp8) {
            const GradMatrices mats = gradMatrices(s, work.parameters, 0.0).part(work.parameters);
            const CompressedSync cs = compressedAllReduce(s, r, eff, g, mats, storageBytes(tr.gradReduce), dpRep);
            dpTotal = cs.commSeconds;
            dpBytes = cs.bytesSent;
            b.compression = cs.compute;
        } else if (p.zeroStage == 0) {
            const CommOp ar = comm(CollectiveKind::AllReduce, work.parameters * gradBytes, g, s, eff, dpRep);
            dpTotal = ar.seconds;
            dpBytes = ar.bytesSent;
        } else {
            const CommOp rs = comm(CollectiveKind::ReduceScatter, work.parameters * gradBytes, g, s, eff, dpRep);
            const CommOp ag = comm(CollectiveKind::AllGather, work.parameters * paramBytes, g, s, eff, dpRep);
            dpTotal = rs.seconds + ag.seconds;
            dpBytes = rs.bytesSent + ag.bytesSent;
        }
        dpRep.groupSize = p.dp;
        dpRep.domains = g.domains;
    }
    const double gradientBytes = work.parameters * gradBytes;
    const double lastBucket = gradientBytes > 0 ? std::min(1.0, c.layerTableBucketBytes / gradientBytes) : 1.0;
    const double dpExposed = p.overlapGradReduce ? std::max(dpTotal - eta * work.backward, dpTotal * lastBucket) : dpTotal;
    b.exposedComm[idx(CommGroup::DP)] = dpExposed;
    dpRep.totalSeconds = dpTotal;
    dpRep.exposedSeconds = dpExposed;
    dpRep.bytesPerGpu = dpBytes;

    const double optParams = work.parameters / (p.zeroStage >= 1 ? p.dp : 1);
    b.optimizer = streamTime(r, optParams * c.optimizerBytesPerParam * (tr.optimizer == Optimizer::Adam ? 1.0 : 0.5), 4);
    b.overhead = s.training.graphCapture ? c.capturedStepOverhead : c.stepOverhead;
    const double hidden = std::max(0.0, dpTotal - dpExposed);
    b.contention = (dpRep.span.domains > 1 ? c.overlapSlowdownScaleOut : c.overlapSlowdown) * hidden;
    if (idealized) {
        b.exposedComm[idx(CommGroup::DP)] = std::max(0.0, dpTotal - b.forward - b.backward);
        b.optimizer = b.overhead = b.contention = 0;
    }

    // The host's input pipeline (decode and augment) runs ahead of the GPUs; the step
    // waits for it only when it is slower. The GPUs of one TP group share their samples.
    const double inputRate = tr.loaderCoresPerGpu * tr.loaderSamplesPerCore * p.tp; // per replica
    if (inputRate > 0) {
        const double inputTime = double(tr.globalBatch) / p.dp / inputRate;
        b.inputStall = std::max(0.0, inputTime - b.sum());
    }

    out.pipeline.forward = work.forward + work.commForward + work.tableExchange / 2;
    out.pipeline.backward = work.backward + work.commBackward + work.tableExchange / 2;
    out.pipeline.forwardCollectives = work.commForward + work.tableExchange / 2;
    out.pipeline.backwardCollectives = work.commBackward + work.tableExchange / 2;
    out.pipeline.layers = int(work.layers.size());
    out.pipeline.gradientBuckets = std::max(1.0, std::ceil(gradientBytes / c.layerTableBucketBytes));
    out.stepTime = b.sum();

    const double samples = tr.globalBatch;
    out.modelFlopsPerStep = 3.0 * s.model.table.resolved->cost.forwardFlops * samples;
    out.hardwareFlopsPerStep = out.modelFlopsPerStep;
    out.peakFlopsPerGpu = s.hardware.peak(tr.precision);
    const double gpus = double(p.gpus());
    out.tokensPerSecond = samples / out.stepTime;
    out.tflopsPerGpu = out.modelFlopsPerStep / out.stepTime / gpus / 1e12;
    out.mfu = out.hfu = out.modelFlopsPerStep / (out.stepTime * gpus * out.peakFlopsPerGpu);
    out.memory = memoryOf(s, c, work);
    return out;
}

std::vector<LayerTiming> layerTableProfile(const Scenario& s, const Calibration& c)
{
    CommReport tpRep, tableRep;
    const CommEfficiency eff = commEfficiencyFor(s, c);
    const TableWork work = tableWork(s, c, ratesFor(s, c), eff, tpRep, tableRep);
    const ResolvedLayerTable& t = *s.model.table.resolved;
    std::vector<LayerTiming> rows;
    rows.reserve(work.layers.size());
    for (std::size_t i = 0; i < work.layers.size(); ++i) {
        const LayerWork& w = work.layers[i];
        rows.push_back({ t.table.layers[i].name, t.table.layers[i].type, w.forward, w.backward, w.commForward + w.commBackward,
            t.cost.layers[i].forwardFlops * s.training.microBatch, w.bound });
    }
    return rows;
}

const char* layerBoundName(LayerBound b)
{
    switch (b) {
    case LayerBound::Compute: return "compute";
    case LayerBound::Memory: return "memory";
    case LayerBound::Launch: return "launch";
    case LayerBound::Fused: return "fused";
    }
    return "?";
}

MemoryReport layerTableMemory(const Scenario& s, const Calibration& c)
{
    CommReport scratch, scratchTables;
    return memoryOf(s, c, tableWork(s, c, ratesFor(s, c), CommEfficiency {}, scratch, scratchTables));
}

} // namespace dtsim
