#include "edit_bench.h"

#include "widgets/evaluator.h"
#include "widgets/parameter_fields.h"
#include "widgets/parameter_panel.h"

#include <QAbstractSpinBox>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSlider>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace dtsim::gui {

namespace {

double nowMs() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

// Lets queued results (worker signals, replots) arrive until the worker is idle. How
// long each event held the loop is timed one event at a time (TimedApplication::notify).
void settle(MainWindow& w)
{
    QElapsedTimer guard;
    guard.start();
    do
        QApplication::processEvents(QEventLoop::AllEvents);
    while (w.evaluator()->busy() && guard.elapsed() < 30000);
}

// "field=value" as the panel shows it, to name the slowest edit.
QString editedValue(MainWindow& w, const QString& id)
{
    const auto* box = qobject_cast<const QAbstractSpinBox*>(w.panel()->editor(id));
    return id + "=" + (box ? box->text() : QString("?"));
}

struct PresetFigures {
    QString preset;
    int edits = 0;
    double p50 = 0, p95 = 0, max = 0, longestBlock = 0;
    QString slowest; // the slowest edit: "field=value"
};

PresetFigures benchPreset(TimedApplication& app, const AppData& data, const QString& preset, const EditBenchOptions& o)
{
    MainWindow w(data);
    w.resize(1600, 1000);
    w.show();
    w.openPreset(preset);
    if (!o.tab.isEmpty())
        w.selectTab(o.tab);
    w.flushPending();
    settle(w);

    // The panel's sliders in turn, each dragged a fifth of its travel and back in ten
    // moves (a drag sends many more, smaller ones; these are the costly far ends).
    std::vector<std::pair<QString, QSlider*>> sliders;
    for (const FieldSpec& f : scenarioFields(data.catalog))
        if (f.kind == FieldKind::Integer || f.kind == FieldKind::Real)
            if (QSlider* s = w.panel()->slider(f.id); s && s->isVisibleTo(w.panel())) // a layer table hides the transformer's
                sliders.emplace_back(f.id, s);
    PresetFigures fig;
    fig.preset = preset;
    std::vector<double> latencies;
    app.startTiming();
    double longestBlock = 0;
    for (int i = 0; i < o.edits && !sliders.empty(); ++i) {
        const auto& [id, s] = sliders[std::size_t(i / 10) % sliders.size()];
        const int move = std::max(1, (s->maximum() - s->minimum()) / 25);
        const int target = std::clamp(s->value() + (i % 10 < 5 ? move : -move), s->minimum(), s->maximum());
        const double t0 = nowMs();
        s->setSliderDown(true); // a drag: edits merge into one undo step
        s->setValue(target);
        const double handled = nowMs() - t0; // the edit's own handler, on the GUI thread
        longestBlock = std::max(longestBlock, handled);
        settle(w);
        s->setSliderDown(false);
        latencies.push_back(nowMs() - t0);
        if (latencies.back() >= fig.max) {
            fig.max = latencies.back();
            fig.slowest = editedValue(w, id);
        }
    }
    fig.edits = int(latencies.size());
    fig.p50 = percentile(latencies, 0.5);
    fig.p95 = percentile(latencies, 0.95);
    fig.longestBlock = std::max(longestBlock, app.longestEventMs());
    w.flushPending(); // the debounced background work (hidden tabs) after the drag
    settle(w);
    return fig;
}

} // namespace

bool TimedApplication::notify(QObject* receiver, QEvent* event)
{
    if (!m_timing || m_depth > 0)
        return QApplication::notify(receiver, event);
    ++m_depth;
    const double t = nowMs();
    const bool r = QApplication::notify(receiver, event);
    m_longest = std::max(m_longest, nowMs() - t);
    --m_depth;
    return r;
}

int runEditBench(TimedApplication& app, const AppData& data, const EditBenchOptions& o)
{
    QStringList presets = o.presets;
    if (presets.isEmpty())
        for (const QString& f : QDir(data.presetsDir).entryList({ "*.yaml" }, QDir::Files, QDir::Name))
            presets << f.chopped(5);
    QJsonArray rows;
    std::printf("%-22s %6s %9s %9s %9s %12s  %s\n", "preset", "edits", "p50 ms", "p95 ms", "max ms", "blocked ms", "slowest edit");
    double worstP95 = 0, worstBlock = 0;
    for (const QString& p : presets) {
        const PresetFigures f = benchPreset(app, data, p, o);
        worstP95 = std::max(worstP95, f.p95);
        worstBlock = std::max(worstBlock, f.longestBlock);
        if (!o.json)
            std::printf("%-22s %6d %9.2f %9.2f %9.2f %12.2f  %s\n", qPrintable(f.preset), f.edits, f.p50, f.p95, f.max, f.longestBlock,
                qPrintable(f.slowest));
        rows.append(QJsonObject { { "preset", f.preset }, { "edits", f.edits }, { "p50_ms", f.p50 }, { "p95_ms", f.p95 },
            { "max_ms", f.max }, { "longest_block_ms", f.longestBlock }, { "slowest_edit", f.slowest } });
    }
    if (o.json) {
        const QJsonObject out { { "tab", o.tab.isEmpty() ? QString("default") : o.tab }, { "presets", rows },
            { "worst_p95_ms", worstP95 }, { "worst_block_ms", worstBlock }, { "targets", QJsonObject { { "p95_ms", 16 }, { "block_ms", 50 } } } };
        std::printf("%s", QJsonDocument(out).toJson(QJsonDocument::Indented).constData());
    } else {
        std::printf("worst p95 %.2f ms (target 16), longest block %.2f ms (target 50)\n", worstP95, worstBlock);
    }
    return 0;
}

} // namespace dtsim::gui
