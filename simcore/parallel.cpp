#include "parallel.h"

namespace dtsim {

int ParallelPlan::degree(Axis a) const
{
    switch (a) {
    case Axis::TP: return tp;
    case Axis::CP: return cp;
    case Axis::DP: return dp;
    case Axis::PP: return pp;
    }
    return 1;
}

int ParallelPlan::tpRows() const
{
    if (!tp2d)
        return 1;
    int best = 1;
    for (long long d = 1; d * d <= tp; ++d)
        if (tp % d == 0)
            best = int(d);
    return best;
}

int ParallelPlan::stride(Axis a) const
{
    int s = 1;
    for (Axis inner : order) {
        if (inner == a)
            return s;
        s *= degree(inner);
    }
    return s;
}

std::string_view scheduleName(Schedule s)
{
    switch (s) {
    case Schedule::GPipe: return "gpipe";
    case Schedule::OneFOneB: return "1f1b";
    case Schedule::Interleaved1F1B: return "interleaved";
    case Schedule::DualPipe: return "dualpipe";
    }
    return "?";
}

std::optional<Schedule> scheduleFromName(std::string_view n)
{
    for (Schedule s : { Schedule::GPipe, Schedule::OneFOneB, Schedule::Interleaved1F1B, Schedule::DualPipe })
        if (scheduleName(s) == n)
            return s;
    return std::nullopt;
}

std::string_view recomputeName(Recompute r)
{
    switch (r) {
    case Recompute::None: return "none";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
    case Recompute::PerOp: return "per-op";
    case Recompute::Projections: return "projections";
    }
    return "?";
}

std::optional<Recompute> recomputeFromName(std::string_view n)
{
    for (Recompute r : kRecomputePolicies)
        if (recomputeName(r) == n)
            return r;
    return std::nullopt;
}

std::string_view axisName(Axis a)
{
    switch (a) {
    case Axis::TP: return "tp";
    case Axis::CP: return "cp";
    case Axis::DP: return "dp";
    case Axis::PP: return "pp";
    }
    return "?";
}

std::optional<Axis> axisFromName(std::string_view n)
{
    for (Axis a : { Axis::TP, Axis::CP, Axis::DP, Axis::PP })
        if (axisName(a) == n)
            return a;
    return std::nullopt;
}

} // namespace dtsim
