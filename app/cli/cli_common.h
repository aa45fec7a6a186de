#pragma once
// What every dtsim-cli subcommand shares: option parsing, finding and loading the
// shipped data, reading the scenario argument with its --set overrides, and reporting
// bad input (exit code 2).
#include "data_paths.h"

#include "simcore/calibration.h"
#include "simcore/hardware.h"
#include "simcore/input_error.h"
#include "simcore/loader/field_locator.h"
#include "simcore/loader/model_catalogue_loader.h"
#include "simcore/loader/topology_loader.h"
#include "simcore/cost/cost.h"
#include "simcore/reliability/reliability.h"
#include "simcore/scenario.h"

#include <QCommandLineParser>
#include <QJsonDocument>

#include <vector>

namespace dtsim::cli {

// Adds --help and --data, parses; prints usage errors itself. `positional` is the
// number of positional arguments required (-1: any).
bool parseCommand(QCommandLineParser& p, const QString& command, const QStringList& args, int positional);

struct EngineData {
    DataPaths paths;
    std::vector<HardwareSpec> catalog;
    Calibration calibration;
    std::vector<Topology> topologies;
    FailureRates failureRates;
    CostRates costRates;
    std::vector<CatalogueModel> models; // resources/models/catalogue.yaml (--set model=ID)
};
EngineData loadEngineData(const QCommandLineParser& p); // throws InputError

// The first positional argument (a file or a preset name) with every --set applied.
// Prints the loader's notes to stderr; `where` (when given) learns where each field
// came from, for checks made after loading.
Scenario loadScenarioArgument(const QCommandLineParser& p, const EngineData& d, FieldLocator* where = nullptr);
// The same for a scenario named by an option (calibrate --scenario, fields --of).
Scenario loadScenarioNamed(const QString& fileOrPreset, const QCommandLineParser& p, const EngineData& d, FieldLocator* where = nullptr);
// A scenario file, or the name of a preset.
std::string resolveScenarioPath(const QString& arg, const DataPaths& d);

void printJson(const QJsonDocument& doc);
// The indented text printJson prints, after the same check (throws InputError).
QString jsonText(const QJsonDocument& doc);
// An engine string as Qt text.
inline QString q(const std::string& s) { return QString::fromStdString(s); }

// A numeric option within [min, max]; otherwise an InputError naming the option, the
// text given and the accepted range, e.g. `--months: "1e9" is not a number of months
// from 0.01 to 1200`.
double numberOption(const QCommandLineParser& p, const QString& name, double min, double max, const std::string& what);
long long wholeOption(const QCommandLineParser& p, const QString& name, long long min, long long max, const std::string& what);
int reportInputError(const InputError& e);

// Refuses a scenario the cost model cannot price (no rent price, no GPU price, unknown region).
void checkCostInputs(const Scenario& s, const CostRates& rates, const FieldLocator& where); // throws InputError

} // namespace dtsim::cli
