#include "time_axis.h"

#include "simcore/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dtsim::gui {

void TimeAxis::setLimits(double minSpan, double maxSpan, bool keepInside)
{
    m_minSpan = minSpan;
    m_maxSpan = maxSpan;
    m_keepInside = keepInside;
}

void TimeAxis::fit(double fullEnd, double margin)
{
    m_fullEnd = fullEnd > 0 ? fullEnd : 1;
    m_start = 0;
    m_end = m_fullEnd * margin;
}

void TimeAxis::show(double start, double end)
{
    if (!(end > start))
        return;
    m_start = start;
    m_end = end;
    keepWithin();
}

double TimeAxis::x(double t, double left, double width) const
{
    return left + (t - m_start) / span() * std::max(1.0, width);
}

double TimeAxis::time(double x, double left, double width) const
{
    return m_start + (x - left) / std::max(1.0, width) * span();
}

bool TimeAxis::zoom(double factor, double around)
{
    if (!(factor > 0))
        return false;
    const double wanted = span() / factor;
    const double maxSpan = m_keepInside ? std::min(m_maxSpan, m_fullEnd) : m_maxSpan;
    const double next = std::clamp(wanted, m_minSpan, std::max(m_minSpan, maxSpan));
    if (next == span())
        return false;
    const double share = (around - m_start) / span();
    m_start = around - share * next;
    m_end = m_start + next;
    keepWithin();
    return true;
}

void TimeAxis::pan(double seconds)
{
    m_start += seconds;
    m_end += seconds;
    keepWithin();
}

void TimeAxis::wheel(double notches, double atPixel, double left, double width)
{
    zoom(std::pow(kWheelZoom, notches), time(atPixel, left, width));
}

void TimeAxis::drag(double startAtPress, double dx, double width)
{
    const double s = span();
    m_start = startAtPress - dx / std::max(1.0, width) * s;
    m_end = m_start + s;
    keepWithin();
}

bool TimeAxis::key(int letter)
{
    const double mid = (m_start + m_end) / 2;
    switch (letter) {
    case 'W': zoom(kKeyZoom, mid); return true;
    case 'S': zoom(1 / kKeyZoom, mid); return true;
    case 'A': pan(-kKeyPan * span()); return true;
    case 'D': pan(kKeyPan * span()); return true;
    default: return false;
    }
}

void TimeAxis::keepWithin()
{
    if (!m_keepInside)
        return;
    const double s = std::min(span(), m_fullEnd);
    m_start = std::clamp(m_start, 0.0, std::max(0.0, m_fullEnd - s));
    m_end = m_start + s;
}

std::vector<double> TimeAxis::ticks(double step) const
{
    std::vector<double> out;
    if (!(step > 0) || span() / step > 10000)
        return out;
    for (double t = std::ceil(m_start / step) * step; t <= m_end; t += step)
        out.push_back(t);
    return out;
}

std::vector<TimeAxis::Tick> TimeAxis::labelledTicks(int maxTicks) const
{
    const double s = span();
    const bool days = s >= 3 * units::day, hours = !days && s >= 3 * units::hour;
    const double unit = days ? units::day : hours ? units::hour : 1.0;
    std::vector<Tick> out;
    for (double t : ticks(niceStep(s / unit, maxTicks) * unit)) {
        if (unit == 1.0) {
            out.push_back({ t, formatSeconds(t) });
            continue;
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.4g %s", t / unit, days ? "d" : "h");
        out.push_back({ t, buf });
    }
    return out;
}

double TimeAxis::niceStep(double span, int maxTicks)
{
    const double raw = span / std::max(1, maxTicks);
    if (!(raw > 0))
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : { 1.0, 2.0, 5.0 })
        if (m * p >= raw)
            return m * p;
    return 10 * p;
}

} // namespace dtsim::gui
