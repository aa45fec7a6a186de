#pragma once
// The measured throughput of a published run in tokens/s per GPU, obtained from what
// the source reported, converting TFLOP/s, MFU or HFU with that source's own FLOP rule.
#include "../scenario.h"
#include "../loader/run_record.h"

#include <optional>
#include <string>

namespace dtsim {

// How a source counted FLOPs, read from its flops_accounting text.
enum class FlopRule {
    ModelFullAttention,    // 3 x forward, attention counted non-causal (Megatron-Core, PaLM, MaxText)
    HardwareFullAttention, // plus the recomputed forward when recompute is on (Narayanan Eq. 3, BLOOM)
    SixN,                  // 6 x parameters
    NeoxLogged,            // 6 x parameters + 60 s h L (GPT-NeoX's logger, 2021-2022)
};

// The rule a flops_accounting text names.
FlopRule flopRuleOf(const std::string& flopsAccounting);
// The run's rule: its flops_accounting, unless that says the source did not state one
// and the framework's own logging code is known (framework_facts).
FlopRule flopRuleOf(const RunRecord& r);

// FLOPs per trained token under a source's rule, for the run's model and recompute.
double sourceFlopsPerToken(const Scenario& s, FlopRule rule);

// Forward FLOPs per token as the sources count them: attention full (4 qd s per layer,
// not dtsim's causal 2 qd (s + 1)), and the logits apart (Narayanan Eq. 3 does not
// recompute them).
struct SourceForwardFlops {
    double layers = 0;
    double logits = 0;
};
SourceForwardFlops sourceForwardFlopsPerToken(const Scenario& s);

// Tokens/s per GPU from what the row measured in tokens or time (tokens/s per GPU,
// tokens/s, step time, samples/s), before any FLOP-based field; empty when it gives none.
struct MeasuredTokens {
    double tokensPerSecondPerGpu = 0;
    std::string basis;
};
std::optional<MeasuredTokens> measuredTokensPerGpu(const RunRecord& r, const Scenario& s);

struct ReportedThroughput {
    std::optional<double> tokensPerSecondPerGpu;
    std::string basis; // which reported field it came from
};

ReportedThroughput reportedThroughput(const RunRecord& r, const Scenario& s);

} // namespace dtsim
