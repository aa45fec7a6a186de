#include "calibration.h"

namespace dtsim {

const GenerationCalibration& Calibration::forGeneration(const std::string& generation) const
{
    for (const GenerationCalibration& g : generations)
        if (g.generation == generation)
            return g;
    return fallback;
}

} // namespace dtsim
