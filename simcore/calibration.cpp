#include "calibration.h"

namespace dtsim {

const GemmEfficiency& Calibration::forGeneration(const std::string& generation) const
{
    for (const GemmEfficiency& g : generations)
        if (g.generation == generation)
            return g;
    return fallback;
}

} // namespace dtsim
