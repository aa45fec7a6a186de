#pragma once
// dtsim --bench-edits: what a slider drag costs. For every preset, 200 slider steps as
// a drag makes them; per preset the edit-to-screen latency (the dashboard and the
// visible tab showing the edited scenario, worker results included) at p50/p95/max, and
// the longest the event loop was blocked. Offscreen; prints figures, asserts nothing.
#include "widgets/main_window.h"

#include <QApplication>

namespace dtsim::gui {

// QApplication that can time every event it delivers (off unless a bench turns it on).
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override;

    void startTiming() { m_timing = true; m_longest = 0; }
    double longestEventMs() const { return m_longest; }

private:
    bool m_timing = false;
    int m_depth = 0;
    double m_longest = 0;
};

struct EditBenchOptions {
    QStringList presets; // empty: every shipped preset
    QString tab;         // empty: the tab the window opens on
    int edits = 200;
    bool json = false;
};

int runEditBench(TimedApplication& app, const AppData& data, const EditBenchOptions& o);

} // namespace dtsim::gui
