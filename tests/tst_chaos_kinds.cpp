// Issue 45's chaos events (drain, link_degraded, storage_outage, partition, host_oom):
// each changes the simulated run by what a hand calculation from the report's own
// figures says, in direction and size, and the fields that carry them read, check and
// write back.
#include "simcore/analysis/run_outlook.h"
#include "simcore/loader/scenario_override.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/reliability/reliability.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

constexpr double kDay = 86400;
// No random failures: every time below follows by hand. Ten days of training in
// 240 intervals of tau = 1 h, each followed by a C = 10 s checkpoint (none after the
// last); a failure costs R = 600 s of recovery; a restart's parts are provision 300 s,
// re-initialize 120 s and load 200 s.
constexpr double kTau = 3600, kC = 10, kR = 600;
constexpr double kClean = 10 * kDay + 239 * kC;
// 1,000 s into the 25th interval.
constexpr double kAt = 24 * (kTau + kC) + 1000;

ReliabilityReport handMade()
{
    ReliabilityReport r;
    r.clusterMtbf = INFINITY;
    r.checkpointWrite = kC;
    r.recovery = kR;
    r.interval = kTau;
    r.failureFreeTime = 10 * kDay;
    r.expectedTime = kClean;
    r.gpus = 1000;
    r.provision = 300;
    r.reinit = 120;
    r.checkpointLoad = 200;
    r.spareGpus = 8;
    r.rackGpus = 64;
    r.podGpus = 512; // units of switch tiers: a partition between two cuts the job
    r.plan = storagePlan(r);
    return r;
}

ChaosEvent chaos(ChaosEvent::Kind kind, double at, double duration = 0, double fraction = 0)
{
    ChaosEvent e;
    e.kind = kind;
    e.atSeconds = at;
    e.duration = duration;
    e.fraction = fraction;
    return e;
}

// One trial of `events` on `r`, each event's effect from the report (and `offload`,
// `linkSlowdown` for what comes from the scenario).
double runTime(ReliabilityReport r, const std::vector<ChaosEvent>& events, bool offload = false, double linkSlowdown = 0)
{
    ReliabilitySpec spec;
    spec.chaos = events;
    r.chaos.clear();
    for (const ChaosEvent& e : events)
        r.chaos.push_back(chaosEffect(e, r, offload, linkSlowdown));
    return sampleRuns(r, spec, 1, 1).mean;
}

} // namespace

class TestChaosKinds : public QObject {
    Q_OBJECT
private slots:
    void handMadeRunIsClean() { QCOMPARE(runTime(handMade(), {}), kClean); }

    // A planned drain at kAt for 4 h. The job checkpoints first (C = 10 s), so nothing
    // is lost, then restarts on a hot spare: provision 300 + reinit 120 + load 200 =
    // 620 s. The checkpoint schedule restarts from the drain: 24 checkpoints before it,
    // 215 after (216 intervals' work left, the last with none): 239 as before, so the
    // run takes C + 620 = 630 s longer, exactly. Without spares it waits the 4 h for the
    // node: C + 14,400 + 120 + 200. An unplanned failure at the same moment costs the
    // 1,000 s of lost work and R instead.
    void drainCheckpointsFirstThenRestarts()
    {
        const ChaosEvent drain = chaos(ChaosEvent::Kind::Drain, kAt, 4 * 3600);
        const ReliabilityReport r = handMade();
        QCOMPARE(runTime(r, { drain }), kClean + kC + 620);
        ReliabilityReport noSpares = r;
        noSpares.spareGpus = 0;
        QCOMPARE(runTime(noSpares, { drain }), kClean + kC + 4 * 3600 + 120 + 200);
        // A drain shorter than provisioning a spare waits for its own node instead.
        QCOMPARE(runTime(r, { chaos(ChaosEvent::Kind::Drain, kAt, 100) }), kClean + kC + 100 + 120 + 200);
        QCOMPARE(runTime(r, { chaos(ChaosEvent::Kind::Failure, kAt) }), kClean + 1000 + kR);
        // The trial draws it: the checkpoint, then the time away as recovery.
        ReliabilitySpec spec;
        spec.chaos = { drain };
        ReliabilityReport traced = r;
        traced.chaos = { chaosEffect(drain, r, false, 0) };
        bool sawCheckpoint = false, sawAway = false;
        for (const RunPhase& p : sampleRuns(traced, spec, 1, 1, true).firstTrial) {
            sawCheckpoint |= p.kind == RunPhase::Kind::Checkpoint && p.start == kAt && p.end == kAt + kC;
            sawAway |= p.kind == RunPhase::Kind::Recovery && p.start == kAt + kC && p.end == kAt + kC + 620;
        }
        QVERIFY(sawCheckpoint && sawAway);
    }

    // A link at 25% for 2 days on the run's step model: the slowdown s per step is the
    // step model's (the same figure as reliability.degraded_link's for the whole run).
    // With checkpoints every hour and failures off, training in the window goes 1 + s
    // times slower: the window's D = 2 days of wall clock hold D tau / (tau (1 + s) + C)
    // of work, which takes D (tau + C) / (tau (1 + s) + C) at full pace, so the run is
    // longer by D - that. The pace is set per interval (as a straggler's), so each end of
    // the window may count up to one interval of slowdown more or less: tau s.
    void degradedLinkSlowsTheStepsInItsWindow()
    {
        Scenario s = test::preset("llama3-405b-h100");
        s.reliability.mtbfGpu = s.reliability.mtbfHost = s.reliability.mtbfNic = s.reliability.mtbfSwitchOrCable
            = s.reliability.mtbfSoftware = 1e15; // failures off (one in 10^6 years)
        s.reliability.checkpointInterval = 3600;
        ChaosEvent link = chaos(ChaosEvent::Kind::LinkDegraded, 3 * kDay, 2 * kDay, 0.25);
        link.target = "spine 3";
        s.reliability.chaos = { link };
        RunOutlookOptions o;
        o.trials = 4;
        const RunOutlook out = runOutlook(s, test::calibration(), test::failureRates(), o);
        QVERIFY(!out.problem);
        QCOMPARE(out.report.chaos.size(), std::size_t(1));
        const double slow = out.report.chaos[0].stepSlowdown;
        Scenario whole = s;
        whole.reliability.chaos.clear();
        whole.reliability.degradedLinkFraction = 0.25;
        const ReliabilityReport wholeRun = analyzeReliability(whole, test::calibration(), test::failureRates());
        QCOMPARE(slow, wholeRun.stepSlowdown); // the same step model, once per event
        QVERIFY2(slow > 0.01, qPrintable(QString::number(slow)));
        const double tau = out.report.interval, C = out.report.checkpointWrite, D = 2 * kDay;
        const double hand = D - D * (tau + C) / (tau * (1 + slow) + C);
        const double delta = out.run.mean - out.clean.mean;
        qInfo("link at 25%%: step %.2f%% slower, run %.0f s longer, %.0f s by hand (tau %.0f s)", 100 * slow, delta, hand, tau);
        QVERIFY2(std::abs(delta - hand) <= 2 * tau * slow, qPrintable(QString("%1 s against %2 s by hand").arg(delta).arg(hand)));
        // One tier alone (the preset's one tier, its 3,072-GPU pods, whose uplink the
        // NICs' bandwidth over the oversubscription gives) slows the step, but no more
        // than the whole scale-out network.
        Scenario leaf = s;
        leaf.reliability.chaos[0].tier = 1;
        const RunOutlook leafOut = runOutlook(leaf, test::calibration(), test::failureRates(), o);
        const double leafSlow = leafOut.report.chaos[0].stepSlowdown;
        QVERIFY2(leafSlow > 0.001 && leafSlow <= slow + 1e-12, qPrintable(QString::number(leafSlow)));
    }

    // The checkpoint store down for 3 h from kAt. Checkpoints are due at the end of the
    // 25th, 26th and 27th intervals' training (at 90,240 s, 93,840 s and 97,440 s,
    // inside the window that ends at 98,440 s): all three are skipped, so with no
    // failure the run is 3 C = 30 s shorter. The next is written one interval after the
    // last skipped one, at 101,040 s. A failure just before it, at 100,540 s, goes back to
    // the checkpoint before the outage (86,640 s): it loses 13,900 s, where without the
    // outage it would lose the 3,070 s since the 27th interval's checkpoint: 10,830 s
    // more (the 3 checkpoints skipped are written again as the lost intervals are redone,
    // so nothing is saved then). At a quarter of the bandwidth instead, the three
    // checkpoints each stall 4 C: 90 s more.
    void storageOutageSkipsOrSlowsTheCheckpointsDue()
    {
        const ReliabilityReport r = handMade();
        const ChaosEvent down = chaos(ChaosEvent::Kind::StorageOutage, kAt, 3 * 3600);
        QCOMPARE(runTime(r, { down }), kClean - 3 * kC);
        const double failAt = 101040 - 500;
        const ChaosEvent fail = chaos(ChaosEvent::Kind::Failure, failAt);
        const double withoutOutage = runTime(r, { fail });
        QCOMPARE(withoutOutage, kClean + (failAt - 27 * (kTau + kC)) + kR);
        QCOMPARE(runTime(r, { down, fail }), kClean + (failAt - 24 * (kTau + kC)) + kR);
        QCOMPARE(runTime(r, { down, fail }) - withoutOutage, 10830.0);
        QCOMPARE(runTime(r, { chaos(ChaosEvent::Kind::StorageOutage, kAt, 3 * 3600, 0.25) }), kClean + 3 * (4 * kC - kC));
    }

    // Pods partitioned at kAt. The collectives hang until the 10 min timeout
    // (kCollectiveTimeout) and the job fails; it cannot restart before the partition
    // heals; then it recovers from the last checkpoint. Lost work 1,000 s + max(600 s,
    // duration) + R: for 1 h, 1,000 + 3,600 + 600; for 5 min the timeout decides:
    // 1,000 + 600 + 600. A job below one switch (one unit of the first tier) is not cut.
    void partitionHoldsTheRestartUntilItHeals()
    {
        const ReliabilityReport r = handMade();
        QCOMPARE(kCollectiveTimeout, 600.0);
        QCOMPARE(runTime(r, { chaos(ChaosEvent::Kind::Partition, kAt, 3600) }), kClean + 1000 + 3600 + kR);
        QCOMPARE(runTime(r, { chaos(ChaosEvent::Kind::Partition, kAt, 300) }), kClean + 1000 + kCollectiveTimeout + kR);
        ReliabilityReport onePod = r;
        onePod.rackGpus = onePod.podGpus = 1000;
        const ChaosEvent cut = chaos(ChaosEvent::Kind::Partition, kAt, 3600);
        QCOMPARE(runTime(onePod, { cut }), kClean);
        QVERIFY(!chaosEffect(cut, onePod, false, 0).noEffect.empty());
    }

    // A host's memory fills at kAt. Nothing of this run lives there (no offload,
    // synchronous checkpoints, storage recovery): no effect, and the effect says so.
    // With offload, the process dies: a node failure, 1,000 s lost + R. With async
    // checkpoints, the one staged next (ending the 25th interval) never reaches storage:
    // harmless alone, but a failure before the next one is written goes back one
    // interval more (tau + C).
    void hostOomHitsOnlyWhatLivesInHostMemory()
    {
        const ReliabilityReport r = handMade();
        const ChaosEvent oom = chaos(ChaosEvent::Kind::HostOom, kAt);
        QCOMPARE(runTime(r, { oom }), kClean);
        QVERIFY(QString::fromStdString(chaosEffect(oom, r, false, 0).noEffect).contains("host memory"));
        QCOMPARE(runTime(r, { oom }, true), kClean + 1000 + kR);
        QVERIFY(chaosEffect(oom, r, true, 0).noEffect.empty());
        ReliabilityReport async = r;
        async.plan.async = true;
        QVERIFY(chaosEffect(oom, async, false, 0).noEffect.empty());
        QCOMPARE(runTime(async, { oom }), kClean);
        // The failure 500 s into the 26th interval: back to the checkpoint ending the
        // 25th, which is the one the OOM lost, so to the 24th's: tau + C more.
        const ChaosEvent fail = chaos(ChaosEvent::Kind::Failure, 25 * (kTau + kC) + 500);
        QCOMPARE(runTime(async, { fail }), kClean + 500 + kR);
        QCOMPARE(runTime(async, { oom, fail }), kClean + 500 + kR + kTau + kC);
    }

    // Gemini's in-memory copies (segments of 600 s, a 1 s copy after each, a 10 s storage
    // checkpoint every sixth; a covered failure rolls back to its segment's start and
    // recovers in 300 s, an uncovered one to storage in 900 s): a host OOM 100 s into a
    // segment loses that host's copies, so a failure 200 s into the same segment goes
    // back to storage (3 segments of 601 s + 200 s + 900 s), not to the segment's
    // start (200 s + 300 s). A failure in the next segment finds new copies.
    void hostOomLosesTheHostsInMemoryCopies()
    {
        ReliabilityReport r = handMade();
        RecoveryPlan& p = r.plan;
        p.strategy = RecoveryStrategy::InMemory;
        p.fastInterval = 600;
        p.fastStall = 1;
        p.segmentsPerStorage = 6;
        p.storageStall = 10;
        p.covered.fill(true);
        p.recoveryCovered.fill(300);
        p.recoveryUncovered.fill(900);
        const double clean = 10 * kDay + 1439 * 1 + 239 * 10;
        QCOMPARE(runTime(r, {}), clean);
        const double block = 6 * 601 + 10, segment = 10 * block + 3 * 601;
        const ChaosEvent oom = chaos(ChaosEvent::Kind::HostOom, segment + 100);
        const ChaosEvent fail = chaos(ChaosEvent::Kind::Failure, segment + 200);
        QCOMPARE(runTime(r, { fail }), clean + 200 + 300);
        QCOMPARE(runTime(r, { oom, fail }), clean + 3 * 601 + 200 + 900);
        const ChaosEvent later = chaos(ChaosEvent::Kind::Failure, segment + 601 + 200);
        QCOMPARE(runTime(r, { oom, later }), clean + 200 + 300);
    }

    // The simulated run the tab draws: a degraded link's window on the slow-steps lane,
    // a partition's wait and recovery on the recovery lane.
    void theRunTimelineShowsTheIncidents()
    {
        ReliabilityReport r = handMade();
        ReliabilitySpec spec;
        spec.chaos = { chaos(ChaosEvent::Kind::LinkDegraded, 2 * kDay, 6 * 3600, 0.5), chaos(ChaosEvent::Kind::Partition, kAt + kDay, 3600) };
        r.chaos = { chaosEffect(spec.chaos[0], r, false, 0.2), chaosEffect(spec.chaos[1], r, false, 0) };
        bool slow = false, held = false;
        for (const RunPhase& p : sampleRuns(r, spec, 1, 1, true).firstTrial) {
            slow |= p.kind == RunPhase::Kind::Slow && p.start == 2 * kDay && p.end == 2 * kDay + 6 * 3600;
            held |= p.kind == RunPhase::Kind::Recovery && p.start == kAt + kDay && p.end == kAt + kDay + 3600 + kR;
        }
        QVERIFY(slow && held);
    }

    // Seeded with random failures too: the same seed gives the same trials, and the new
    // kinds cost no more failures than the budget counts (each injected one once).
    void randomFailuresWithTheNewKindsStaySeeded()
    {
        ReliabilityReport r = handMade();
        r.clusterMtbf = 6 * 3600.0;
        r.failuresPerDayByCause = { 4, 0, 0, 0, 0 };
        ReliabilitySpec spec;
        spec.chaos = { chaos(ChaosEvent::Kind::Drain, 2 * kDay, 3600), chaos(ChaosEvent::Kind::StorageOutage, 3 * kDay, 6 * 3600),
            chaos(ChaosEvent::Kind::Partition, 4 * kDay, 1800), chaos(ChaosEvent::Kind::HostOom, 5 * kDay) };
        for (const ChaosEvent& e : spec.chaos)
            r.chaos.push_back(chaosEffect(e, r, true, 0));
        const MonteCarloResult a = sampleRuns(r, spec, 200, 7), b = sampleRuns(r, spec, 200, 7);
        QCOMPARE(a.times, b.times);
        QCOMPARE(a.cappedTrials, 0);
        ReliabilitySpec calm;
        const MonteCarloResult c = sampleRuns(r, calm, 200, 7);
        QVERIFY(a.mean > c.mean); // a drain, a partition and an OOM'd offload cost time
    }

    // The offload plan comes from the scenario: with the optimizer states on the CPU a
    // host OOM is a failure.
    void hostOomFollowsTheScenariosOffload()
    {
        Scenario s = test::preset("llama3-405b-h100");
        s.reliability.chaos = { chaos(ChaosEvent::Kind::HostOom, kDay) };
        const ReliabilityReport r = analyzeReliability(s, test::calibration(), test::failureRates());
        QVERIFY(!chaosEffects(s, test::calibration(), r)[0].fails);
        s.plan.offload.optimizer = OffloadTarget::Cpu;
        QVERIFY(chaosEffects(s, test::calibration(), r)[0].fails);
    }

    // The new kinds read, write back equal, and older kinds write no new keys.
    void newKindsReadAndWriteBack()
    {
        const Scenario s = test::presetWithSection("llama3-405b-h100", R"(reliability:
  chaos:
    - {at: 2 days, event: drain, duration: 6 h, target: node 17}
    - {at: 3 days, event: link_degraded, duration: 4 h, fraction: 0.25, level: scale_out, tier: 1}
    - {at: 4 days, event: link_degraded, duration: 1 h, fraction: 0.5, level: scale_up}
    - {at: 5 days, event: storage_outage, duration: 2 h}
    - {at: 6 days, event: storage_outage, duration: 2 h, fraction: 0.1}
    - {at: 7 days, event: partition, duration: 30 min}
    - {at: 8 days, event: host_oom, target: node 3}
    - {at: 9 days, event: failure}
)");
        const std::vector<ChaosEvent>& c = s.reliability.chaos;
        QCOMPARE(c.size(), std::size_t(8));
        QCOMPARE(c[0].kind, ChaosEvent::Kind::Drain);
        QCOMPARE(c[0].duration, 6 * 3600.0);
        QCOMPARE(c[1].tier, 1);
        QCOMPARE(c[1].fraction, 0.25);
        QCOMPARE(c[2].level, LinkLevel::ScaleUp);
        QCOMPARE(c[3].fraction, 0.0);
        QCOMPARE(c[4].fraction, 0.1);
        QCOMPARE(c[5].kind, ChaosEvent::Kind::Partition);
        QCOMPARE(c[6].kind, ChaosEvent::Kind::HostOom);
        const std::string yaml = scenarioToYaml(s);
        const Scenario back = loadScenarioText(yaml, "again.yaml", test::catalog(), {}, test::topologies());
        QVERIFY(back.reliability == s.reliability);
        // Only the kinds that read them carry a duration or a fraction in the file (and an
        // outage's fraction only off its 0).
        QCOMPARE(QString::fromStdString(yaml).count("duration"), 6);
        QCOMPARE(QString::fromStdString(yaml).count("fraction"), 3);
    }

    void badEventsNameTheField_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("field");
        QTest::newRow("drain without duration") << "{at: 1 day, event: drain}" << "reliability.chaos[0].duration";
        QTest::newRow("link without fraction") << "{at: 1 day, event: link_degraded, duration: 1 h}" << "reliability.chaos[0].fraction";
        QTest::newRow("link at zero") << "{at: 1 day, event: link_degraded, duration: 1 h, fraction: 0}" << "reliability.chaos[0].fraction";
        QTest::newRow("fraction above one") << "{at: 1 day, event: storage_outage, duration: 1 h, fraction: 25}" << "reliability.chaos[0].fraction";
        QTest::newRow("duration on a failure") << "{at: 1 day, event: failure, duration: 1 h}" << "reliability.chaos[0].duration";
        QTest::newRow("fraction on a partition") << "{at: 1 day, event: partition, duration: 1 h, fraction: 0.5}" << "reliability.chaos[0].fraction";
        QTest::newRow("level on an outage") << "{at: 1 day, event: storage_outage, duration: 1 h, level: scale_up}" << "reliability.chaos[0].level";
        QTest::newRow("tier past the cluster's") << "{at: 1 day, event: link_degraded, duration: 1 h, fraction: 0.5, tier: 6}" << "reliability.chaos[0].tier";
        QTest::newRow("tier on scale-up") << "{at: 1 day, event: link_degraded, duration: 1 h, fraction: 0.5, level: scale_up, tier: 1}"
                                          << "reliability.chaos[0].tier";
        QTest::newRow("negative duration") << "{at: 1 day, event: partition, duration: -1 h}" << "reliability.chaos[0].duration";
    }
    void badEventsNameTheField()
    {
        QFETCH(QString, entry);
        QFETCH(QString, field);
        const std::optional<InputError> e = test::sectionError("gpt3-175b-a100", "reliability:\n  chaos:\n    - " + entry.toStdString() + "\n");
        QVERIFY2(e.has_value(), "accepted");
        QCOMPARE(QString::fromStdString(e->field()), field);
        QVERIFY(e->line() > 0);
        QCOMPARE(QString::fromStdString(e->where()), QString("chaos.yaml"));
    }
};

QTEST_GUILESS_MAIN(TestChaosKinds)
#include "tst_chaos_kinds.moc"
