// The event simulation: schedule shapes, the bubble, agreement with the analytical
// step time, and the Chrome trace export.
#include "simcore/step.h"
#include "simcore/timeline/timeline.h"
#include "test_data.h"
#include "simcore/timeline/critical_path.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>

using namespace dtsim;

namespace {

// A pipeline with negligible sends, so the schedule alone shapes the step.
Scenario pipelineScenario(Schedule schedule, int pp, int v, int globalBatch)
{
    Scenario s = test::preset("gpt3-175b-a100");
    s.cluster.scaleOutBandwidth *= 1e6;
    s.cluster.scaleOutLatency = 0;
    s.cluster.scaleUpLatency = 0;
    s.plan.schedule = schedule;
    s.plan.virtualStages = v;
    s.plan.pp = pp;
    s.plan.dp = 1024 / (8 * pp);
    s.training.globalBatch = globalBatch;
    return s;
}

int countKind(const Trace& t, int row, TaskKind k)
{
    int n = 0;
    for (const TraceEvent& e : t.events)
        if (e.row == row && e.kind == k)
            ++n;
    return n;
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void criticalPathRunsFromStartToEnd()
    {
        // A chain of events, each starting where the one before ends, from the step's
        // first start to its last end (the Timeline tab draws it; simcore computes it).
        for (const char* name : { "llama2-7b-8xa100", "gpt3-175b-a100" }) {
            const Trace t = simulateTimeline(test::preset(name), test::calibration());
            const std::vector<char> critical = criticalPath(t);
            QCOMPARE(critical.size(), t.events.size());
            std::vector<const TraceEvent*> path;
            double lastEnd = 0;
            for (std::size_t i = 0; i < t.events.size(); ++i) {
                lastEnd = std::max(lastEnd, t.events[i].start + t.events[i].duration);
                if (critical[i])
                    path.push_back(&t.events[i]);
            }
            QVERIFY2(path.size() >= 3, name);
            std::sort(path.begin(), path.end(), [](const TraceEvent* a, const TraceEvent* b) { return a->start < b->start; });
            const double eps = 1e-9 * t.totalTime;
            QVERIFY2(std::abs(path.back()->start + path.back()->duration - lastEnd) <= eps, name);
            // One chain: no two of its events overlap (a gap is a message in flight or a wait),
            // and its events fill most of the step.
            double busy = path.front()->duration;
            for (std::size_t k = 1; k < path.size(); ++k) {
                QVERIFY2(path[k - 1]->start + path[k - 1]->duration <= path[k]->start + eps, name);
                busy += path[k]->duration;
            }
            QVERIFY2(busy > 0.5 * lastEnd, qPrintable(QString("%1: the path is busy %2 of %3 s").arg(name).arg(busy).arg(lastEnd)));
            QVERIFY2(path.front()->start <= eps, qPrintable(QString("%1: the path starts at %2 s, not at the step's start").arg(name).arg(path.front()->start)));
        }
    }

    void agreesWithTheAnalyticalEngineOnEveryPreset()
    {
        for (const std::string& name : test::presetNames()) {
            const Scenario s = test::preset(name);
            const double analytical = predictStep(s, test::calibration()).stepTime;
            const double simulated = simulateTimeline(s, test::calibration()).stepTime;
            QVERIFY2(std::abs(simulated / analytical - 1) < 0.05,
                qPrintable(QString("%1: %2 vs %3").arg(name.c_str()).arg(simulated).arg(analytical)));
        }
    }

    void concurrentTransfersShareTheNic()
    {
        // GPT-3 on 1,024 A100s: pipeline stages and data-parallel replicas both cross the
        // NICs, and the gradient buckets hide under the last backwards, where the
        // cool-down sends still run.
        Scenario s = test::preset("gpt3-175b-a100");
        const StepReport rep = predictStep(s, test::calibration());
        QVERIFY(rep.comm[int(CommGroup::PP)].span.domains > 1);
        QVERIFY(rep.comm[int(CommGroup::DP)].span.domains > 1);
        TimelineOptions alone;
        alone.shareLinks = false;
        const Trace separate = simulateTimeline(s, test::calibration(), alone);
        const Trace shared = simulateTimeline(s, test::calibration());
        const double hop = rep.pipeline.hop;
        int slowed = 0;
        for (const TraceEvent& e : shared.events)
            if (e.kind == TaskKind::PipelineSend) {
                // Either alone on the NIC or sharing it half and half: nothing in between.
                QVERIFY(std::abs(e.duration - hop) < 1e-12 * hop || std::abs(e.duration - 2 * hop) < 1e-12 * hop);
                slowed += e.duration > 1.5 * hop;
            }
        QVERIFY2(slowed > 0, "no send overlapped the gradient buckets");
        for (const TraceEvent& e : separate.events)
            if (e.kind == TaskKind::PipelineSend)
                QCOMPARE(e.duration, hop);
        // Sharing never speeds the step, and costs at most the slowed sends' time.
        QVERIFY(shared.stepTime > separate.stepTime);
        QVERIFY(shared.stepTime - separate.stepTime <= 2 * slowed * hop + 1e-9);
    }

    void checkpointFallsInTheWindow()
    {
        const Scenario s = test::preset("llama2-7b-8xa100");
        TimelineOptions o;
        o.steps = 5;
        o.checkpointEverySteps = 2;
        o.checkpointSeconds = 3.5;
        const Trace t = simulateTimeline(s, test::calibration(), o);
        TimelineOptions none = o;
        none.checkpointEverySteps = 0;
        const Trace plain = simulateTimeline(s, test::calibration(), none);
        int checkpoints = 0;
        for (const TraceEvent& e : t.events)
            if (e.kind == TaskKind::Checkpoint) {
                ++checkpoints;
                QCOMPARE(e.duration, 3.5);
                QVERIFY(e.step == 1 || e.step == 3); // after the 2nd and 4th steps
            }
        QCOMPARE(checkpoints, 2 * t.ranksPerStage * s.plan.pp);
        QVERIFY(std::abs(t.totalTime - plain.totalTime - 7.0) < 1e-9);
        QCOMPARE(t.stepTime, plain.stepTime); // the step itself is unchanged
    }

    void oneFOneBWarmupAndCooldown()
    {
        const Scenario s = pipelineScenario(Schedule::OneFOneB, 8, 1, 256); // m = 16 per replica
        TimelineOptions whole; // one bar per pass, to count passes
        whole.perLayer = false;
        const Trace t = simulateTimeline(s, test::calibration(), whole);
        const int p = 8;
        for (int stage = 0; stage < p; ++stage) {
            // Forwards before the first backward: p - stage (warm-up p - stage - 1, plus one).
            int forwards = 0;
            for (const TraceEvent& e : t.events) {
                if (e.row != stage)
                    continue;
                if (e.kind == TaskKind::Backward)
                    break;
                forwards += e.kind == TaskKind::Forward;
            }
            QCOMPARE(forwards, p - stage);
            QCOMPARE(countKind(t, stage, TaskKind::Forward), 16);
            QCOMPARE(countKind(t, stage, TaskKind::Backward), 16);
        }
        // Cool-down: the last stage ends with a backward; stage 0 runs p backwards after its last forward.
        double lastForward = 0;
        int after = 0;
        for (const TraceEvent& e : t.events)
            if (e.row == 0 && e.kind == TaskKind::Forward)
                lastForward = e.start;
        for (const TraceEvent& e : t.events)
            if (e.row == 0 && e.kind == TaskKind::Backward && e.start > lastForward)
                ++after;
        QCOMPARE(after, p);
    }

    void bubbleMatchesTheClosedForm()
    {
        for (int m : { 8, 16, 32 }) {
            const Scenario s = pipelineScenario(Schedule::OneFOneB, 4, 1, m * 32);
            const StepReport r = predictStep(s, test::calibration());
            const Trace t = simulateTimeline(s, test::calibration());
            const double tau = r.pipeline.forward + r.pipeline.backward + r.pipeline.recompute;
            const double pipeline = t.stepTime - (r.stepTime - r.breakdown.sum() + r.breakdown.optimizer
                + r.breakdown.overhead + r.breakdown.contention + r.breakdown.exposedComm[int(CommGroup::DP)]);
            // (m + p - 1) tau: the bubble is (p - 1) tau, a fraction (p-1)/m of the work.
            QVERIFY2(std::abs(pipeline / ((m + 3) * tau) - 1) < 0.01, qPrintable(QString::number(pipeline / tau)));
        }
    }

    void interleavingAndZeroBubbleShrinkTheBubble()
    {
        const Trace plain = simulateTimeline(pipelineScenario(Schedule::OneFOneB, 8, 1, 256), test::calibration());
        const Trace inter = simulateTimeline(pipelineScenario(Schedule::Interleaved1F1B, 8, 2, 256), test::calibration());
        QVERIFY(inter.stepTime < plain.stepTime);
        TimelineOptions zb;
        zb.zeroBubble = true;
        const Trace zero = simulateTimeline(pipelineScenario(Schedule::OneFOneB, 8, 1, 256), test::calibration(), zb);
        QVERIFY(zero.stepTime < plain.stepTime);
        QVERIFY(countKind(zero, 0, TaskKind::WeightGrad) == 16);
    }

    void chromeTraceEscapesControlCharacters()
    {
        Trace t;
        t.stages = 1;
        t.rowNames = { std::string("tab\there \"quoted\" back\\slash \x01 end\n") };
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(toChromeTrace(t)), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        bool found = false;
        for (const QJsonValue& v : doc.object()["traceEvents"].toArray())
            found |= v.toObject()["args"].toObject()["name"].toString() == QString("tab\there \"quoted\" back\\slash \x01 end\n");
        QVERIFY(found);
    }

    void chromeTraceIsValidJson()
    {
        const Scenario s = test::preset("gpt3-175b-a100");
        TimelineOptions o;
        o.steps = 2;
        o.perLayer = false;
        const Trace t = simulateTimeline(s, test::calibration(), o);
        const std::string json = toChromeTrace(t);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonArray events = doc.object()["traceEvents"].toArray();
        int complete = 0, metadata = 0, forwards = 0;
        for (const QJsonValue& v : events) {
            const QJsonObject e = v.toObject();
            if (e["ph"] == "X") {
                ++complete;
                QVERIFY(e["dur"].toDouble() >= 0);
                QVERIFY(e.contains("ts") && e.contains("pid") && e.contains("tid"));
                forwards += e["cat"] == "forward";
            } else if (e["ph"] == "M") {
                ++metadata;
            }
        }
        QCOMPARE(complete, int(t.events.size()));
        QCOMPARE(metadata, 8 * (1 + kStreamCount)); // a process and its stream threads per stage
        // Two steps x 8 stages x 96 micro-batches x 2 chunks.
        QCOMPARE(forwards, 2 * 8 * 96 * 2);
        QVERIFY(std::abs(t.totalTime - 2 * t.stepTime) < 1e-9 * t.totalTime);
    }

    void layersShowTheirCollectives()
    {
        const Scenario s = test::preset("gpt3-175b-a100");
        const Trace layered = simulateTimeline(s, test::calibration());
        TimelineOptions whole;
        whole.perLayer = false;
        const Trace passes = simulateTimeline(s, test::calibration(), whole);
        // 12 layers per stage in 2 chunks: 6 forward bars per forward pass.
        QCOMPARE(countKind(layered, 0, TaskKind::Forward), 6 * countKind(passes, 0, TaskKind::Forward));
        QVERIFY(countKind(layered, 0, TaskKind::LayerCollective) > 0); // TP 8 all-reduces are exposed
        QVERIFY(std::abs(layered.stepTime - passes.stepTime) < 1e-9 * passes.stepTime);
        QVERIFY(countKind(layered, 0, TaskKind::DataParallel) > 1); // gradient buckets
    }

    void deterministicAndPerRankRows()
    {
        const Scenario s = test::preset("mixtral-8x7b-h100");
        QCOMPARE(toChromeTrace(simulateTimeline(s, test::calibration())), toChromeTrace(simulateTimeline(s, test::calibration())));
        TimelineOptions o;
        o.perRankRows = true;
        const Trace t = simulateTimeline(s, test::calibration(), o);
        QCOMPARE(int(t.rowNames.size()), s.plan.pp * s.plan.tp);
        for (std::size_t i = 1; i < t.events.size(); ++i)
            QVERIFY(t.events[i - 1].start <= t.events[i].start);
    }
};

QTEST_GUILESS_MAIN(TestTimeline)
#include "tst_timeline.moc"
