#pragma once
// What the window tests share: the app's data from the source tree, waiting for the
// background work, a laptop-sized window, and the checks a screenshot cannot make by
// eye (a label Qt Charts elided to "...", two plot labels on top of each other).
#include "simcore/loader/residuals_loader.h"
#include "simcore/planner/scaling.h"
#include "test_data.h"
#include "widgets/evaluator.h"
#include "widgets/main_window.h"

#include <QChartView>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QtTest>
#include <qcustomplot.h>

namespace dtsim::test {

inline gui::AppData appData()
{
    return { catalog(), calibration(), QString::fromStdString(dataPath("presets")), topologies(), failureRates(), costRates(),
        frontierAnchors(), QString(), {}, QString::fromStdString(dataPath("docs")),
        loadResiduals(dataPath("resources/validation/residuals.yaml")), loadModelCatalogue(dataPath("resources/models/catalogue.yaml")) };
}

// Background work takes longer under the sanitizers (DTSIM_TIME_SCALE): wait longer.
inline void waitIdle(gui::MainWindow& w, int ms = 20000)
{
    const int scale = qEnvironmentVariableIntValue("DTSIM_TIME_SCALE");
    ms *= scale > 0 ? scale : 1;
    w.flushPending();
    QElapsedTimer t;
    t.start();
    while (w.evaluator()->busy() && t.elapsed() < ms)
        QTest::qWait(20);
    QApplication::processEvents();
}

// The window as a laptop shows it: maximised on its screen, or presenting (full screen).
inline void laptopWindow(gui::MainWindow& w, bool presenting)
{
    if (presenting)
        w.setPresentationMode(true);
    else
        w.setWindowState(Qt::WindowMaximized);
    w.show();
    QApplication::processEvents();
    waitIdle(w);
}

// A preset on a laptop's maximised window, on `tab`, its work done.
inline bool laptopWindowOn(gui::MainWindow& w, const char* preset, const char* tab)
{
    if (!w.openPreset(preset))
        return false;
    laptopWindow(w, false);
    if (!w.selectTab(tab))
        return false;
    waitIdle(w);
    return true;
}

inline QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Every visible text of every visible Qt Charts chart under `root` that Qt shortened
// ("..." in place of what did not fit): tick labels, axis titles, legends.
inline QStringList elidedChartTexts(QWidget* root)
{
    QStringList found;
    for (QChartView* view : root->findChildren<QChartView*>()) {
        if (!view->isVisible() || !view->scene())
            continue;
        for (QGraphicsItem* item : view->scene()->items()) {
            if (!item->isVisible())
                continue;
            QString text;
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
                text = t->toPlainText();
            else if (auto* s = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                text = s->text();
            if (text.contains("...") || text.contains(QChar(0x2026)))
                found << view->chart()->title() + ": " + text;
        }
    }
    return found;
}

// Scaling curves that fall by half a doubling, 1 to 4,096 GPUs (the growing batch 20%
// slower): data for the Scaling tab's marks, independent of any preset.
inline ScalingCurves halvingScalingCurves()
{
    ScalingCurves c;
    for (long long g = 1; g <= 4096; g *= 2) {
        ScalingPoint p;
        p.gpus = g;
        p.timeToTrain = 1e6 / double(g);
        p.efficiency = 0.9;
        p.fits = true;
        c.fixedBatch.push_back(p);
        p.timeToTrain *= 1.2;
        c.growingBatch.push_back(p);
    }
    return c;
}

// Pairs of visible text labels of a plot whose boxes overlap.
inline QStringList overlappingPlotTexts(QCustomPlot* plot)
{
    std::vector<std::pair<QString, QRectF>> labels;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible() && !t->text().isEmpty())
            labels.emplace_back(t->text(), QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized());
    QStringList overlaps;
    for (std::size_t a = 0; a < labels.size(); ++a)
        for (std::size_t b = a + 1; b < labels.size(); ++b)
            if (labels[a].second.intersects(labels[b].second))
                overlaps << labels[a].first + " / " + labels[b].first;
    return overlaps;
}

} // namespace dtsim::test
