// Shared-cluster scheduling: hand-sized traces with hand-computed results, gang starts,
// quotas, the work a preemption loses, fairness against FIFO, placement by pod, and the
// workload section's errors.
#include "simcore/input_error.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/sched/cluster_sim.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace dtsim;

namespace {

// Two 8-GPU H100 nodes in one pod; two projects with half the cluster each. Jobs train
// a 7B model with data parallelism, so any whole number of nodes is a valid size.
const char* kTwoNodes = R"(version: 1
name: two nodes
model: {layers: 32, hidden: 4096, heads: 32, ffn_hidden: 11008, gated_mlp: true, vocab: 32000}
training: {global_batch: 16, micro_batch: 1, seq_len: 4096, tokens: 1B}
hardware: {gpu: h100-sxm}
cluster: {gpus: 16, gpus_per_node: 8}
parallel: {dp: 16, zero: 1}
workload:
  policy: fifo
  checkpoint_interval: 250 s
  projects:
    - {name: a, quota: 0.5, priority: 0}
    - {name: b, quota: 0.5, priority: 1}
  jobs:
    - {id: big, project: a, gpus: 16, arrival: 0 s, duration: 1 h}
    - {id: small, project: b, gpus: 8, arrival: 360 s, duration: 1 h}
)";

Scenario scenario(const std::string& text = kTwoNodes)
{
    return loadScenarioText(text, "cluster.yaml", test::catalog(), {}, test::topologies());
}

FailureRates noFailures()
{
    FailureRates r = test::failureRates();
    r.mtbf.fill(0);
    return r;
}

ClusterResult predictRun(const Scenario& s, const std::string& policy, const FailureRates& rates = noFailures())
{
    ClusterSim sim(s, test::calibration(), rates, 2.0);
    return sim.run(*makePolicy(policy));
}

const SchedJob& job(const ClusterResult& r, const std::string& id)
{
    for (const SchedJob& j : r.jobs)
        if (j.spec.id == id)
            return j;
    qFatal("no job %s", id.c_str());
}

bool near(double a, double b, double abs = 1e-6) { return std::abs(a - b) <= abs; }

// Wraps a policy and checks, after every scheduling pass, that no project holds more
// than its quota in jobs that are not marked as borrowed (so reclaimable).
class QuotaWatch : public SchedulingPolicy {
public:
    explicit QuotaWatch(std::unique_ptr<SchedulingPolicy> inner) : m_inner(std::move(inner)) { }
    const char* name() const override { return m_inner->name(); }
    void schedule(ClusterSim& sim) override
    {
        m_inner->schedule(sim);
        std::map<int, long long> owned;
        for (int job : sim.running()) {
            const SchedJob& j = sim.jobs()[job];
            if (!j.borrowed)
                owned[j.spec.project] += std::min(j.gpus, j.spec.gpus); // elastic growth into idle GPUs is given back first
        }
        for (const auto& [project, gpus] : owned)
            if (gpus > sim.quotaGpus(project))
                ++violations;
        ++passes;
    }
    int violations = 0, passes = 0;

private:
    std::unique_ptr<SchedulingPolicy> m_inner;
};

} // namespace

class TestCluster : public QObject {
    Q_OBJECT
private slots:
    void fifoHandTrace()
    {
        // FIFO: `big` holds both nodes for an hour; `small` arrives at 6 min, waits 54 min,
        // then runs an hour. Busy GPU-hours 16 + 8 over 16 GPUs x 2 h: utilization 0.75.
        const ClusterResult r = predictRun(scenario(), "fifo");
        QCOMPARE(r.infeasible, 0);
        QVERIFY(near(job(r, "big").firstStart, 0));
        QVERIFY(near(job(r, "big").end, 3600));
        QVERIFY(near(job(r, "small").firstStart, 3600));
        QVERIFY(near(job(r, "small").end, 7200));
        QVERIFY(near(job(r, "small").queueSeconds, 3240));
        QVERIFY(near(r.makespan, 7200));
        QVERIFY(near(r.meanUtilization, 0.75, 1e-9));
        QVERIFY(near(r.meanQueueSeconds, 1620));
        QCOMPARE(r.preemptions, 0);
        QVERIFY(near(r.wastedGpuHours, 0));
        // b was short of its due (8 GPUs) for all of its wait and got none; a never was:
        // entitlements 1 and 0, Jain (1 + 0)^2 / (2 (1 + 0)) = 0.5.
        QVERIFY(near(r.projects[0].entitlement, 1));
        QVERIFY(near(r.projects[1].entitlement, 0));
        QVERIFY(near(r.jainFairness, 0.5, 1e-9));
        // Cost per project: GPU-hours x $2.
        QVERIFY(near(r.projects[0].gpuHours, 16));
        QVERIFY(near(r.projects[0].costUsd, 32));
        QVERIFY(near(r.projects[1].gpuHours, 8));
        // The utilization series: full, then half, then idle.
        QCOMPARE(r.utilization.front(), std::make_pair(0.0, 1.0));
        QCOMPARE(r.utilization.back(), std::make_pair(7200.0, 0.0));
    }

    void fairShareReclaimsAndPreemptionLosesUncheckpointedWork()
    {
        // Fair share: `big` runs on b's half as a borrower. When `small` (within b's
        // quota) arrives at 360 s, `big` is preempted at once. Checkpoints every 250 s:
        // it keeps 250 s of work and loses 110 s on 16 GPUs. It restarts when `small`
        // ends (360 + 3,600 = 3,960 s) and needs 3,600 - 250 = 3,350 s more.
        Scenario s = scenario();
        s.workload.policy = "fair-share";
        const ClusterResult r = predictRun(s, "fair-share");
        const SchedJob& big = job(r, "big");
        const SchedJob& small = job(r, "small");
        QCOMPARE(big.preemptions, 1);
        QCOMPARE(r.preemptions, 1);
        QVERIFY(near(small.firstStart, 360));
        QVERIFY(near(small.queueSeconds, 0));
        QVERIFY(near(small.end, 3960));
        QVERIFY(near(big.wastedGpuSeconds, 16 * 110.0, 1e-3));
        QVERIFY(near(big.end, 3960 + 3350, 1e-3));
        QVERIFY(near(big.queueSeconds, 3960 - 360, 1e-3));
        // b got its due the moment it asked; a's only waiting job is larger than its
        // quota, so a was never short: Jain 1.
        QVERIFY(near(r.jainFairness, 1, 1e-9));
        // With a checkpoint interval that divides 360 s, nothing is lost.
        s.workload.checkpointInterval = 180;
        const ClusterResult exact = predictRun(s, "fair-share");
        QVERIFY(near(job(exact, "big").wastedGpuSeconds, 0, 1e-6));
        QVERIFY(near(job(exact, "big").end, 3960 + 3240, 1e-3));
    }

    void priorityPreemptsLowerPriority()
    {
        // b outranks a: the same trace under strict priority preempts `big` as well.
        const ClusterResult r = predictRun(scenario(), "priority");
        QCOMPARE(job(r, "big").preemptions, 1);
        QVERIFY(near(job(r, "small").firstStart, 360));
        // The other way round, nobody is preempted: a lower-priority job waits.
        Scenario s = scenario();
        std::swap(s.workload.projects[0].priority, s.workload.projects[1].priority);
        const ClusterResult waits = predictRun(s, "priority");
        QCOMPARE(waits.preemptions, 0);
        QVERIFY(near(job(waits, "small").firstStart, 3600));
    }

    void backfillFillsWithoutDelayingTheHead()
    {
        // 16 GPUs. t=0: `long` takes one node for 2 h. t=60: `head` wants both nodes
        // (reservation at 2 h). t=120: `short` (1 node, 1 h) ends before the reservation,
        // so backfill starts it at once; `late` (1 node, 3 h) would delay the head, so it
        // waits. FIFO starts `short` only after the head.
        std::string text = kTwoNodes;
        text = text.substr(0, text.find("  jobs:")) + R"(  jobs:
    - {id: long, project: a, gpus: 8, arrival: 0 s, duration: 2 h}
    - {id: head, project: b, gpus: 16, arrival: 60 s, duration: 1 h}
    - {id: short, project: a, gpus: 8, arrival: 120 s, duration: 1 h}
    - {id: late, project: a, gpus: 8, arrival: 180 s, duration: 3 h}
)";
        const Scenario s = scenario(text);
        const ClusterResult bf = predictRun(s, "backfill");
        QVERIFY(near(job(bf, "short").firstStart, 120));
        QVERIFY(near(job(bf, "head").firstStart, 7200));
        QVERIFY(job(bf, "late").firstStart >= 7200 + 3600 - 1e-6);
        const ClusterResult fifo = predictRun(s, "fifo");
        QVERIFY(near(job(fifo, "head").firstStart, 7200));
        QVERIFY(near(job(fifo, "short").firstStart, 7200 + 3600));
        QVERIFY(bf.meanQueueSeconds < fifo.meanQueueSeconds);
    }

    void gangNeverStartsPartialAndNodesAreNeverShared()
    {
        const Scenario s = test::preset("shared-cluster");
        for (const std::string& policy : policyNames()) {
            const ClusterResult r = predictRun(s, policy, test::failureRates());
            QVERIFY2(!r.allocations.empty(), policy.c_str());
            std::vector<std::vector<std::pair<double, double>>> byNode(r.nodes);
            for (const Allocation& a : r.allocations) {
                const JobSpec& spec = r.jobs[a.job].spec;
                const long long gpus = (long long)a.nodes.size() * 8;
                if (spec.minGpus > 0)
                    QVERIFY2(gpus >= spec.minGpus && gpus <= spec.maxGpus, policy.c_str());
                else
                    QVERIFY2(gpus == spec.gpus, qPrintable(QString("%1: job %2 got %3 of %4 GPUs").arg(policy.c_str())
                                                    .arg(spec.id.c_str()).arg(gpus).arg(spec.gpus)));
                for (int n : a.nodes)
                    byNode[n].push_back({ a.start, a.end });
            }
            for (auto& spans : byNode) {
                std::sort(spans.begin(), spans.end());
                for (std::size_t i = 1; i < spans.size(); ++i)
                    QVERIFY2(spans[i].first >= spans[i - 1].second - 1e-9, policy.c_str());
            }
            // Every job ends, and the GPU-hours add up to the allocations.
            double allocated = 0;
            for (const Allocation& a : r.allocations)
                allocated += double(a.nodes.size()) * 8 * (a.end - a.start) / 3600;
            double charged = 0;
            for (const ProjectResult& p : r.projects) {
                QCOMPARE(p.finished, p.jobs);
                charged += p.gpuHours;
            }
            QVERIFY(std::abs(allocated - charged) < 1e-6 * charged);
            QVERIFY(r.meanUtilization > 0 && r.meanUtilization <= 1);
        }
    }

    void quotasHold()
    {
        const Scenario s = test::preset("shared-cluster");
        ClusterSim sim(s, test::calibration(), test::failureRates(), 2.0);
        QuotaWatch watch(makePolicy("fair-share"));
        const ClusterResult r = sim.run(watch);
        QVERIFY(watch.passes > 100);
        QCOMPARE(watch.violations, 0);
        QVERIFY(r.preemptions > 0); // borrowing happened and was reclaimed
        // FIFO knows nothing of quotas: on the same stream, some project runs beyond its
        // quota with nothing marked reclaimable.
        QuotaWatch fifo(makePolicy("fifo"));
        sim.run(fifo);
        QVERIFY(fifo.violations > 0);
    }

    void fairShareIsFairerThanFifoOnASkewedStream()
    {
        // The preset's stream is skewed 5:2:1 against quotas 5:3:2.
        const Scenario s = test::preset("shared-cluster");
        const ClusterResult fifo = predictRun(s, "fifo", test::failureRates());
        const ClusterResult fair = predictRun(s, "fair-share", test::failureRates());
        QVERIFY2(fair.jainFairness > fifo.jainFairness,
            qPrintable(QString("fair share %1, FIFO %2").arg(fair.jainFairness).arg(fifo.jainFairness)));
        // The smallest project waits less under fair share.
        QVERIFY(fair.projects[2].meanQueueSeconds < fifo.projects[2].meanQueueSeconds);
        // Same stream, same work.
        QCOMPARE(fair.jobs.size(), fifo.jobs.size());
    }

    void jobsSpreadOverPodsRunSlower()
    {
        // A 32-GPU job packed in one of the preset's pods, or scattered one node per pod
        // (4:1 between pods): scattered, every rail's gradient ring leaves each pod
        // through an uplink a quarter of the NIC rate.
        const Scenario s = test::preset("shared-cluster");
        JobSpeed speed(s, test::calibration());
        const double packed = speed.tokensPerSecond(32, 1), split = speed.tokensPerSecond(32, 4);
        QVERIFY(packed > 0 && split > 0);
        QVERIFY2(split < packed, qPrintable(QString("%1 vs %2").arg(split).arg(packed)));
        // Topology-aware placement keeps jobs in fewer pods than first fit.
        Scenario firstFit = s;
        firstFit.workload.topologyAware = false;
        auto podsSpanned = [](const ClusterResult& r) {
            double spans = 0;
            for (const Allocation& a : r.allocations) {
                std::set<int> pods;
                for (int n : a.nodes)
                    pods.insert(n / r.nodesPerPod);
                spans += double(pods.size() - 1) * a.nodes.size();
            }
            return spans;
        };
        const ClusterResult aware = predictRun(s, "fifo"), naive = predictRun(firstFit, "fifo");
        QVERIFY(podsSpanned(aware) < podsSpanned(naive));
    }

    void failuresRollBackToTheCheckpoint()
    {
        // Ten times the usual failure rates on the preset: jobs fail, and every failure
        // wastes at least the recovery time on the job's GPUs.
        FailureRates often = test::failureRates();
        for (double& m : often.mtbf)
            m /= 10;
        const ClusterResult r = predictRun(test::preset("shared-cluster"), "fifo", often);
        QVERIFY(r.failures > 5);
        const double recovery = often.drain + often.provisionSpare + often.reinit;
        for (const SchedJob& j : r.jobs)
            if (j.failures > 0)
                QVERIFY(j.wastedGpuSeconds >= j.failures * recovery * 8 - 1e-6);
        QVERIFY(r.wastedGpuHours > 0);
        QCOMPARE(predictRun(test::preset("shared-cluster"), "fifo").failures, 0);
    }

    void elasticJobsGrowIntoIdleGpus()
    {
        // One elastic job alone on the cluster grows to its maximum and ends sooner than
        // its rigid twin; it gives the GPUs back when another job waits.
        std::string text = kTwoNodes;
        text = text.substr(0, text.find("  jobs:")) + R"(  jobs:
    - {id: e, project: a, gpus: 8, min_gpus: 8, max_gpus: 16, arrival: 0 s, duration: 2 h}
)";
        const ClusterResult grown = predictRun(scenario(text), "fifo");
        QVERIFY(job(grown, "e").end < 7200 * 0.7);
        QVERIFY(grown.allocations.size() >= 2);
        std::string rigid = text;
        rigid.replace(rigid.find(", min_gpus: 8, max_gpus: 16"), std::string(", min_gpus: 8, max_gpus: 16").size(), "");
        QVERIFY(near(job(predictRun(scenario(rigid), "fifo"), "e").end, 7200));
        // Another job arrives at 10 min: `e` shrinks back to its request at once.
        text += "    - {id: w, project: b, gpus: 16, arrival: 600 s, duration: 1 h}\n";
        const ClusterResult shared = predictRun(scenario(text), "fifo");
        bool shrank = false;
        for (const Allocation& a : shared.allocations)
            shrank |= shared.jobs[a.job].spec.id == "e" && a.nodes.size() == 1 && near(a.start, 600);
        QVERIFY(shrank);
        QVERIFY(job(shared, "w").firstStart >= job(shared, "e").end - 1e-6);
    }

    void workloadErrorsNameFieldAndLine()
    {
        auto expectError = [](const std::string& from, const std::string& to, const std::string& field, const std::string& reason) {
            std::string text = kTwoNodes;
            const auto at = text.find(from);
            QVERIFY(at != std::string::npos);
            text.replace(at, from.size(), to);
            try {
                scenario(text);
                QFAIL(qPrintable(QString::fromStdString("accepted: " + to)));
            } catch (const InputError& e) {
                const QString msg = e.what();
                QVERIFY2(msg.startsWith("cluster.yaml:") && msg.contains(QString::fromStdString(field)) && msg.contains(QString::fromStdString(reason)),
                    qPrintable(msg));
                QVERIFY(e.line() > 0);
            }
        };
        expectError("policy: fifo", "policy: lottery", "workload.policy", "not one of");
        expectError("quota: 0.5, priority: 1", "quota: 0.7, priority: 1", "workload.projects", "add up to 1.2");
        expectError("project: b, gpus: 8", "project: c, gpus: 8", "workload.jobs[1].project", "no project named");
        expectError("gpus: 8, arrival", "gpus: -8, arrival", "workload.jobs[1].gpus", "");
        expectError("360 s, duration: 1 h", "360 s, duration: 1 kg", "workload.jobs[1].duration", "");
        expectError("checkpoint_interval: 250 s", "checkpoint_interval: 0 s", "workload.checkpoint_interval", "");
        expectError("policy: fifo", "polcy: fifo", "workload", "polcy");
        // Rules across entries, from the field registry like every other field's.
        expectError("{name: b, quota", "{name: a, quota", "workload.projects[1].name", "listed twice");
        expectError("gpus: 8, arrival", "gpus: 8, min_gpus: 16, arrival", "workload.jobs[1].min_gpus", "at most the job's gpus (8)");
        expectError("gpus: 8, arrival", "gpus: 8, max_gpus: 4, arrival", "workload.jobs[1].max_gpus", "at least the job's gpus (8)");
        expectError("  jobs:", "  generate: {count: 4, arrivals_per_hour: 1, sizes: [{value: 8}], durations: [{value: 1 h}], "
                               "project_weights: [1]}\n  jobs:",
            "workload.generate.project_weights", "one weight per project (2)");
        expectError("  jobs:", "  generate: {count: 4, arrivals_per_hour: 1, sizes: [], durations: [{value: 1 h}]}\n  jobs:",
            "workload.generate.sizes", "it is empty");
    }

    void workloadSavesAndReopensEqual()
    {
        // Every part of the section, written by the registry's generic writer and read back.
        std::string text = kTwoNodes;
        text.replace(text.find("gpus: 8, arrival"), 16, "gpus: 8, min_gpus: 8, max_gpus: 16, arrival");
        text.replace(text.find("  jobs:"), 7, "  horizon: 2 days\n  topology_aware: false\n  generate: {count: 40, arrivals_per_hour: 3, "
            "sizes: [{value: 8, weight: 3}, {value: 16}], durations: [{value: 1 h}, {value: 30 min, weight: 0.5}], "
            "project_weights: [0, 2], elastic_share: 0.25, seed: 9007199254740992}\n  jobs:");
        const Scenario s = scenario(text);
        QCOMPARE(s.workload.jobs[1].maxGpus, 16LL);
        QCOMPARE(s.workload.generator.seed, 9007199254740992ULL);
        QCOMPARE(s.workload.generator.durations[1].value, 1800.0);
        QVERIFY(!s.workload.topologyAware);
        const Scenario back = scenario(scenarioToYaml(s));
        QVERIFY(back.workload == s.workload);
        QVERIFY(back == s);
        const Scenario preset = test::preset("shared-cluster");
        QVERIFY(!preset.workload.empty());
        QVERIFY(scenario(scenarioToYaml(preset)) == preset);
    }

    // --- Issue 19: never hang, scale, never a silent wrong answer ---------------------
    void aHundredThousandJobsAreAllAccountedFor()
    {
        // Quadratic before (10k 0.5 s, 30k 3.5 s, 100k 42 s): the queues are now searched
        // by need. Performance is reported by `dtsim-cli bench`; here, correctness at size.
        Scenario s = test::preset("shared-cluster");
        s.workload.generator.count = 100000;
        for (const std::string& policy : policyNames()) {
            const ClusterResult r = predictRun(s, policy);
            QVERIFY2(r.refused.empty(), r.refused.c_str());
            QCOMPARE(int(r.jobs.size()), 100000);
            int done = 0;
            for (const ProjectResult& p : r.projects)
                done += p.finished;
            QCOMPARE(done + r.infeasible, 100000); // every job ran to its end
            QVERIFY(r.meanUtilization > 0.75 && r.meanUtilization <= 1); // a saturated stream keeps it busy (FIFO blocks least)
            QVERIFY(std::isfinite(r.meanQueueSeconds) && std::isfinite(r.jainFairness) && std::isfinite(r.makespan));
        }
    }

    void queriesFindWhatAWalkWouldFind()
    {
        // The segment tree gives the first waiting job that passes a test, as a walk would.
        WaitQueue q;
        q.reset(100);
        for (int i = 0; i < 100; i += 3)
            q.add(i, { 8LL * (1 + i % 7), 8, double(3600 * (1 + i % 5)) });
        QCOMPARE(q.size(), 34);
        QCOMPARE(q.first(), 0);
        q.remove(0);
        QCOMPARE(q.first(), 3);
        for (long long free : { 8LL, 16LL, 24LL, 56LL })
            for (double window : { 3600.0, 7200.0, 1e9 })
                for (int after : { -1, 3, 50, 98 }) {
                    auto test = [&](const WaitNeed& n) { return n.gpus <= free && n.runtime <= window; };
                    int walk = -1;
                    for (int i = after + 1; i < 100 && walk < 0; ++i)
                        if (q.contains(i) && 8LL * (1 + i % 7) <= free && 3600.0 * (1 + i % 5) <= window)
                            walk = i;
                    QCOMPARE(q.firstAfter(after, test, test), walk);
                }
    }

    void farApartArrivalsAndLongJobsFinishOrAreRefused()
    {
        // arrivals_per_hour 1e-9: node failures were drawn for the whole idle cluster
        // between arrivals (billions of events). Failures now strike running jobs only.
        Scenario sparse = test::preset("shared-cluster");
        sparse.workload.generator.arrivalsPerHour = 1e-9;
        const ClusterResult r = predictRun(sparse, "fifo", test::failureRates());
        QVERIFY(r.refused.empty());
        QCOMPARE(r.projects[0].finished + r.projects[1].finished + r.projects[2].finished, 400);
        QVERIFY(r.makespan > 1e14); // 400 arrivals 3.6e12 s apart
        // A 1e12 s job on the preset's failure rates would fail tens of thousands of times
        // for every one of its hundreds of copies: refused, naming the durations.
        Scenario endless = test::preset("shared-cluster");
        endless.workload.generator.durations = { { 1e12, 1 } };
        const auto issue = clusterIssue(endless, test::failureRates());
        QVERIFY(issue);
        QCOMPARE(QString::fromStdString(issue->field), QString("workload.generate.durations"));
        QVERIFY(!predictRun(endless, "fifo", test::failureRates()).refused.empty());
        // Checkpointing less often than a job's allocation fails: it would never progress.
        Scenario rare = test::preset("shared-cluster");
        rare.workload.checkpointInterval = 365 * 86400.0;
        const auto never = clusterIssue(rare, test::failureRates());
        QVERIFY(never);
        QCOMPARE(QString::fromStdString(never->field), QString("workload.checkpoint_interval"));
        // Within the budget the shipped preset simulates.
        QVERIFY(!clusterIssue(test::preset("shared-cluster"), test::failureRates()));
    }

    void sizesAndWeightsThatMeanNothingAreRefused()
    {
        const std::string base = scenarioToYaml(test::preset("shared-cluster"));
        auto refusal = [&](const char* set) -> QString {
            try {
                loadScenarioText(base, "shared.yaml", test::catalog(), { parseOverride(set) }, test::topologies());
            } catch (const InputError& e) {
                return QString::fromStdString(e.field()) + " | " + e.what();
            }
            return "accepted";
        };
        // 1e20 GPUs was cast to an integer (undefined) and ran as an 8-GPU job.
        QVERIFY2(refusal("workload.generate.sizes[0].value=1e20").startsWith("workload.generate.sizes[0].value | "),
            qPrintable(refusal("workload.generate.sizes[0].value=1e20")));
        QVERIFY(refusal("workload.generate.sizes[0].value=8.5").contains("whole number"));
        // All-zero weights sent every job to the first project.
        QVERIFY2(refusal("workload.generate.project_weights=[0, 0, 0]").startsWith("workload.generate.project_weights | "),
            qPrintable(refusal("workload.generate.project_weights=[0, 0, 0]")));
        QCOMPARE(refusal("workload.generate.project_weights=[0, 0, 1]"), QString("accepted"));
        QVERIFY(refusal("workload.generate.count=1000000").contains("must be at most 200000"));
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
