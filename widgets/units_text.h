#pragma once
// simcore's unit formatting as the views' QString.
#include "simcore/units.h"

#include <QString>

namespace dtsim::gui {

inline QString durationText(double seconds) { return QString::fromStdString(formatDuration(seconds)); }

} // namespace dtsim::gui
