#pragma once
// The measured throughput of a published run in tokens/s per GPU, obtained from what
// the source reported, converting TFLOP/s, MFU or HFU with that source's own FLOP rule.
#include "../scenario.h"
#include "run_record.h"

#include <optional>
#include <string>

namespace dtsim {

// How a source counted FLOPs, read from its flops_accounting text.
enum class FlopRule {
    ModelFullAttention,    // 3 x forward, attention counted non-causal (Megatron-Core, PaLM, MaxText)
    HardwareFullAttention, // plus the recomputed forward when recompute is on (Narayanan Eq. 3, BLOOM)
    SixN,                  // 6 x parameters
};

FlopRule flopRuleOf(const std::string& flopsAccounting);

// FLOPs per trained token under a source's rule, for the run's model and recompute.
double sourceFlopsPerToken(const Scenario& s, FlopRule rule);

struct ReportedThroughput {
    std::optional<double> tokensPerSecondPerGpu;
    std::string basis; // which reported field it came from
};

ReportedThroughput reportedThroughput(const RunRecord& r, const Scenario& s);

} // namespace dtsim
