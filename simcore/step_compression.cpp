// Gradient compression's wire traffic and GPU time (step_compression.h).
#include "step_compression.h"

#include <algorithm>
#include <cmath>

namespace dtsim::step_detail {

namespace {

// The GPU runs no faster than the host issues its kernels: the compression hooks run
// eagerly, kernel by kernel (PyTorch's DDP comm hooks, DeepSpeed's onebit optimizers).
double issued(const Rates& r, double gpuSeconds, double kernels)
{
    return std::max(gpuSeconds, kernels * r.hostKernel);
}

// PowerSGD (Vogels et al. 2019, Algorithm 1, one warm-started power iteration): per n x m
// matrix M (with the error e added back), P = M Q, all-reduce P, orthogonalize P, Q = M^T P,
// all-reduce Q, then M' = P Q^T and e = M - M'. Rank r sends r(n + m) values instead of n m,
// in two all-reduces one after the other (Q needs the reduced P). The sums over the
// matrices are taken as count typical n x n matrices of the same total size; P and Q each
// carry half of r sum(n + m). Vectors ride with P.
CompressedSync powerSgd(const Scenario& s, const Rates& r, const CommEfficiency& eff, const GroupSpan& span,
    const GradMatrices& g, double elem, CommReport& rep)
{
    const int rank = std::max(1, s.training.gradCompressionRank);
    const double factor = 0.5 * rank * g.sides;
    const CommOp p = comm(CollectiveKind::AllReduce, (factor + g.vectors) * elem, span, s, eff, rep);
    const CommOp q = comm(CollectiveKind::AllReduce, factor * elem, span, s, eff, rep);
    CompressedSync out { p.seconds + q.seconds, p.bytesSent + q.bytesSent, 0.0 };
    if (g.matrices <= 0)
        return out;
    // The factors are computed in the gradients' format: fp32 gradients run fp32 GEMMs.
    Rates gr = r;
    gr.elementBytes = elem;
    if (elem >= 4 && s.hardware.supports(Precision::FP32))
        gr.gemmPeak = s.hardware.peak(Precision::FP32);
    const double n = g.typicalSide();
    // M Q and M^T P read M (n x n) to make a thin n x r result; P Q^T writes M' back.
    const double gemms = 2.0 * gemmTime(gr, n, rank, n) + gemmTime(gr, n, n, rank);
    // Gram-Schmidt over P's r columns: each normalized, then projected out of the rest
    // (about 4 small kernels a column, reading what is left of P three times).
    const double orthoBytes = 1.5 * n * rank * rank * elem;
    const double orthoKernels = 4.0 * rank;
    // Error feedback: M + e before compressing, e = M - M' after (read two, write one, twice).
    const double feedbackBytes = 6.0 * n * n * elem;
    const double gpu = g.matrices * (gemms + streamTime(r, orthoBytes + feedbackBytes, int(orthoKernels) + 2));
    out.compute = issued(r, gpu, g.matrices * (3.0 + orthoKernels + 2.0));
    return out;
}

// 1-bit Adam/LAMB (Tang et al. 2021, Sec. 4; DeepSpeed's compressed_allreduce): each GPU
// adds its error to the momentum, sends signs (1 bit a value) and one fp32 scale per chunk
// to the chunk's owner (an all-to-all), the owner averages, recompresses with its own
// error and all-gathers the signs back: not a ring all-reduce. The first `warm-up` share of
// the steps runs plain Adam with full-precision all-reduces; the step reported is the run's
// average step.
CompressedSync oneBit(const Scenario& s, const Rates& r, const CommEfficiency& eff, const GroupSpan& span,
    const GradMatrices& g, double elem, CommReport& rep)
{
    const double values = g.total();
    const double p = std::max(1, span.size);
    const double packed = values / 8.0 + 4.0 * p;
    const CommOp full = comm(CollectiveKind::AllReduce, values * elem, span, s, eff, rep);
    const CommOp gather = comm(CollectiveKind::AllToAll, packed, span, s, eff, rep);
    const CommOp back = comm(CollectiveKind::AllGather, packed, span, s, eff, rep);
    const double w = std::clamp(s.training.gradCompressionWarmup, 0.0, 1.0);
    // fp32 passes: error added (read 2, write 1), the scale's norm (1), signs packed (1),
    // the error kept (read 2, write 1); the owner does the same to its 1/p chunk; the
    // gathered signs are unpacked into the momentum (a write).
    const double bytes = values * 4.0 * (8.0 + 8.0 / p + 1.0) + 2.0 * values / 8.0;
    const double compressed = issued(r, streamTime(r, bytes, 10), 10.0);
    return { w * full.seconds + (1 - w) * (gather.seconds + back.seconds),
        w * full.bytesSent + (1 - w) * (gather.bytesSent + back.bytesSent), (1 - w) * compressed };
}

// int8: PyTorch's quantization_pertensor_hook for DDP. Quantized values cannot be summed in
// a ring, so each GPU all-gathers every GPU's int8 copy, dequantizes all p of them to fp32
// and averages: traffic and decompression grow with the group.
CompressedSync int8Gather(const Scenario& s, const Rates& r, const CommEfficiency& eff, const GroupSpan& span,
    const GradMatrices& g, double elem, CommReport& rep)
{
    const double values = g.total();
    const double p = std::max(1, span.size);
    const CommOp gather = comm(CollectiveKind::AllGather, p * values, span, s, eff, rep);
    // amax and quantize (read twice, write a byte); p copies read as bytes, written and
    // summed as fp32; the mean written back.
    const double bytes = values * (2.0 * elem + 1.0) + p * values * (1.0 + 8.0) + values * elem;
    return { gather.seconds, gather.bytesSent, issued(r, streamTime(r, bytes, 6), 6.0) };
}

} // namespace

double wireBytesPerValue(const TrainingSpec& t)
{
    return t.gradCompression == GradCompression::Fp8 ? 1.0 : storageBytes(t.gradReduce);
}

double fp8CastSeconds(const Rates& r, double params, double heldBytes)
{
    return issued(r, streamTime(r, params * (3.0 * heldBytes + 2.0), 3), 3.0);
}

CompressedSync compressedAllReduce(const Scenario& s, const Rates& r, const CommEfficiency& eff, const GroupSpan& span,
    const GradMatrices& g, double gradBytes, CommReport& rep)
{
    switch (s.training.gradCompression) {
    case GradCompression::PowerSgd: return powerSgd(s, r, eff, span, g, gradBytes, rep);
    case GradCompression::OneBit: return oneBit(s, r, eff, span, g, gradBytes, rep);
    case GradCompression::Int8: return int8Gather(s, r, eff, span, g, gradBytes, rep);
    case GradCompression::Fp8: {
        const CommOp ar = comm(CollectiveKind::AllReduce, g.total() * 1.0, span, s, eff, rep);
        return { ar.seconds, ar.bytesSent, fp8CastSeconds(r, g.total(), gradBytes) };
    }
    case GradCompression::None: break;
    }
    const CommOp ar = comm(CollectiveKind::AllReduce, g.total() * gradBytes, span, s, eff, rep);
    return { ar.seconds, ar.bytesSent, 0.0 };
}

} // namespace dtsim::step_detail
