#pragma once
// One training step of a layer-table workload (CNNs, recommendation models): each layer
// costed with the same roofline as a transformer's GEMMs and elementwise kernels
// (convolutions as implicit GEMMs at the generation's convolution efficiency), the
// column split of AlexNet's two GPUs (`split: channels` over TP), the data-parallel
// gradient all-reduce overlapped with backward, the optimizer, and the host's input
// pipeline. Formulas and sources: docs/layers.md.
#include "../calibration.h"
#include "../report.h"
#include "../scenario.h"

#include <string>
#include <vector>

namespace dtsim {

// `s.model.table` must be resolved and the plan must pass checkPlan().
StepReport predictLayerTableStep(const Scenario& s, const Calibration& c, bool idealized);
MemoryReport layerTableMemory(const Scenario& s, const Calibration& c);

// What holds a layer back: its arithmetic, its memory traffic, the host issuing its
// kernels (eager frameworks), or nothing (folded into its neighbours by a fused stack).
enum class LayerBound { Compute, Memory, Launch, Fused };
const char* layerBoundName(LayerBound b);

// One layer's share of a step, for one micro-batch on one GPU (dtsim-cli layers).
struct LayerTiming {
    std::string name;
    LayerType type = LayerType::Linear;
    double forward = 0, backward = 0; // seconds of compute, host launches included
    double comm = 0;                  // its tensor-parallel exchanges, forward and backward
    double forwardFlops = 0;          // for the micro-batch
    LayerBound bound = LayerBound::Compute;
};
std::vector<LayerTiming> layerTableProfile(const Scenario& s, const Calibration& c);

} // namespace dtsim
