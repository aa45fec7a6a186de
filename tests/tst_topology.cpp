// Topology-aware communication: where groups land, what they pay, and the link loads.
#include "simcore/plan_check.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

double commSeconds(const StepReport& r, CommGroup g) { return r.comm[int(g)].totalSeconds; }

Scenario onTopology(const std::string& topology, long long gpus)
{
    Scenario s = test::preset("llama2-7b-8xa100");
    const Topology* t = findTopology(test::topologies(), topology);
    const long long keepGpus = gpus;
    s.cluster = t->cluster;
    s.cluster.topology = topology;
    s.cluster.gpus = keepGpus;
    return s;
}

} // namespace

class TestTopology : public QObject {
    Q_OBJECT
private slots:
    void aTierLabelIsCutAtAWholeCharacter()
    {
        // 34 bytes in 30 characters: byte 31 is inside the last "è". Half of it is no
        // text; the label keeps whole characters.
        NetworkTier t;
        t.setLabel("Glasfaserstrecke Z\u00fcrich\u2013Gen\u00e8ve");
        QCOMPARE(std::string(t.label()), std::string("Glasfaserstrecke Z\u00fcrich\u2013Gen"));
        t.setLabel("datacenter (long-haul out)"); // the Topology tab's own, whole
        QCOMPARE(std::string(t.label()), std::string("datacenter (long-haul out)"));
    }

    void shippedTopologiesLoad()
    {
        for (const char* id : { "dgx-h100-superpod", "gb200-nvl72", "a100-200g", "pcie-gtx580-10gbe", "two-datacenter-h100" })
            QVERIFY2(findTopology(test::topologies(), id), id);
    }

    void tpAcrossNodesCostsMoreThanInside()
    {
        Scenario s = test::preset("gpt3-175b-a100");
        s.plan.tp = 16;
        s.plan.pp = 4;
        s.plan.dp = 16;
        s.plan.schedule = Schedule::OneFOneB;
        s.plan.virtualStages = 1;
        const StepReport across = predictStep(s, test::calibration()); // 8-GPU domains: TP 16 spans two
        QCOMPARE(across.comm[int(CommGroup::TP)].domains, 2);
        s.cluster.scaleUpDomain = 16;
        s.cluster.gpusPerNode = 16;
        const StepReport inside = predictStep(s, test::calibration());
        QCOMPARE(inside.comm[int(CommGroup::TP)].domains, 1);
        QVERIFY(commSeconds(across, CommGroup::TP) > 1.2 * commSeconds(inside, CommGroup::TP));
        QVERIFY(across.stepTime > inside.stepTime);
    }

    void moreOversubscriptionNeverSpeedsAStep_data()
    {
        QTest::addColumn<QString>("name");
        for (const std::string& n : test::presetNames())
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
    }
    void moreOversubscriptionNeverSpeedsAStep()
    {
        QFETCH(QString, name);
        Scenario s = test::preset(name.toStdString());
        if (s.cluster.tierCount == 0) {
            s.cluster.tierCount = 1;
            s.cluster.tiers[0].spanGpus = std::max(2LL, s.cluster.gpus / 4 / 2 * 2);
        }
        double previous = predictStep(s, test::calibration()).stepTime;
        for (double factor : { 2.0, 4.0, 8.0, 32.0 }) {
            Scenario t = s;
            for (int i = 0; i < t.cluster.tierCount; ++i)
                t.cluster.tiers[i].oversubscription = std::max(1.0, s.cluster.tiers[i].oversubscription) * factor;
            const double step = predictStep(t, test::calibration()).stepTime;
            QVERIFY2(step >= previous * (1 - 1e-12), qPrintable(QString("x%1: %2 < %3").arg(factor).arg(step).arg(previous)));
            previous = step;
        }
    }

    // 8,192 GPUs in two sites of 4,096: with DP outermost, each DP group has half its
    // members in each site, and the gradient reduction is bounded by the long-haul link.
    void dataParallelAcrossDatacentersIsBoundedByTheLongHaulLink()
    {
        Scenario s = onTopology("two-datacenter-h100", 8192);
        s.plan = ParallelPlan {};
        s.plan.tp = 8;
        s.plan.dp = 1024;
        s.plan.zeroStage = 1;
        s.training.globalBatch = 2048;
        s.training.microBatch = 2;
        // A thin inter-site link (100 GB/s): eight DP rings each push a flow across it.
        s.cluster.tiers[1].uplinkBandwidth = 100e9;
        QCOMPARE(firstViolation(s), PlanRule::Ok);
        const StepReport twoSites = predictStep(s, test::calibration());
        const CommReport& dp = twoSites.comm[int(CommGroup::DP)];
        QCOMPARE(dp.span.outermostTier, 1); // leaves its site through the long-haul link
        // Lower bound: what must cross between the sites, over the long-haul capacity.
        const LevelLoad& longHaul = twoSites.levels[2 + 1];
        QVERIFY(longHaul.bytesPerStep > 0);
        // Both sites send over their own uplink, so the pair carries 2 x 100 GB/s.
        QVERIFY(dp.totalSeconds >= longHaul.bytesPerStep / (2 * 100e9) * (1 - 1e-9));
        // A wider link helps; an unlimited one gives the single-site time.
        Scenario wide = s;
        wide.cluster.tiers[1].uplinkBandwidth *= 8;
        const double wider = predictStep(wide, test::calibration()).comm[int(CommGroup::DP)].totalSeconds;
        QVERIFY(wider < dp.totalSeconds);
        Scenario narrow = s;
        narrow.cluster.tiers[1].uplinkBandwidth /= 8;
        QVERIFY(predictStep(narrow, test::calibration()).comm[int(CommGroup::DP)].totalSeconds > dp.totalSeconds);
        QCOMPARE(twoSites.bottleneckLevel >= 0, true);
    }

    void railOptimizedLeavesKeepSameRankTrafficOnTheRail()
    {
        Scenario s = onTopology("dgx-h100-superpod", 256);
        // Same-rank group (stride 8) of 32 nodes: inside one rail leaf.
        GroupSpan dp = groupSpan(s.cluster, 32, 8);
        QCOMPARE(dp.outermostTier, -1);
        // Different ranks across nodes (stride 1, 16 GPUs): up to the spine.
        GroupSpan tp = groupSpan(s.cluster, 16, 1);
        QCOMPARE(tp.outermostTier, 0);
    }

    void inNetworkReductionSpeedsAllReduce()
    {
        Scenario s = onTopology("dgx-h100-superpod", 64);
        s.plan = ParallelPlan {};
        s.plan.tp = 8;
        s.plan.dp = 8;
        s.training.globalBatch = 64;
        const double withNvls = predictStep(s, test::calibration()).comm[int(CommGroup::TP)].totalSeconds;
        s.cluster.scaleUpInNetworkReduction = false;
        const double without = predictStep(s, test::calibration()).comm[int(CommGroup::TP)].totalSeconds;
        QVERIFY(withNvls < without);
    }

    void levelLoadsAreConsistent()
    {
        const StepReport r = predictStep(test::preset("llama3-405b-h100"), test::calibration());
        QCOMPARE(r.levelCount, 3); // fabric, NICs, the pod tier
        double total = 0;
        for (const CommReport& c : r.comm)
            total += c.bytesPerGpu * 16384;
        QVERIFY(std::abs(r.levels[0].bytesPerStep + r.levels[1].bytesPerStep - total) < 1e-6 * total);
        QVERIFY(r.levels[2].bytesPerStep <= r.levels[1].bytesPerStep);
        for (int l = 0; l < r.levelCount; ++l)
            QVERIFY(r.levels[l].utilization >= 0 && std::isfinite(r.levels[l].utilization));
        QVERIFY(r.bottleneckLevel >= 0 && r.bottleneckLevel < r.levelCount);
    }

    void oldFilesWithoutATopologyStillLoad()
    {
        const Scenario s = test::preset("mixtral-8x7b-h100");
        QVERIFY(s.cluster.topology.empty());
        QCOMPARE(s.cluster.tierCount, 0);
        const Scenario g = test::preset("gpt3-175b-a100");
        QCOMPARE(g.cluster.topology, std::string("a100-200g"));
        QCOMPARE(g.cluster.tierCount, 3);
    }
};

QTEST_GUILESS_MAIN(TestTopology)
#include "tst_topology.moc"
