#pragma once
// Runs the engine for the views. The step report is microseconds of work and runs on
// the GUI thread at once; searches, frontiers and scaling sweeps run on a worker
// thread, cancellable, and only the latest request's result is delivered.
#include "simcore/calibration.h"
#include "simcore/planner/frontier.h"
#include "simcore/planner/scaling.h"
#include "simcore/planner/search.h"
#include "simcore/analysis/cost_analysis.h"
#include "simcore/analysis/run_outlook.h"
#include "simcore/reliability/reliability.h"
#include "simcore/sched/cluster_sim.h"
#include "simcore/study/advice.h"
#include "simcore/study/sweep.h"
#include "simcore/timeline/timeline.h"
#include "simcore/report.h"
#include "simcore/scenario.h"

#include <QObject>

#include <atomic>
#include <optional>
#include <memory>

namespace dtsim::gui {

// The Cluster tab's data: one job stream under two scheduling policies.
struct ClusterComparison {
    ClusterResult first, second;
};

// The Timeline tab's data: the event simulation of a few steps, or why it was not made.
struct TimelineResult {
    std::shared_ptr<const Trace> trace; // null when refused
    std::string refused;                // why no trace (too many bars)
    double estimatedBars = 0;
    double analyticalStep = 0;          // the analytical step time, for comparison
    double checkpointSeconds = 0;
    long long intervalSteps = 0;        // checkpoints every so many steps (reliability model)
    bool draft = false;                 // whole passes, not layers (TimelineOptions::perLayer off)
};
// Bars the Gantt chart lays out on the GUI thread within 50 ms: 0.92 M take 30 ms to
// lay out and 27 ms to paint, 1.84 M take 82 ms (405B preset, a row per TP rank). Past
// this the tab says how many there would be instead.
inline constexpr double kMaxTimelineBars = 1e6;

class Evaluator : public QObject {
    Q_OBJECT
public:
    explicit Evaluator(Calibration calibration, QObject* parent = nullptr);
    ~Evaluator() override;

    const Calibration& calibration() const { return m_calibration; }

    // Synchronous; the scenario must pass the plan rules.
    Report report(const Scenario& s) const;

    void requestFrontier(const FrontierOptions& o);
    void requestSearch(const Scenario& s, const SearchOptions& o);
    void requestScaling(const Scenario& s);
    void requestPinnedScaling(const Scenario& a); // a pinned scenario A's curves, drawn in grey
    void requestRunOutlook(const Scenario& s, const FailureRates& rates, int trials, unsigned long long seed);
    void requestCostStudy(const Scenario& s, const std::vector<HardwareSpec>& catalog, const FailureRates& rates,
        const CostRates& cost);
    void requestCluster(const Scenario& s, const FailureRates& rates, double gpuHourUsd, const std::string& firstPolicy,
        const std::string& secondPolicy);
    // `o` holds the tab's choices (steps, rows, schedule); the checkpoint interval comes
    // from the reliability model, or falls at the end of the window (`checkpointAtEnd`).
    // The critical path is found only when asked (`withCriticalPath`): it costs a
    // quarter of the simulation.
    // The What-if tab: the regime and the changes that help (each simulated), and a
    // two-field sweep.
    void requestAdvice(const Scenario& s, const std::vector<HardwareSpec>& catalog);
    void requestSweep(const Scenario& s, const SweepAxis& x, const SweepAxis& y, Headline metric);
    void requestTimeline(const Scenario& s, const FailureRates& rates, TimelineOptions o, bool checkpointAtEnd,
        bool withCriticalPath);
    // The same for a pinned scenario A, drawn above B's (its own slot: neither cancels the other).
    void requestPinnedTimeline(const Scenario& a, const FailureRates& rates, TimelineOptions o, bool checkpointAtEnd);
    bool busy() const { return m_running > 0; }

signals:
    // Both modes for the same options: realistic and idealized (Epoch's assumptions).
    void frontierReady(const dtsim::Frontier& realistic, const dtsim::Frontier& idealized);
    void searchReady(const dtsim::SearchResult& r);
    void scalingReady(const dtsim::ScalingCurves& c);
    void pinnedScalingReady(const dtsim::ScalingCurves& c);
    void runOutlookReady(const dtsim::RunOutlook& o);
    void costStudyReady(const dtsim::CostAnalysis& c);
    void clusterReady(const dtsim::gui::ClusterComparison& c);
    void timelineReady(const dtsim::gui::TimelineResult& t);
    void pinnedTimelineReady(const dtsim::gui::TimelineResult& t);
    void adviceReady(const dtsim::Advice& a);
    void sweepReady(const dtsim::SweepResult& r);
    void busyChanged(bool busy);

private:
    // One view's request slot: a newer request cancels the older, whose result is dropped.
    struct Job {
        std::shared_ptr<std::atomic<bool>> cancel;
        int generation = 0;
    };
    // Runs `work(cancel)` on a worker thread and hands its result to `deliver(result)` on
    // this thread, unless a newer request for the same slot came since.
    template <typename Work, typename Deliver>
    void submit(Job& slot, Work work, Deliver deliver);
    void finished();

    Calibration m_calibration;
    Job m_frontier, m_search, m_scaling, m_outlook, m_cost, m_cluster, m_timeline, m_advice, m_sweep, m_pinnedScaling, m_pinnedTimeline;
    int m_running = 0;
};

} // namespace dtsim::gui
