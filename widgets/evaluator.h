#pragma once
// Runs the engine for the views. The step report is microseconds of work and runs on
// the GUI thread at once; searches, frontiers and scaling sweeps run on a worker
// thread, cancellable, and only the latest request's result is delivered.
#include "simcore/calibration.h"
#include "simcore/planner/frontier.h"
#include "simcore/planner/scaling.h"
#include "simcore/planner/search.h"
#include "simcore/report.h"
#include "simcore/scenario.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace dtsim::gui {

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
    bool busy() const { return m_running > 0; }

signals:
    // Both modes for the same options: realistic and idealized (Epoch's assumptions).
    void frontierReady(const dtsim::Frontier& realistic, const dtsim::Frontier& idealized);
    void searchReady(const dtsim::SearchResult& r);
    void scalingReady(const dtsim::ScalingCurves& c);
    void busyChanged(bool busy);

private:
    struct Job {
        std::shared_ptr<std::atomic<bool>> cancel;
        int generation = 0;
    };
    Job start(Job& slot);
    void finished();

    Calibration m_calibration;
    Job m_frontier, m_search, m_scaling;
    int m_running = 0;
};

} // namespace dtsim::gui
