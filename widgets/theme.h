#pragma once
// Light and dark themes. "system" keeps the desktop's palette (and follows it when it
// changes); "light" and "dark" set a Fusion palette. Charts take their colours from the
// palette (palette_colors.h); after a change, restyleCharts() re-colours the ones
// already drawn, and the next plot uses the new palette throughout.
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

QT_BEGIN_NAMESPACE
class QChartView;
QT_END_NAMESPACE

namespace dtsim::gui {

QStringList themeNames(); // system, light, dark
bool applyTheme(const QString& name); // false for an unknown name
QString currentTheme();
void restyleCharts(QWidget* root);
// Sizes every chart's text from its widget's font (which follows the window's): the
// chart libraries copy a font when an axis or legend is made, so a larger window font
// (presentation mode) did not reach the charts drawn before it.
void resizeChartText(QWidget* root);
// One Qt Charts view's text in its widget's font; views call it after making new axes
// or a new chart, so presentation mode's large type outlives an edit.
void styleChartText(QChartView* view);

} // namespace dtsim::gui
