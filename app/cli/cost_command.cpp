// dtsim-cli cost: the price, energy and carbon of the run, failures included.
#include "cli_common.h"
#include "commands.h"

#include "simcore/analysis/cost_analysis.h"
#include "simcore/cost/cost.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

namespace dtsim::cli {

namespace {

QString usd(double v) { return "$" + QString::fromStdString(formatCount(v)); }

} // namespace

void checkCostInputs(const Scenario& s, const CostRates& rates, const FieldLocator& where)
{
    if (s.cost.ownership == Ownership::Rent && s.cost.gpuHourUsd <= 0 && !rates.rent.count(s.hardware.id))
        where.fail("cost.gpu_hour_usd",
            "no rental price for \"" + s.hardware.id + "\" in resources/cost/cost.yaml; give cost.gpu_hour_usd or use cost.ownership: own");
    if (s.cost.ownership == Ownership::Own && s.cost.gpuPriceUsd <= 0 && s.hardware.launchPriceUsd <= 0)
        where.fail("cost.gpu_price_usd", "the catalogue has no price for \"" + s.hardware.id + "\"; give cost.gpu_price_usd");
    if (gridIntensity(s.cost, rates) < 0) {
        std::string known;
        for (const auto& kv : rates.gridGramsPerKwh)
            known += (known.empty() ? "" : ", ") + kv.first;
        where.fail("cost.region", "unknown region \"" + s.cost.region + "\"; known: " + known + " (or give cost.grid_g_per_kwh)");
    }
}

int runCost(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "set", "Override a scenario field (repeatable).", "path=value" });
    p.addOption({ "json", "Print JSON." });
    p.addOption({ "sweep", "Also price the plan at 1/16 to 16x the GPUs (data parallelism scaled)." });
    p.addOption({ "compare", "Also price the same run on every GPU type, each at its cheapest plan." });
    if (!parseCommand(p, "cost", args, 1))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        FieldLocator where;
        const Scenario s = loadScenarioArgument(p, d, &where);
        checkCostInputs(s, d.costRates, where);
        CostAnalysisOptions parts;
        parts.byGpuCount = p.isSet("sweep");
        parts.byGpuType = p.isSet("compare");
        const CostAnalysis study = analyzeCostStudy(s, d.calibration, d.catalog, d.failureRates, d.costRates, parts);
        if (study.problem)
            where.fail(study.problem->field, study.problem->reason);
        const CostReport& r = study.report;
        const std::vector<CostPoint>& sweep = study.byGpuCount;
        const std::vector<ProcurementRow>& compare = study.byGpuType;
        auto pointJson = [](const CostPoint& pt) {
            return QJsonObject { { "gpus", double(pt.gpus) }, { "total_usd", pt.costUsd }, { "energy_mwh", pt.energyMwh },
                { "co2e_tonnes", pt.co2eTonnes }, { "expected_time_s", pt.expectedTime }, { "meets_deadline", pt.meetsDeadline } };
        };
        if (p.isSet("json")) {
            QJsonObject breakdown;
            for (const CostItem& i : r.breakdown)
                breakdown[QString::fromStdString(i.name).replace(' ', '_')] = i.usd;
            QJsonArray sweepJson, compareJson;
            for (const CostPoint& pt : sweep)
                sweepJson.append(pointJson(pt));
            for (const ProcurementRow& row : compare) {
                QJsonObject o = pointJson(row.point);
                o["gpu"] = QString::fromStdString(row.gpuId);
                o["priced"] = row.priced;
                o["feasible"] = row.feasible;
                o["mfu"] = row.mfu;
                compareJson.append(o);
            }
            QJsonObject doc {
                { "scenario", QString::fromStdString(s.name) },
                { "ownership", ownershipName(s.cost.ownership) },
                { "pricing", pricingName(s.cost.pricing) },
                { "region", QString::fromStdString(s.cost.region) },
                { "total_usd", r.totalUsd },
                { "breakdown", breakdown },
                { "hardware_bill_usd", r.hardwareBillUsd },
                { "usd_per_million_tokens", r.usdPerMillionTokens },
                { "wall_time_s", r.wallSeconds },
                { "gpu_hours", r.gpuHours },
                { "gpu_activity", r.gpuActivity },
                { "gpu_watts", r.gpuWatts },
                { "energy_mwh", r.energyMwh },
                { "energy_breakdown_mwh", QJsonObject { { "gpus", r.gpuEnergyMwh }, { "hosts", r.hostEnergyMwh },
                                              { "network", r.networkEnergyMwh }, { "cooling", r.coolingEnergyMwh } } },
                { "co2e_tonnes", r.co2eTonnes },
                { "operational_co2e_tonnes", r.operationalTonnes },
                { "embodied_co2e_tonnes", r.embodiedTonnes },
            };
            if (p.isSet("sweep"))
                doc["by_gpu_count"] = sweepJson;
            if (p.isSet("compare"))
                doc["by_gpu_type"] = compareJson;
            printJson(QJsonDocument(doc));
            return kExitOk;
        }
        QTextStream out(stdout);
        out << QString("%1: %2, %3 on %4\n").arg(QString::fromStdString(s.name), ownershipName(s.cost.ownership),
            pricingName(s.cost.pricing), QString::fromStdString(s.cost.region));
        out << QString("total               %1 (%2 per million %3s)\n").arg(usd(r.totalUsd), usd(r.usdPerMillionTokens), unitOfWork(s.model));
        for (const CostItem& i : r.breakdown)
            out << QString("  %1%2\n").arg(QString::fromStdString(i.name), -18).arg(usd(i.usd));
        out << QString("run                 %1 wall clock with failures, %2 GPU-hours\n")
                   .arg(QString::fromStdString(formatDuration(r.wallSeconds)), QString::fromStdString(formatCount(r.gpuHours)));
        out << QString("power               GPUs compute %1% of each step, %2 W on average\n")
                   .arg(100 * r.gpuActivity, 0, 'f', 0).arg(r.gpuWatts, 0, 'f', 0);
        out << QString("energy              %1 MWh (GPUs %2, hosts %3, network %4, cooling %5)\n")
                   .arg(r.energyMwh, 0, 'f', 0).arg(r.gpuEnergyMwh, 0, 'f', 0).arg(r.hostEnergyMwh, 0, 'f', 0)
                   .arg(r.networkEnergyMwh, 0, 'f', 0).arg(r.coolingEnergyMwh, 0, 'f', 0);
        out << QString("carbon              %1 t CO2e (operational %2, embodied %3)\n")
                   .arg(r.co2eTonnes, 0, 'f', 0).arg(r.operationalTonnes, 0, 'f', 0).arg(r.embodiedTonnes, 0, 'f', 0);
        out << QString("hardware bill       %1 to buy it all\n").arg(usd(r.hardwareBillUsd));
        if (!sweep.empty())
            out << "\n    GPUs        cost   energy MWh   t CO2e   time\n";
        for (const CostPoint& pt : sweep)
            out << QString("%1 %2 %3 %4   %5%6\n").arg(pt.gpus, 8).arg(usd(pt.costUsd), 11).arg(pt.energyMwh, 12, 'f', 0)
                       .arg(pt.co2eTonnes, 8, 'f', 0).arg(QString::fromStdString(formatDuration(pt.expectedTime)))
                       .arg(pt.meetsDeadline ? "" : "  (misses the deadline)");
        if (!compare.empty())
            out << "\nSame run on each GPU type, at its cheapest plan:\n";
        for (const ProcurementRow& row : compare) {
            out << QString("  %1 ").arg(QString::fromStdString(row.gpuId), -12);
            if (!row.priced)
                out << "no price\n";
            else if (!row.feasible)
                out << "no plan fits\n";
            else
                out << QString("%1  %2  MFU %3%%4\n").arg(usd(row.point.costUsd), 9)
                           .arg(QString::fromStdString(formatDuration(row.point.expectedTime)), 11)
                           .arg(100 * row.mfu, 0, 'f', 1).arg(row.point.meetsDeadline ? "" : "  (misses the deadline)");
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
