#pragma once
// The rules that keep a scenario consistent while one field changes: switching GPU,
// the fields derived from others, the precision fallback. The loader, the parameter
// panel, the frontier, the cost study and validation all call these, so the
// dashboard's A100 and the Cost tab's A100 are the same machine.
#include "hardware.h"
#include "scenario.h"

namespace dtsim {

// The best format `h` computes in at or below `wanted` (bf16, fp16, tf32, fp32 in that
// order), or `wanted` itself when `h` supports it.
Precision fallbackPrecision(const HardwareSpec& h, Precision wanted);

// The cluster's scale-up and scale-out links as a GPU's catalogue entry describes its
// standard server: domain, GPUs per node (8 at most), bandwidths and latencies.
void setLinksFromGpu(ClusterSpec& c, const HardwareSpec& h);

// The scenario on another GPU: its catalogue entry, its standard links (a named
// topology and NVLink SHARP belonged to the old machine and are dropped), and the
// best precision it supports.
void switchGpu(Scenario& s, const HardwareSpec& h);

// Panel edits that move dependent fields along.
void setHidden(Scenario& s, int hidden);   // head_dim follows hidden / heads
void setHeads(Scenario& s, int heads);     // head_dim follows; kv_heads falls back to heads when it no longer divides
void setExperts(Scenario& s, int experts); // 0 = dense (ep back to 1); top_k clamped; expert width defaults to the FFN's
void setTopK(Scenario& s, int topK);       // a dense model routes nothing: unchanged
void setPrecision(Scenario& s, Precision p); // keeps an FP8/FP4 scaling recipe that computes in the new format
void setScaling(Scenario& s, ScalingRecipe r); // 16- and 32-bit runs scale nothing: unchanged
// After TP, PP or CP changed: DP takes the GPUs the model-parallel degrees leave, when
// they divide the cluster (otherwise the plan stays as it is, and the rules say why).
void keepGpuCount(Scenario& s);

// The scaling recipe a precision uses when the file names none.
ScalingRecipe defaultScaling(Precision p);

} // namespace dtsim
