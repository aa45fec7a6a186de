// Cost, energy and carbon: scaling with GPU-hours and price, energy by hand, the GTX 580
// bill against Epoch's figure, and the cost objective's savings.
#include "simcore/cost/cost.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/planner/cost_search.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

CostReport cost(const Scenario& s)
{
    return analyzeCost(s, test::calibration(), test::failureRates(), test::costRates());
}

bool near(double a, double b, double rel = 1e-9) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)); }

} // namespace

class TestCost : public QObject {
    Q_OBJECT
private slots:
    void rentScalesWithGpuHoursAndPrice()
    {
        Scenario s = test::preset("gpt3-175b-a100");
        const CostReport base = cost(s);
        const double price = test::costRates().rent.at("a100-80gb").onDemand;
        QVERIFY(near(base.totalUsd, base.gpuHours * price));
        // Twice the tokens: twice the run, twice the bill (failures scale with time too).
        s.training.tokens *= 2;
        QVERIFY(near(cost(s).totalUsd, 2 * base.totalUsd, 1e-6));
        s.training.tokens /= 2;
        // A given price per GPU-hour.
        s.cost.gpuHourUsd = 2 * price;
        QVERIFY(near(cost(s).totalUsd, 2 * base.totalUsd));
        // Reserved is cheaper than on demand; spot is cheaper still per hour but preempted.
        s.cost = {};
        s.cost.pricing = Pricing::Reserved;
        QVERIFY(cost(s).totalUsd < base.totalUsd);
        s.cost.pricing = Pricing::Spot;
        const CostReport spot = cost(s);
        QVERIFY(spot.wallSeconds > base.wallSeconds); // preemptions lengthen the run
        const FailureRates preempted = ratesForPricing(test::failureRates(), test::costRates(), s.cost);
        QVERIFY(preempted.mtbf[int(FailureCause::Preemption)] > 0);
        QCOMPARE(ratesForPricing(test::failureRates(), test::costRates(), {}).mtbf[int(FailureCause::Preemption)], 0.0);
    }

    void energyByHand()
    {
        // Eight A100s, no spares, no failures: energy is power x time, by hand.
        Scenario s = test::preset("llama2-7b-8xa100");
        s.reliability.spares = false;
        FailureRates none = test::failureRates();
        none.mtbf.fill(0);
        const CostRates& rates = test::costRates();
        const CostReport r = analyzeCost(s, test::calibration(), none, rates);
        const Report run = predictRun(s, test::calibration());
        const StepBreakdown& b = run.step.breakdown;
        const double activity = (b.forward + b.backward + b.recompute + b.optimizer + b.contention) / run.step.stepTime;
        const double tdp = s.hardware.tdpWatts, idle = s.hardware.idleWatts; // 400 W and 55 W
        QCOMPARE(tdp, 400.0);
        QCOMPARE(idle, 55.0);
        const double watts = idle + (tdp - idle) * activity;
        QVERIFY(near(r.gpuWatts, watts));
        // Nothing fails, so the interval is the whole run, and its one segment ends the
        // run with no checkpoint stall (as the Monte Carlo runs it: issue 38).
        const ReliabilityReport rel = analyzeReliability(s, test::calibration(), none);
        const double T = run.timeToTrain, C = 0.0;
        QVERIFY(rel.checkpointWrite > 0);
        QVERIFY(near(r.wallSeconds, T + C, 1e-6));
        const double gpuJ = 8 * (watts * T + idle * C);
        const double hostJ = 8 * 0.5 * tdp * (T + C);
        const double links = 8 + 0; // one NIC link per GPU, no tiers
        QCOMPARE(s.cluster.tierCount, 0);
        const double netJ = links * 25 * (T + C);
        const double mwh = (gpuJ + hostJ + netJ) * 1.2 / 3.6e9;
        QVERIFY2(near(r.energyMwh, mwh, 1e-6), qPrintable(QString("%1 vs %2").arg(r.energyMwh).arg(mwh)));
        QVERIFY(near(r.energyMwh, r.gpuEnergyMwh + r.hostEnergyMwh + r.networkEnergyMwh + r.coolingEnergyMwh, 1e-9));
        // Operational carbon: energy x the US grid's 367 g/kWh.
        QVERIFY(near(r.operationalTonnes, mwh * 1000 * 367 / 1e6, 1e-6));
        // And the rent bill is GPU-hours x 1.79 USD.
        QVERIFY(near(r.totalUsd, 8 * (T + C) / 3600 * 1.79, 1e-6));
    }

    void owningAmortizesAndBreakdownAddsUp()
    {
        Scenario s = test::preset("llama3-405b-h100");
        s.cost.ownership = Ownership::Own;
        const CostReport r = cost(s);
        double sum = 0;
        for (const CostItem& i : r.breakdown)
            sum += i.usd;
        QVERIFY(near(sum, r.totalUsd));
        const double share = r.wallSeconds / test::costRates().lifetime;
        QVERIFY(near(r.breakdown[0].usd, r.bill.gpus * share));
        // GPUs held: the job plus whole spare nodes (1% of 16,384 = 164 -> 168).
        QVERIFY(near(r.bill.gpus, (16384 + 168) * 30000.0));
        // Owning for three months costs far less than renting, excluding what the
        // hardware is worth afterwards (docs/cost.md).
        s.cost.ownership = Ownership::Rent;
        QVERIFY(r.totalUsd < cost(s).totalUsd);
        // A cleaner grid cuts operational carbon in proportion; embodied stays.
        s.cost.region = "france";
        const CostReport fr = cost(s);
        QVERIFY(near(fr.operationalTonnes / r.operationalTonnes, 56.0 / 367.0, 1e-6));
        QVERIFY(near(fr.embodiedTonnes, r.embodiedTonnes));
    }

    void gtx580BillAgainstEpoch()
    {
        // Epoch's counterfactual: 1,024 DP x 32 PP x 512 TP = 16,777,216 GTX 580s for
        // "about 5 billion USD". The GPU bill at the catalogue's 579 USD is 9.7 B: within
        // a factor of two; Epoch's figure implies 298 USD a GPU (docs/cost.md).
        Scenario s = test::preset("gtx580-2012");
        const double gpus = 1024.0 * 32 * 512;
        const HardwareBill bill = hardwareBill(s, test::costRates(), gpus, 0);
        QVERIFY(near(bill.gpus, gpus * 579));
        QVERIFY(bill.gpus > 0.5 * 5e9 && bill.gpus < 2 * 5e9);
        // Servers (0.4 of the GPU price) and a 10 GbE network with a 4:1 tier on top.
        QVERIFY(near(bill.servers, 0.4 * bill.gpus));
        QVERIFY(bill.total() > bill.gpus * 1.4);
        // The frontier's own GTX 580 optimum (8.4 M GPUs) at the same price lands at 4.9 B.
        QVERIFY(std::abs(8.4e6 * 579 / 5e9 - 1) < 0.03);
    }

    void costObjectiveBeatsTheNaivePlan_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("gpt3") << "gpt3-175b-a100";
        QTest::newRow("mixtral") << "mixtral-8x7b-h100";
        QTest::newRow("llama2-7b") << "llama2-7b-8xa100";
        QTest::newRow("gtx580") << "gtx580-2012";
    }
    void costObjectiveBeatsTheNaivePlan()
    {
        QFETCH(QString, preset);
        const Scenario s = test::preset(preset.toStdString());
        QVERIFY(s.training.deadline > 0);
        SearchOptions o;
        o.varyGpus = true;
        o.topN = 3;
        const CostSearchResult r = searchCheapest(s, test::calibration(), test::failureRates(), test::costRates(), o);
        QVERIFY(!r.search.top.empty());
        const PlanCandidate& best = r.search.top.front();
        QVERIFY(best.meetsLimits);
        QVERIFY(best.expectedTime <= s.training.deadline);
        QVERIFY(r.naive.has_value());
        QCOMPARE(r.naive->gpus, s.cluster.gpus);
        QVERIFY2(r.savingVsNaive >= 0.20, qPrintable(QString::number(r.savingVsNaive)));
        QVERIFY(r.savingVsGiven >= 0); // never dearer than the user's plan when it meets the deadline
        // Sorted: each listed plan costs no less than the one before.
        for (std::size_t i = 1; i < r.search.top.size(); ++i)
            QVERIFY(r.search.top[i].costUsd >= r.search.top[i - 1].costUsd);
    }

    void deadlineAndCarbonCapConstrain()
    {
        Scenario s = test::preset("gpt3-175b-a100");
        SearchOptions o;
        o.varyGpus = true;
        o.topN = 1;
        const double loose = searchCheapest(s, test::calibration(), test::failureRates(), test::costRates(), o).search.top.front().costUsd;
        s.training.deadline = 20 * 86400.0; // tighter: needs more GPUs, costs no less
        const CostSearchResult tight = searchCheapest(s, test::calibration(), test::failureRates(), test::costRates(), o);
        QVERIFY(tight.search.top.front().costUsd >= loose);
        QVERIFY(!tight.search.top.front().meetsLimits || tight.search.top.front().expectedTime <= 20 * 86400.0);
        s.training.deadline = 0;
        s.cost.carbonCapTonnes = 1; // impossible: everything misses it and ranks by time
        const CostSearchResult capped = searchCheapest(s, test::calibration(), test::failureRates(), test::costRates(), o);
        QVERIFY(!capped.search.top.front().meetsLimits);
    }

    void costSectionRoundTripsAndRejectsBadInput()
    {
        Scenario s = test::preset("gpt3-175b-a100");
        s.cost.ownership = Ownership::Own;
        s.cost.pricing = Pricing::Reserved;
        s.cost.region = "germany";
        s.cost.pue = 1.35;
        s.cost.carbonCapTonnes = 500;
        const Scenario back = loadScenarioText(scenarioToYaml(s), "c.yaml", test::catalog(), {}, test::topologies());
        QVERIFY(back.cost == s.cost);
        const std::string base = scenarioToYaml(test::preset("gpt3-175b-a100"));
        for (const auto& [section, field] : { std::pair { "cost:\n  pricing: cheap\n", "cost.pricing" },
                 std::pair { "cost:\n  pue: 0.9\n", "cost.pue" }, std::pair { "cost:\n  ownership: lease\n", "cost.ownership" },
                 std::pair { "cost:\n  gpu_hour_usd: -2\n", "cost.gpu_hour_usd" } }) {
            try {
                loadScenarioText(base + section, "c.yaml", test::catalog(), {}, test::topologies());
                QFAIL(section);
            } catch (const InputError& e) {
                QCOMPARE(QString::fromStdString(e.field()), QString(field));
                QVERIFY(e.line() > 0);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
