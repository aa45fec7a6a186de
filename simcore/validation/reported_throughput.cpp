#include "reported_throughput.h"

#include "framework_facts.h"
#include "text_match.h"

namespace dtsim {

using text::has;
using text::lower;

FlopRule flopRuleOf(const std::string& flopsAccounting)
{
    const std::string f = lower(flopsAccounting);
    if (has(f, "6nd") || has(f, "6*n*d") || has(f, "6n "))
        return FlopRule::SixN;
    if (has(f, "eq. 3") || has(f, "96*b*s*l*h") || has(f, "hardware flops") || has(f, "hardware tflops")
        || has(f, "hfu-style") || has(f, "counts the activation-recomputation"))
        return FlopRule::HardwareFullAttention;
    return FlopRule::ModelFullAttention;
}

FlopRule flopRuleOf(const RunRecord& r)
{
    const bool unstated = text::lower(r.flopsAccounting).rfind("not stated", 0) == 0;
    if (unstated && logsNeoxFlops(r))
        return FlopRule::NeoxLogged;
    return flopRuleOf(r.flopsAccounting);
}

double sourceFlopsPerToken(const Scenario& s, FlopRule rule)
{
    const ModelSpec& m = s.model;
    const int seq = s.training.seqLen;
    if (rule == FlopRule::SixN)
        return 6.0 * countParameters(m, seq).active;
    if (rule == FlopRule::NeoxLogged) // get_flops: ff = total_params * 6, attn = s * h * L * 60
        return 6.0 * countParameters(m, seq).total + 60.0 * seq * m.hidden * m.layers;
    const SourceForwardFlops f = sourceForwardFlopsPerToken(s);
    const double layers = f.layers;
    double perToken = 3.0 * (layers + f.logits);
    if (rule == FlopRule::HardwareFullAttention && s.plan.recompute == Recompute::Full)
        perToken += layers; // the recomputed forward, logits excluded (Eq. 3)
    return perToken;
}

SourceForwardFlops sourceForwardFlopsPerToken(const Scenario& s)
{
    const ModelSpec& m = s.model;
    const int seq = s.training.seqLen;
    const ForwardFlops f = forwardFlopsPerToken(m, seq);
    const double attentionFull = m.layers * 4.0 * m.queryDim() * seq;
    return { f.denseMatmul + f.expertMatmul + attentionFull, f.logits };
}

std::optional<MeasuredTokens> measuredTokensPerGpu(const RunRecord& r, const Scenario& s)
{
    const double gpus = s.plan.gpus();
    const double tokensPerStep = s.training.tokensPerStep();
    if (r.tokensPerSPerGpu)
        return MeasuredTokens { *r.tokensPerSPerGpu, "tokens_per_s_per_gpu" };
    if (r.tokensPerS)
        return MeasuredTokens { *r.tokensPerS / gpus, "tokens_per_s" };
    if (r.stepTime && *r.stepTime > 0) {
        // The run's own batch (before dtsim rounds micro-batches).
        double tokens = r.globalBatchTokens.value_or(0);
        if (tokens <= 0 && r.globalBatchSeqs)
            tokens = *r.globalBatchSeqs * s.training.seqLen;
        if (tokens <= 0)
            tokens = tokensPerStep;
        return MeasuredTokens { tokens / *r.stepTime / gpus, "step_time_s" };
    }
    if (r.samplesPerS)
        return MeasuredTokens { *r.samplesPerS * s.training.seqLen / gpus, "samples_per_s" };
    return std::nullopt;
}

ReportedThroughput reportedThroughput(const RunRecord& r, const Scenario& s)
{
    if (const std::optional<MeasuredTokens> t = measuredTokensPerGpu(r, s))
        return { t->tokensPerSecondPerGpu, t->basis };
    const FlopRule rule = flopRuleOf(r);
    const bool fp8 = s.training.precision == Precision::FP8;
    double peak = (fp8 ? r.peakFp8Tflops : r.peakBf16Tflops).value_or(0) * 1e12;
    if (peak <= 0)
        peak = s.hardware.peak(s.training.precision);
    double flopRate = 0;
    std::string basis;
    if (r.tflopsPerGpu) {
        flopRate = *r.tflopsPerGpu * 1e12;
        basis = "tflops_per_gpu";
    } else if (r.mfu) {
        flopRate = *r.mfu * peak;
        basis = "mfu";
    } else if (r.pctOfPeak) {
        flopRate = *r.pctOfPeak * peak;
        basis = "pct_of_peak";
    } else if (r.hfu) {
        flopRate = *r.hfu * peak;
        basis = "hfu";
        Scenario withRecompute = s;
        return { flopRate / sourceFlopsPerToken(withRecompute, FlopRule::HardwareFullAttention), basis };
    }
    if (flopRate > 0)
        return { flopRate / sourceFlopsPerToken(s, rule), basis + " via the source's FLOP rule" };
    if (r.derivedTokensPerSPerGpu)
        return { *r.derivedTokensPerSPerGpu, "derived.tokens_per_s_per_gpu" };
    if (r.derivedSamplesPerS)
        return { *r.derivedSamplesPerS * s.training.seqLen / s.plan.gpus(), "derived.samples_per_s" };
    return { std::nullopt, "no throughput, TFLOP/s, MFU or HFU reported" };
}

} // namespace dtsim
