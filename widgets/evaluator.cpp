#include "evaluator.h"

#include "simcore/report_check.h"
#include "simcore/timeline/critical_path.h"
#include "simcore/planner/sync_wall.h"

#include "simcore/step.h"
#include "simcore/units.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

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

Report Evaluator::report(const Scenario& s) const { return simulateWithSyncWall(s, m_calibration); }

Evaluator::Job Evaluator::start(Job& slot)
{
    // Cancel what runs for this view; the newest request wins.
    if (slot.cancel)
        slot.cancel->store(true);
    slot.cancel = std::make_shared<std::atomic<bool>>(false);
    ++slot.generation;
    if (m_running++ == 0)
        emit busyChanged(true);
    return slot;
}

void Evaluator::finished()
{
    if (--m_running == 0)
        emit busyChanged(false);
}

template <typename Result, typename Work, typename Deliver>
static void runJob(QObject* owner, Work work, Deliver deliver)
{
    auto* watcher = new QFutureWatcher<Result>(owner);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, owner, [watcher, deliver] {
        deliver(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(work));
}

void Evaluator::requestFrontier(const FrontierOptions& options)
{
    const Job job = start(m_frontier);
    FrontierOptions o = options;
    o.cancel = job.cancel.get();
    o.threads = 1; // leave a core to the GUI
    auto cancel = job.cancel; // keeps the flag alive while the work runs
    const Calibration cal = m_calibration;
    using Pair = std::pair<Frontier, Frontier>;
    runJob<Pair>(this,
        [o, cal, cancel] {
            FrontierOptions ideal = o;
            ideal.mode = FrontierMode::Idealized;
            FrontierOptions real = o;
            real.mode = FrontierMode::Realistic;
            return Pair { computeFrontier(real, cal), computeFrontier(ideal, cal) };
        },
        [this, job](const Pair& p) {
            if (job.generation == m_frontier.generation && !job.cancel->load())
                emit frontierReady(p.first, p.second);
            finished();
        });
}

void Evaluator::requestSearch(const Scenario& s, const SearchOptions& options)
{
    const Job job = start(m_search);
    SearchOptions o = options;
    o.cancel = job.cancel.get();
    o.threads = 1;
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<SearchResult>(this, [s, o, cal, cancel] { return searchPlans(s, cal, o); },
        [this, job](const SearchResult& r) {
            if (job.generation == m_search.generation && !job.cancel->load())
                emit searchReady(r);
            finished();
        });
}

void Evaluator::requestScaling(const Scenario& s)
{
    const Job job = start(m_scaling);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<ScalingCurves>(this, [s, cal, cancel] { return scalingCurves(s, cal); },
        [this, job](const ScalingCurves& c) {
            if (job.generation == m_scaling.generation && !job.cancel->load())
                emit scalingReady(c);
            finished();
        });
}

void Evaluator::requestPinnedScaling(const Scenario& a)
{
    const Job job = start(m_pinnedScaling);
    const Calibration cal = m_calibration;
    runJob<ScalingCurves>(this, [a, cal] { return scalingCurves(a, cal); },
        [this, job](const ScalingCurves& c) {
            if (job.generation == m_pinnedScaling.generation && !job.cancel->load())
                emit pinnedScalingReady(c);
            finished();
        });
}

void Evaluator::requestRunOutlook(const Scenario& s, const FailureRates& rates, int trials, unsigned long long seed)
{
    const Job job = start(m_outlook);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<RunOutlook>(this,
        [s, rates, cal, cancel, trials, seed] {
            RunOutlook o;
            o.trialsAsked = trials;
            o.report = analyzeReliability(s, cal, rates);
            o.problem = runIssue(s, o.report);
            if (o.problem)
                return o;
            o.trials = affordableTrials(o.report, trials, s.reliability.chaos.empty() ? 1 : 2);
            o.run = simulateRun(o.report, s.reliability, o.trials, seed, true, cancel.get());
            o.hasChaos = !s.reliability.chaos.empty();
            if (o.hasChaos) {
                ReliabilitySpec calm = s.reliability;
                calm.chaos.clear();
                o.clean = simulateRun(o.report, calm, o.trials, seed, false, cancel.get());
            }
            // The engine's edge: an outlook that cannot be is shown as a problem, not drawn.
            for (const auto& bad : { badQuantity(o.report), badQuantity(o.run, o.report), badQuantity(o.clean, o.report) })
                if (bad && !o.problem)
                    o.problem = PlanIssue { *bad, badQuantityMessage(*bad) };
            return o;
        },
        [this, job](const RunOutlook& o) {
            if (job.generation == m_outlook.generation && !job.cancel->load())
                emit runOutlookReady(o);
            finished();
        });
}

void Evaluator::requestAdvice(const Scenario& s, const std::vector<HardwareSpec>& catalog)
{
    const Job job = start(m_advice);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<Advice>(this, [s, catalog, cal, cancel] { return advise(s, cal, catalog, cancel.get()); },
        [this, job](const Advice& a) {
            if (job.generation == m_advice.generation && !job.cancel->load())
                emit adviceReady(a);
            finished();
        });
}

void Evaluator::requestSweep(const Scenario& s, const SweepAxis& x, const SweepAxis& y, Headline metric)
{
    const Job job = start(m_sweep);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<SweepResult>(this, [s, x, y, metric, cal, cancel] { return sweep(s, cal, x, y, metric, cancel.get()); },
        [this, job](const SweepResult& r) {
            if (job.generation == m_sweep.generation && !job.cancel->load())
                emit sweepReady(r);
            finished();
        });
}

void Evaluator::requestCostStudy(const Scenario& s, const std::vector<HardwareSpec>& catalog, const FailureRates& rates,
    const CostRates& cost)
{
    const Job job = start(m_cost);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<CostStudy>(this,
        [s, catalog, rates, cost, cal, cancel] {
            CostStudy study;
            study.deadline = s.training.deadline;
            const Report base = simulate(s, cal);
            const ReliabilityReport rel = analyzeReliability(s, cal, ratesForPricing(rates, cost, s.cost), base);
            study.problem = runIssue(s, rel);
            if (study.problem)
                return study;
            study.report = analyzeCost(s, base, rel, cost);
            if (!cancel->load())
                study.byGpuCount = costByGpuCount(s, cal, rates, cost);
            if (!cancel->load())
                study.byGpuType = compareGpuTypes(s, cal, catalog, rates, cost, cancel.get());
            return study;
        },
        [this, job](const CostStudy& c) {
            if (job.generation == m_cost.generation && !job.cancel->load())
                emit costStudyReady(c);
            finished();
        });
}

void Evaluator::requestCluster(const Scenario& s, const FailureRates& rates, double gpuHourUsd,
    const std::string& firstPolicy, const std::string& secondPolicy)
{
    const Job job = start(m_cluster);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<ClusterComparison>(this,
        [s, rates, gpuHourUsd, firstPolicy, secondPolicy, cal, cancel] {
            ClusterComparison c;
            ClusterSim sim(s, cal, rates, gpuHourUsd);
            if (auto policy = makePolicy(firstPolicy))
                c.first = sim.run(*policy, cancel.get());
            if (auto policy = makePolicy(secondPolicy); policy && !cancel->load())
                c.second = sim.run(*policy, cancel.get());
            return c;
        },
        [this, job](const ClusterComparison& c) {
            if (job.generation == m_cluster.generation && !job.cancel->load())
                emit clusterReady(c);
            finished();
        });
}

namespace {

// A few steps' event simulation, sized first: past the cap the tab explains instead of hanging.
TimelineResult makeTimeline(const Scenario& s, const FailureRates& rates, TimelineOptions o, bool checkpointAtEnd, bool withCriticalPath,
    const Calibration& cal, const std::atomic<bool>& cancel)
{
    TimelineResult t;
    t.draft = !o.perLayer;
    const Report base = simulate(s, cal);
    t.analyticalStep = base.step.stepTime;
    const ReliabilityReport rel = analyzeReliability(s, cal, rates, base);
    t.intervalSteps = static_cast<long long>(std::min(1e15, rel.intervalSteps));
    o.checkpointEverySteps = checkpointAtEnd ? o.steps : static_cast<int>(std::min<long long>(t.intervalSteps, 1 << 30));
    o.checkpointSeconds = t.checkpointSeconds = rel.checkpointWrite;
    t.estimatedBars = estimateTimelineEvents(s, base.step, o);
    if (t.estimatedBars > kMaxTimelineBars) {
        t.refused = "this timeline would have " + formatCount(t.estimatedBars) + " bars; the tab draws up to "
            + formatCount(kMaxTimelineBars) + ": show fewer steps, or one row per stage";
        return t;
    }
    if (!cancel.load()) {
        Trace trace = simulateTimeline(s, cal, o);
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
    const Job job = start(m_timeline);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<TimelineResult>(this,
        [s, rates, o, checkpointAtEnd, withCriticalPath, cal, cancel] { return makeTimeline(s, rates, o, checkpointAtEnd, withCriticalPath, cal, *cancel); },
        [this, job](const TimelineResult& t) {
            if (job.generation == m_timeline.generation && !job.cancel->load())
                emit timelineReady(t);
            finished();
        });
}

void Evaluator::requestPinnedTimeline(const Scenario& a, const FailureRates& rates, TimelineOptions o, bool checkpointAtEnd)
{
    const Job job = start(m_pinnedTimeline);
    auto cancel = job.cancel;
    const Calibration cal = m_calibration;
    runJob<TimelineResult>(this, [a, rates, o, checkpointAtEnd, cal, cancel] { return makeTimeline(a, rates, o, checkpointAtEnd, false, cal, *cancel); },
        [this, job](const TimelineResult& t) {
            if (job.generation == m_pinnedTimeline.generation && !job.cancel->load())
                emit pinnedTimelineReady(t);
            finished();
        });
}

} // namespace dtsim::gui
