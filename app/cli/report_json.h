#pragma once
// Report -> JSON for `dtsim-cli simulate --json`. Keys are documented in docs/cli.md.
#include "simcore/report.h"
#include "simcore/scenario.h"
#include "simcore/study/error_band.h"

#include <QJsonObject>

namespace dtsim::cli {

QJsonObject reportToJson(const Scenario& s, const Report& r);
// The headline numbers' error bands: {"similar_runs", "similar", "coverage", and per
// number [low, high]}, or {"similar_runs", "note"} when too few runs are similar.
QJsonObject bandsToJson(const Report& r, const ErrorBand& b);
std::string bandsToText(const Report& r, const ErrorBand& b);
QString levelName(const ClusterSpec& c, int level); // "scale-up", "nic", then tier names

} // namespace dtsim::cli
