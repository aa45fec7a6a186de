#pragma once
// What failures, checkpoints and stragglers do to a run: the cluster's failure rate,
// checkpoint size and cost, the optimal interval (Young 1974, Daly 2006), the expected
// time to train, and a seeded Monte Carlo of the whole run.
#include "chaos_effects.h"

#include "../calibration.h"
#include "../plan_check.h"
#include "../report.h"
#include "../scenario.h"

#include <array>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace dtsim {

// Rack and Pod are correlated: one event takes every GPU below a rack (leaf) or pod
// switch. Preemption is spot capacity taken back (set by the cost model's pricing, not a
// hardware fault); Injected is a chaos event.
enum class FailureCause { Gpu, Host, Nic, SwitchOrCable, Software, Rack, Pod, Preemption, Injected };
inline constexpr int kComponentCount = 8; // causes drawn at random; Injected is not
inline constexpr int kFailureCauseCount = 9;
const char* failureCauseName(FailureCause c);

// Per-unit MTBF and recovery timings and storage defaults, from resources/reliability.
struct FailureRates {
    std::array<double, kComponentCount> mtbf {};    // seconds, per unit
    // What one unit is: a GPU, a host, or a GPU's path through one switch level (the
    // NIC's leaf plus each tier above), so that deeper networks fail more often.
    enum class Unit { Gpu, Node, PortLevel, Rack, Pod };
    std::array<Unit, kComponentCount> unit {};
    double detect = 30, drain = 30, provisionSpare = 300, provisionWait = 3600, reinit = 120;
    double spareFraction = 0.01, backupWorkerFraction = 0.04;
    // Other fleets' failures per node-day (8 GPUs behind 3 switch levels, the census's
    // node), indexed by RateSet; the census's own is what `mtbf` gives such a node.
    std::array<double, kRateSetCount> failuresPerNodeDay {};
    double writeBandwidthPerGpu = 0.427e9, readBandwidthPerGpu = 0.427e9, stagingBandwidthPerGpu = 25e9;
};

// Failures a day of one census node (8 GPUs, 3 switch levels) under `mtbf`.
double censusNodeFailuresPerDay(const FailureRates& f);
const char* rateSetName(RateSet s);

// The shipped rates, scaled to the scenario's rate set (reliability.failure_rates), with
// the scenario's own (reliability.mtbf.*, reliability.recovery.*) in their place where it
// sets them.
FailureRates scenarioRates(const FailureRates& shipped, const ReliabilitySpec& spec);

// How one recovery strategy spends time (docs/reliability.md, "Recovery strategies").
// Training runs in segments of `fastInterval` seconds, each followed by a `fastStall`;
// every `segmentsPerStorage` segments a storage checkpoint stalls `storageStall` more.
// A failure rolls back to the last segment when the strategy covers its cause (an
// in-memory copy or a healthy replica survives), else to the last storage checkpoint.
struct RecoveryPlan {
    RecoveryStrategy strategy = RecoveryStrategy::Storage;
    bool async = false;           // storage checkpoints staged in host memory
    const char* name = "storage";
    std::string unavailable;      // why the strategy cannot run here; empty when it can
    double fastInterval = 0;      // training seconds per segment
    double fastStall = 0;         // seconds after each segment (an in-memory copy)
    double segmentsPerStorage = 1; // INFINITY: no periodic storage checkpoints
    double storageStall = 0;      // seconds training stalls per storage checkpoint
    double storageFlush = 0;      // async: background flush, which must fit the storage interval
    std::array<bool, kFailureCauseCount> covered {};
    std::array<double, kFailureCauseCount> recoveryCovered {}, recoveryUncovered {};
    double coveredRate = 0, uncoveredRate = 0; // failures a second
    // Per second of failure-free training, to first order:
    double checkpointOverhead = 0, lostWorkOverhead = 0, recoveryOverhead = 0;
    double expectedTime = 0;      // seconds, failures during recovery included

    double storageInterval() const { return fastInterval * segmentsPerStorage; }
};

struct ReliabilityReport {
    double clusterMtbf = 0; // seconds
    std::array<double, kComponentCount> failuresPerDayByCause {};
    double checkpointBytes = 0;  // written per checkpoint, all shards
    double checkpointWrite = 0;  // seconds training stalls per checkpoint (sync write, or async staging)
    double checkpointFlush = 0;  // async: background flush to storage, which must fit the interval
    double checkpointLoad = 0;   // seconds to read it back after a failure
    double detect = 0, drain = 0, provision = 0, reinit = 0;
    double recovery = 0;         // detect + drain + provision + load + reinit (lost work comes on top)
    double interval = 0;         // seconds of training between checkpoints
    double intervalSteps = 0;    // the same, in training steps
    double youngInterval = 0;    // sqrt(2 C M)
    double dalyInterval = 0;
    double failureFreeTime = 0;  // time to train with no failures or checkpoints (stragglers included)
    double cleanTime = 0;        // ... and without stragglers or degraded links
    double steps = 0;            // optimizer steps of the run (the training target's)
    double stepSlowdown = 0;     // from stragglers and degraded links, after mitigation
    double firstOrderOverhead = 0; // C/tau + (R + tau/2)/M: the textbook sum
    double expectedTime = 0;     // exact expectation under exponential failures
    double expectedFailures = 0; // over the expected run: expectedTime / (MTBF + recovery)
    double overheadFraction = 0; // expected / failure-free - 1
    double mitigationGpuHours = 0; // idle spares and backup workers over the expected run
    double spareGpus = 0;        // hot spares held idle: whole nodes
    long long gpus = 0;          // training GPUs, backup workers included
    double rackGpus = 0, podGpus = 0; // failure domains from the topology
    std::optional<PlanIssue> memoryProblem; // the plan does not fit in memory (memoryIssue): no run to analyse
    RecoveryPlan plan;           // the scenario's strategy, which the Monte Carlo runs
    // Every strategy on this run, for comparison; plan is one of them.
    std::array<RecoveryPlan, 4> strategies {};
    // What each of the scenario's chaos events does here, in its order (chaosEffects;
    // runOutlook fills it, since a degraded link costs a step-model run). sampleRuns
    // reads it; when it does not match the events, it works each out from the report
    // alone, with no link slowdown and nothing in host memory.
    std::vector<ChaosEffect> chaos;
};

// GPUs one failure takes down: a node, a rack (below one unit of the first switch
// tier, or one scale-up domain when there is no tier), a pod (below the second tier,
// else the whole cluster).
struct FailureDomains {
    double node = 1, rack = 1, pod = 1;
};
FailureDomains failureDomains(const ClusterSpec& c);

// A storage plan from a report's interval, stall and recovery, for reports made by hand
// (tests, teaching): every cause rolls back to the last checkpoint.
RecoveryPlan storagePlan(const ReliabilityReport& r);

// Interval formulas, exposed for tests and teaching.
double youngInterval(double checkpointCost, double mtbf);
double dalyInterval(double checkpointCost, double mtbf);

// The overhead of checkpoints and failures per unit of training time, for an MTBF M,
// a checkpoint stall C, a recovery R (without the lost work) and an interval tau.
// Failures may strike during recovery and restart it (Daly 2006).
struct RunOverhead {
    double checkpoints = 0; // C / tau
    double lostWork = 0;    // tau / (2 M): each failure loses half an interval on average
    double recovery = 0;    // R / M
    double firstOrder = 0;  // the sum: Young's first-order model
    double exact = 0;       // M e^{R/M} (e^{(tau + C)/M} - 1)/tau - 1, exponential failures
};
RunOverhead runOverhead(double mtbf, double checkpointCost, double recovery, double interval);
// The same over a run of `work` seconds of training: its last segment ends the run and
// writes no checkpoint, so an interval as long as the run writes none (the steady-state
// form above counts a fraction of a checkpoint there, and an interval past the end as
// if the run went on).
RunOverhead runOverhead(double mtbf, double checkpointCost, double recovery, double interval, double work);

ReliabilityReport analyzeReliability(const Scenario& s, const Calibration& c, const FailureRates& rates);
// The same with the scenario's simulation already at hand (the planner's cost search).
ReliabilityReport analyzeReliability(const Scenario& s, const Calibration& c, const FailureRates& rates, const Report& base);

// Past these a run is not one anyone would launch, and a Monte Carlo of it would not
// end: an expected run more than 20 times its failure-free length (each checkpoint
// interval is retried about e^{(tau + C)/M} times), or more than 100,000 failures.
inline constexpr double kMaxRunOverhead = 20;
inline constexpr double kMaxExpectedFailures = 1e5;
// Failures the Monte Carlo follows in all its trials together, both passes (with and
// without chaos events) included: at about 40 ns each, under half a second.
inline constexpr double kMonteCarloFailureBudget = 1e7;

// Why the run as configured cannot finish, naming the field to change; nullopt when it
// can. Every consumer of expectedTime (run, cost, the Reliability and Cost tabs) asks
// this first, so an unfinishable run is explained, never printed as inf or simulated
// for hours.
std::optional<PlanIssue> runIssue(const Scenario& s, const ReliabilityReport& r);

// The trials a Monte Carlo of `r` can afford within kMonteCarloFailureBudget, at most
// `wanted` and at least 1, when each trial is run `passes` times (2 with chaos events:
// the run and the same seeds without them).
int affordableTrials(const ReliabilityReport& r, int wanted, int passes = 1);

// One phase of one simulated run, for the run timeline.
struct RunPhase {
    enum class Kind { Training, Lost, Checkpoint, Recovery, Slow };
    Kind kind = Kind::Training;
    double start = 0, end = 0;
    int cause = -1; // FailureCause for Lost and Recovery
    // Periodic (period > 0): a `duration`-long phase every `period` seconds, the first at
    // `start`, the last ending at `end`. Long failure-free spans hold thousands of
    // checkpoints, too many to list one by one (they were left out, and the lane showed
    // days without a checkpoint).
    double period = 0, duration = 0;
};

struct MonteCarloResult {
    std::vector<double> times; // per trial, seconds, sorted
    double mean = 0, p50 = 0, p90 = 0, p99 = 0;
    double goodput = 0; // failure-free time / mean time
    std::array<double, kFailureCauseCount> lostGpuHoursByCause {}; // lost work plus recovery, per trial
    double checkpointGpuHours = 0;
    double failuresMean = 0;
    // Trials stopped after 50 times the expected failures (plus 1,000): their times are
    // lower bounds. Counted and reported, never hidden.
    int cappedTrials = 0;
    std::vector<RunPhase> firstTrial; // trial 0's phases, when asked for
    bool firstTrialTruncated = false;  // ... and there were more than could be kept
};

// The odds of finishing by `deadline` (seconds): the share of trials that did. A capped
// trial's time is a lower bound, so it counts as missing a deadline it had not reached.
double deadlineProbability(const MonteCarloResult& m, double deadline);
// The deadline met in `odds` of the trials (0.9: the P90 time).
double deadlineAtOdds(const MonteCarloResult& m, double odds);

// Seeded: the same seed gives the same result. Chaos events apply to every trial.
// Training between failures advances in whole intervals at a time, so the cost is
// per failure, not per checkpoint.
MonteCarloResult sampleRuns(const ReliabilityReport& r, const ReliabilitySpec& spec, int trials,
    unsigned long long seed, bool recordFirstTrial = false, const std::atomic<bool>* cancel = nullptr);

} // namespace dtsim
