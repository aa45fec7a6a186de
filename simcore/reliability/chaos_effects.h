#pragma once
// What each chaos event does to a run (issue 45: drain, link_degraded, storage_outage,
// partition, host_oom beside the older failure, straggler and corrupt_checkpoint), worked
// out once before the Monte Carlo's trials, and the events of one pass through a run in
// the order the trials meet them. docs/reliability.md, "Chaos events", explains each.
#include "../calibration.h"
#include "../reliability_spec.h"
#include "../scenario.h"

#include <string>
#include <vector>

namespace dtsim {

struct ReliabilityReport;
struct RecoveryPlan;

// How long a collective waits for a peer before the job gives up: PyTorch's default for
// the NCCL backend, `kProcessGroupNCCLDefaultTimeout` = 10 min in
// torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp, which `init_process_group(timeout=)`
// defaults to ("10 minutes for NCCL and 30 minutes for other backends", its docs).
inline constexpr double kCollectiveTimeout = 600;

// One event's effect on this run. Figures are seconds unless named otherwise.
struct ChaosEffect {
    double stepSlowdown = 0;    // link_degraded: the step model's fractional slowdown while it lasts
    double downtime = 0;        // drain: from the drain's checkpoint to training again
    double drainCheckpoint = 0; // drain: the checkpoint taken first (an async one is flushed too)
    bool fails = false;         // partition, or host_oom with offload: the job fails at `at`
    double hold = 0;            // partition: after `at`, the restart cannot begin before max(timeout, duration)
    bool failsCheckpoint = false; // host_oom with async checkpoints: the storage checkpoint staged next is lost
    bool losesCopies = false;   // host_oom with in-memory copies: the host's copies are gone until the next one
    double outageStall = 0;     // storage_outage: a storage checkpoint's stall in the window (fraction > 0)
    bool skipsCheckpoints = false; // storage_outage with writes failing: checkpoints due in it are skipped
    // Why the event changes nothing on this run (a host_oom with nothing in host memory, a
    // partition of a job inside one pod); empty when it has an effect.
    std::string noEffect;
};

// The step time's fractional slowdown with one level of the network at `fraction` of
// its bandwidth (`tier` 0: the NICs and every switch tier, k: tier k alone): the step
// model run again against the healthy `baseStep` (seconds), since a ring and an
// all-to-all go at their slowest link's pace.
double linkStepSlowdown(const Scenario& s, const Calibration& c, LinkLevel level, int tier, double fraction, double baseStep);

// One event's effect from the report alone; `offloadsToHost` (the plan keeps training
// state in host memory) and a link's `linkSlowdown` come from the scenario.
ChaosEffect chaosEffect(const ChaosEvent& e, const ReliabilityReport& r, bool offloadsToHost, double linkSlowdown);

// Every event of the scenario's list, in its order: one step-model run per
// link_degraded event, none per trial. sampleRuns reads them from the report
// (ReliabilityReport::chaos); runOutlook fills them.
std::vector<ChaosEffect> chaosEffects(const Scenario& s, const Calibration& c, const ReliabilityReport& r);

// What the event does here, in a line for the CLI and the Reliability tab ("drain for
// 6 h: checkpoint 10 s, back on a spare after 10.3 min"); its noEffect when it has none.
std::string describeChaosEffect(const ChaosEvent& e, const ChaosEffect& x);

// The events of one pass through a run, sorted, as the trials meet them.
struct ChaosSchedule {
    struct Failure {
        double at = 0;
        int like = 0;     // the FailureCause whose coverage and recovery it has
        double hold = 0;  // seconds after `at` before recovery can start (a partition's)
    };
    struct Window {
        double from = 0, until = 0;
        double value = 0; // link: the step slowdown; outage: the stall, or < 0 when writes fail
    };
    struct Drain {
        double at = 0, checkpoint = 0, downtime = 0;
    };
    std::vector<Failure> failures;   // injected failures, sorted
    std::vector<double> changes;     // times the pace, storage or copies change, sorted
    std::vector<ChaosEvent> stragglers;
    std::vector<double> corruptions; // unreadable (or lost) storage checkpoints, sorted
    std::vector<Window> links, outages;
    std::vector<Drain> drains;       // sorted
    std::vector<double> copyLosses;  // in-memory copies lost, sorted

    // `effects` matches `events` one to one; without it (size differs) each effect comes
    // from the report alone (no link slowdown, nothing in host memory).
    ChaosSchedule(const std::vector<ChaosEvent>& events, const std::vector<ChaosEffect>& effects, const ReliabilityReport& r);
    // The pace at `t`: 1 + slowdown, stragglers and degraded links compounding.
    double paceAt(double t) const;
    // A storage outage at `t`: nullptr when none.
    const Window* outageAt(double t) const;
    // Whether in-memory copies were lost in [from, to].
    bool copiesLostIn(double from, double to) const;
};

} // namespace dtsim
