#pragma once
// The time axis every Gantt view shares (pipeline timeline, run timeline, cluster
// schedule): which span of time is visible, where a time falls in pixels and back,
// zoom about a point, pan, drag, fit and tick steps, with one set of gestures. Plain
// C++ so it is tested row by row without a window (tests/tst_time_axis.cpp).
#include <limits>
#include <string>
#include <vector>

namespace dtsim::gui {

class TimeAxis {
public:
    // The gestures all three views share: the mouse wheel zooms by kWheelZoom a notch
    // about the pointer; W and S zoom by kKeyZoom about the middle; A and D pan by
    // kKeyPan of the span; F or a double click fits; dragging pans.
    static constexpr double kWheelZoom = 1.25;
    static constexpr double kKeyZoom = 1.5;
    static constexpr double kKeyPan = 0.2;

    double start() const { return m_start; }
    double end() const { return m_end; }
    double span() const { return m_end - m_start; }

    // Spans outside [minSpan, maxSpan] are refused; with keepInside, the window never
    // leaves [0, the fitted end].
    void setLimits(double minSpan, double maxSpan, bool keepInside);
    // Shows [0, fullEnd x margin], the whole run with a little room after it.
    void fit(double fullEnd, double margin = 1.0);
    void show(double start, double end);

    // Pixels: the axis runs over `width` pixels from `left`.
    double x(double t, double left, double width) const;
    double time(double x, double left, double width) const;

    // factor > 1 zooms in; the time under `around` stays put. False when refused.
    bool zoom(double factor, double around);
    void pan(double seconds);
    // Wheel notches (angle / 120, positive away from the user) about a pixel.
    void wheel(double notches, double atPixel, double left, double width);
    // A drag that began with the window at `startAtPress` and has moved `dx` pixels.
    void drag(double startAtPress, double dx, double width);
    // The keyboard gestures: 'W' and 'S' zoom about the middle, 'A' and 'D' pan (the
    // uppercase letter, which is also Qt's key code). False for any other key.
    bool key(int letter);

    // Multiples of `step` inside the window.
    std::vector<double> ticks(double step) const;
    // The ticks every view labels, about `maxTicks` across the window, in one style:
    // seconds as formatSeconds writes them ("250 ms", "1.5 s") below three hours, then
    // hours ("6 h") below three days, then days ("12 d"); 1, 2 or 5 times a power of ten
    // of the unit apart.
    struct Tick {
        double t;
        std::string label;
    };
    std::vector<Tick> labelledTicks(int maxTicks) const;
    // 1, 2 or 5 times a power of ten, so that about `maxTicks` ticks fill `span`.
    static double niceStep(double span, int maxTicks);

private:
    void keepWithin();
    double m_start = 0, m_end = 1;
    double m_fullEnd = 1;
    double m_minSpan = 1e-9, m_maxSpan = std::numeric_limits<double>::max();
    bool m_keepInside = false;
};

} // namespace dtsim::gui
