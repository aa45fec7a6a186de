#pragma once
// Report -> JSON for `dtsim-cli simulate --json`. Keys are documented in docs/cli.md.
#include "simcore/report.h"
#include "simcore/scenario.h"

#include <QJsonObject>

namespace dtsim::cli {

QJsonObject reportToJson(const Scenario& s, const Report& r);
QString levelName(const ClusterSpec& c, int level); // "scale-up", "nic", then tier names

} // namespace dtsim::cli
