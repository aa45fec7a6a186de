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

namespace dtsim {

// `s.model.table` must be resolved and the plan must pass checkPlan().
StepReport simulateLayerTableStep(const Scenario& s, const Calibration& c, bool idealized);
MemoryReport layerTableMemory(const Scenario& s, const Calibration& c);

} // namespace dtsim
