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

namespace dtsim::gui {

QStringList themeNames(); // system, light, dark
bool applyTheme(const QString& name); // false for an unknown name
QString currentTheme();
void restyleCharts(QWidget* root);

} // namespace dtsim::gui
