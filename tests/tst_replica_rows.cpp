// The replica rows of the Timeline's teaching view (simcore/timeline/replica_rows.h):
// the barrier's waits, and the sampled stretch against the step model's straggler term.
#include "simcore/step.h"
#include "simcore/stragglers.h"
#include "simcore/timeline/replica_rows.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

ReplicaRowsInput input(long long replicas, long long ranks, double jitter, int steps, unsigned long long seed = 7)
{
    ReplicaRowsInput in;
    in.compute = 1.0;
    in.allReduce = 0.25;
    in.replicas = replicas;
    in.ranksPerReplica = ranks;
    in.jitter = jitter;
    in.steps = steps;
    in.seed = seed;
    return in;
}

// Per step, each row's wait.
std::vector<std::vector<double>> waitsByStep(const ReplicaRows& r)
{
    std::vector<std::vector<double>> w(r.stretch.size());
    for (const ReplicaSegment& g : r.segments)
        if (g.phase == ReplicaPhase::Wait)
            w[std::size_t(g.step)].push_back(g.duration);
    return w;
}

struct Stats {
    double mean = 0, standardError = 0;
};

Stats statsOf(const std::vector<double>& x)
{
    Stats s;
    for (double v : x)
        s.mean += v;
    s.mean /= double(x.size());
    double var = 0;
    for (double v : x)
        var += (v - s.mean) * (v - s.mean);
    s.standardError = std::sqrt(var / double(x.size() - 1) / double(x.size()));
    return s;
}

} // namespace

class TestReplicaRows : public QObject {
    Q_OBJECT
private slots:
    void withoutJitterEveryRowEndsTogether()
    {
        const ReplicaRows r = simulateReplicaRows(input(64, 8, 0.0, 3));
        QCOMPARE(r.rows(), 8);
        QVERIFY(r.restRow);
        QCOMPARE(r.shownReplicas, 7);
        for (const ReplicaSegment& g : r.segments) {
            if (g.phase == ReplicaPhase::Compute)
                QCOMPARE(g.duration, 1.0);
            if (g.phase == ReplicaPhase::Wait)
                QCOMPARE(g.duration, 0.0);
        }
        QCOMPARE(r.totalTime, 3 * 1.25);
        QCOMPARE(r.meanStretch(), 0.0);
        QCOMPARE(r.expectedStretch, 0.0);
    }

    void waitsAreNonNegativeAndTheSlowestWaitsNothing()
    {
        for (long long replicas : { 2LL, 5LL, 8LL, 9LL, 1000LL })
            for (double jitter : { 0.01, 0.1, 0.5 }) {
                const ReplicaRows r = simulateReplicaRows(input(replicas, 4, jitter, 50, 11));
                QCOMPARE(r.rows(), int(std::min(replicas, 8LL)));
                for (const std::vector<double>& w : waitsByStep(r)) {
                    QCOMPARE(int(w.size()), r.rows());
                    QVERIFY(*std::min_element(w.begin(), w.end()) == 0.0); // the slowest row
                    for (double x : w)
                        QVERIFY(x >= 0);
                }
                // Each row's compute and wait fill the step up to the barrier, where the reduction starts.
                for (std::size_t i = 0; i + 2 < r.segments.size(); i += 3) {
                    const ReplicaSegment &c = r.segments[i], &w = r.segments[i + 1], &a = r.segments[i + 2];
                    QCOMPARE(c.phase, ReplicaPhase::Compute);
                    QCOMPARE(w.start, c.start + c.duration);
                    QCOMPARE(a.start, w.start + w.duration);
                }
            }
    }

    void theSameSeedDrawsTheSameRows()
    {
        const ReplicaRows a = simulateReplicaRows(input(128, 1, 0.05, 10, 3)), b = simulateReplicaRows(input(128, 1, 0.05, 10, 3));
        const ReplicaRows c = simulateReplicaRows(input(128, 1, 0.05, 10, 4));
        QCOMPARE(a.stretch, b.stretch);
        QVERIFY(a.stretch != c.stretch);
    }

    void theMeanStretchIsTheStragglerTerm_data()
    {
        QTest::addColumn<long long>("replicas");
        QTest::addColumn<long long>("ranks");
        QTest::addColumn<double>("exactMax"); // E[max of replicas x ranks normals], by quadrature; 0: use the engine's
        QTest::addColumn<int>("steps");
        // Small n against the exact expectation (Blom's formula is 4.5% high at n = 2).
        QTest::newRow("2 replicas") << 2LL << 1LL << 0.5641896 << 100000; // 1 / sqrt(pi); the widest spread
        QTest::newRow("8 replicas") << 8LL << 1LL << 1.4236003 << 20000;
        // Larger n, drawn through the rest row and replicas of several ranks, against the
        // engine's term itself (Blom within 0.5% there).
        QTest::newRow("64 x 1") << 64LL << 1LL << 0.0 << 20000;
        QTest::newRow("512 x 8") << 512LL << 8LL << 0.0 << 20000;
        QTest::newRow("2048 x 32 (65,536 GPUs)") << 2048LL << 32LL << 0.0 << 20000;
    }

    void theMeanStretchIsTheStragglerTerm()
    {
        QFETCH(long long, replicas);
        QFETCH(long long, ranks);
        QFETCH(double, exactMax);
        QFETCH(int, steps);
        const double cv = 0.03;
        const ReplicaRows r = simulateReplicaRows(input(replicas, ranks, cv, steps, 2024));
        const Stats s = statsOf(r.stretch);
        QCOMPARE(r.expectedStretch, stragglerShare(cv, replicas * ranks));
        // Four standard errors of the sampled mean, plus the engine's approximation error.
        const double expected = exactMax > 0 ? cv * exactMax : r.expectedStretch;
        const double tolerance = 4 * s.standardError + (exactMax > 0 ? 0.0 : 0.005 * expected);
        QVERIFY2(std::abs(s.mean - expected) <= tolerance,
            qPrintable(QString("mean stretch %1, expected %2 +- %3").arg(s.mean).arg(expected).arg(tolerance)));
        QVERIFY(s.standardError < 0.01 * expected); // four of them stay under the 4.5% Blom's formula is off at n = 2
    }

    void theScenarioGivesTheStepsComputeAndReduction()
    {
        Scenario s = test::preset("critical-batch-gpt3-xl");
        const Report rep = predictRun(s, test::calibration());
        const ReplicaRowsInput in = replicaRowsInput(s, rep.step, 3);
        const StepBreakdown& b = rep.step.breakdown;
        QCOMPARE(in.compute, b.forward + b.backward + b.recompute);
        QCOMPARE(in.allReduce, b.exposedComm[int(CommGroup::DP)]);
        QCOMPARE(in.replicas * in.ranksPerReplica, s.plan.gpus());
        QCOMPARE(in.jitter, s.cluster.jitter);
        QVERIFY(in.jitter > 0);
        // The rows' expected stretch is the step model's straggler term.
        QVERIFY(std::abs(in.compute * simulateReplicaRows(in).expectedStretch - b.straggler) <= 1e-12 * b.straggler);
    }

    void theTraceHasARowPerDrawnReplica()
    {
        const ReplicaRows r = simulateReplicaRows(input(100, 2, 0.05, 3));
        const Trace t = replicaTrace(r);
        QCOMPARE(int(t.rowNames.size()), 8);
        QCOMPARE(QString::fromStdString(t.rowNames[0]), QString("replica 0"));
        QCOMPARE(QString::fromStdString(t.rowNames[7]), QString("slowest of the other 93"));
        QCOMPARE(t.totalTime, r.totalTime);
        for (std::size_t i = 1; i < t.events.size(); ++i)
            QVERIFY(t.events[i - 1].start <= t.events[i].start);
        int waits = 0;
        for (const TraceEvent& e : t.events)
            waits += e.kind == TaskKind::BarrierWait;
        QCOMPARE(waits, 3 * 7); // the slowest row waits nothing, so has no bar
    }
};

QTEST_GUILESS_MAIN(TestReplicaRows)
#include "tst_replica_rows.moc"
