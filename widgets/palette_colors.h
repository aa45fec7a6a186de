#pragma once
// Chart colours derived from the application palette (QCustomPlot has no themes), so
// charts follow light and dark desktops.
#include <QApplication>
#include <QColor>
#include <QPalette>

namespace dtsim::gui {

inline bool darkPalette() { return QApplication::palette().color(QPalette::Window).lightness() < 128; }
inline QColor foreground() { return QApplication::palette().color(QPalette::WindowText); }
inline QColor background() { return QApplication::palette().color(QPalette::Base); }
inline QColor gridColor()
{
    QColor c = foreground();
    c.setAlpha(50);
    return c;
}
// Text that reports an error or an alarm, a link-like action, and an error banner's
// fill and text: one place for them, readable on light and dark desktops.
inline QColor errorColor() { return darkPalette() ? QColor(255, 120, 105) : QColor(192, 57, 43); }
inline QColor linkColor() { return darkPalette() ? QColor(110, 170, 230) : QColor(36, 113, 163); }
inline QColor errorBannerFill() { return darkPalette() ? QColor(90, 30, 26) : QColor(253, 236, 234); }
inline QColor errorBannerInk() { return darkPalette() ? QColor(255, 205, 200) : QColor(146, 43, 33); }

// A categorical series colour: Okabe-Ito (readable for colour-blind viewers) first,
// then darker variants, so up to 16 series stay distinct.
inline QColor seriesColor(int i)
{
    static const QColor colors[] = { QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115), QColor(204, 121, 167),
        QColor(86, 180, 233), QColor(213, 94, 0), QColor(240, 228, 66), QColor(120, 120, 120) };
    const QColor c = colors[i % 8];
    return (i / 8) % 2 ? c.darker(160) : c;
}

} // namespace dtsim::gui
