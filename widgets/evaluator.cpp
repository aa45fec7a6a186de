#include "evaluator.h"

#include "simcore/analysis/timeline_setup.h"
#include "simcore/planner/sync_wall.h"
#include "simcore/timeline/critical_path.h"
#include "simcore/units.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <type_traits>

namespace dtsim::gui {

Evaluator::Evaluator(Calibration calibration, QObject* parent)
    : QObject(parent)
    , m_calibration(std::move(calibration))
{
}

Evaluator::~Evaluator()
{
    for (Job* j : { &m_frontier, &m_search, &m_scaling, &m_outlook, &m_cost, &m_cluster, &m_timeline, &m_advice, &m_sweep, &m_pinnedScaling, &m_pinnedTimeline })
        if (j->cancel)
            j->cancel->store(true);
}

Report Evaluator::report(const Scenario& s) const { return predictRunWithSyncWall(s, m_calibration); }

template <typename Work, typename Deliver>
void Evaluator::submit(Job& slot, Work work, Deliver deliver)
{
    using Result = std::invoke_result_t<Work, const std::atomic<bool>&>;
    // Cancel what runs for this view; the newest request wins.
    if (slot.cancel)
        slot.cancel->store(true);
    slot.cancel = std::make_shared<std::atomic<bool>>(false);
    const Job job { slot.cancel, ++slot.generation };
    if (m_running++ == 0)
        emit busyChanged(true);
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, &slot, job, deliver] {
        if (job.generation == slot.generation && !job.cancel->load())
            deliver(watcher->result());
        watcher->deleteLater();
        finished();
    });
    // The work holds its own reference to the flag, alive while it runs.
    watcher->setFuture(QtConcurrent::run([work, cancel = job.cancel] { return work(*cancel); }));
}

void Evaluator::finished()
{
    if (--m_running == 0)
        emit busyChanged(false);
}

void Evaluator::requestFrontier(const FrontierOptions& options)
{
    const Calibration cal = m_calibration;
    submit(m_frontier,
        [options, cal](const std::atomic<bool>& cancel) {
            FrontierOptions real = options, ideal = options;
            real.cancel = ideal.cancel = &cancel;
            real.threads = ideal.threads = 1; // leave a core to the GUI
            real.mode = FrontierMode::Realistic;
            ideal.mode = FrontierMode::Idealized;
            return std::pair { computeFrontier(real, cal), computeFrontier(ideal, cal) };
        },
        [this](const std::pair<Frontier, Frontier>& p) { emit frontierReady(p.first, p.second); });
}

void Evaluator::requestSearch(const Scenario& s, const SearchOptions& options)
{
    const Calibration cal = m_calibration;
    submit(m_search,
        [s, options, cal](const std::atomic<bool>& cancel) {
            SearchOptions o = options;
            o.cancel = &cancel;
            o.threads = 1;
            return searchPlans(s, cal, o);
        },
        [this](const SearchResult& r) { emit searchReady(r); });
}

void Evaluator::requestScaling(const Scenario& s)
{
    const Calibration cal = m_calibration;
    submit(m_scaling, [s, cal](const std::atomic<bool>&) { return scalingCurves(s, cal); },
        [this](const ScalingCurves& c) { emit scalingReady(c); });
}

void Evaluator::requestPinnedScaling(const Scenario& a)
{
    const Calibration cal = m_calibration;
    submit(m_pinnedScaling, [a, cal](const std::atomic<bool>&) { return scalingCurves(a, cal); },
        [this](const ScalingCurves& c) { emit pinnedScalingReady(c); });
}

void Evaluator::requestRunOutlook(const Scenario& s, const FailureRates& rates, int trials, unsigned long long seed)
{
    const Calibration cal = m_calibration;
    submit(m_outlook,
        [s, rates, cal, trials, seed](const std::atomic<bool>& cancel) {
            RunOutlookOptions o;
            o.trials = trials;
            o.seed = seed;
            o.recordFirstTrial = true; // the tab draws the first trial's timeline
            o.cancel = &cancel;
            return runOutlook(s, cal, rates, o);
        },
        [this](const RunOutlook& o) { emit runOutlookReady(o); });
}

void Evaluator::requestAdvice(const Scenario& s, const std::vector<HardwareSpec>& catalog)
{
    const Calibration cal = m_calibration;
    submit(m_advice, [s, catalog, cal](const std::atomic<bool>& cancel) { return advise(s, cal, catalog, &cancel); },
        [this](const Advice& a) { emit adviceReady(a); });
}

void Evaluator::requestSweep(const Scenario& s, const SweepAxis& x, const SweepAxis& y, Headline metric)
{
    const Calibration cal = m_calibration;
    submit(m_sweep, [s, x, y, metric, cal](const std::atomic<bool>& cancel) { return sweep(s, cal, x, y, metric, &cancel); },
        [this](const SweepResult& r) { emit sweepReady(r); });
}

void Evaluator::requestCostStudy(const Scenario& s, const std::vector<HardwareSpec>& catalog, const FailureRates& rates,
    const CostRates& cost)
{
    const Calibration cal = m_calibration;
    submit(m_cost,
        [s, catalog, rates, cost, cal](const std::atomic<bool>& cancel) {
            CostAnalysisOptions o;
            o.cancel = &cancel;
            return analyzeCostStudy(s, cal, catalog, rates, cost, o);
        },
        [this](const CostAnalysis& c) { emit costStudyReady(c); });
}

void Evaluator::requestCluster(const Scenario& s, const FailureRates& rates, double gpuHourUsd,
    const std::string& firstPolicy, const std::string& secondPolicy)
{
    const Calibration cal = m_calibration;
    submit(m_cluster,
        [s, rates, gpuHourUsd, firstPolicy, secondPolicy, cal](const std::atomic<bool>& cancel) {
            ClusterComparison c;
            ClusterSim sim(s, cal, rates, gpuHourUsd);
            if (auto policy = makePolicy(firstPolicy))
                c.first = sim.run(*policy, &cancel);
            if (auto policy = makePolicy(secondPolicy); policy && !cancel.load())
                c.second = sim.run(*policy, &cancel);
            return c;
        },
        [this](const ClusterComparison& c) { emit clusterReady(c); });
}

namespace {

// A few steps' event simulation, sized first: past the cap the tab explains instead of hanging.
TimelineResult makeTimeline(const Scenario& s, const FailureRates& rates, const TimelineOptions& o, bool checkpointAtEnd,
    bool withCriticalPath, const Calibration& cal, const std::atomic<bool>& cancel)
{
    const TimelineSetup setup = timelineSetup(s, cal, rates, o, checkpointAtEnd);
    TimelineResult t;
    t.draft = !o.perLayer;
    t.analyticalStep = setup.step.stepTime;
    t.intervalSteps = setup.intervalSteps;
    t.checkpointSeconds = setup.options.checkpointSeconds;
    t.estimatedBars = setup.estimatedBars;
    if (t.estimatedBars > kMaxTimelineBars) {
        t.refused = "this timeline would have " + formatCount(t.estimatedBars) + " bars; the tab draws up to "
            + formatCount(kMaxTimelineBars) + ": show fewer steps, or one row per stage";
        return t;
    }
    if (!cancel.load()) {
        Trace trace = simulateTimeline(s, cal, setup.options);
        if (withCriticalPath)
            trace.critical = criticalPath(trace); // here on the worker, not in the view
        t.trace = std::make_shared<const Trace>(std::move(trace));
    }
    return t;
}

} // namespace

void Evaluator::requestTimeline(const Scenario& s, const FailureRates& rates, TimelineOptions o, bool checkpointAtEnd,
    bool withCriticalPath)
{
    const Calibration cal = m_calibration;
    submit(m_timeline,
        [s, rates, o, checkpointAtEnd, withCriticalPath, cal](const std::atomic<bool>& cancel) {
            return makeTimeline(s, rates, o, checkpointAtEnd, withCriticalPath, cal, cancel);
        },
        [this](const TimelineResult& t) { emit timelineReady(t); });
}

void Evaluator::requestPinnedTimeline(const Scenario& a, const FailureRates& rates, TimelineOptions o, bool checkpointAtEnd)
{
    const Calibration cal = m_calibration;
    submit(m_pinnedTimeline,
        [a, rates, o, checkpointAtEnd, cal](const std::atomic<bool>& cancel) {
            return makeTimeline(a, rates, o, checkpointAtEnd, false, cal, cancel);
        },
        [this](const TimelineResult& t) { emit pinnedTimelineReady(t); });
}

} // namespace dtsim::gui
