#include "chaos_effects.h"

#include "reliability.h"

#include "../step.h"
#include "../units.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

FailureCause scopeCause(ChaosEvent::Scope s)
{
    return s == ChaosEvent::Scope::Rack ? FailureCause::Rack : s == ChaosEvent::Scope::Pod ? FailureCause::Pod : FailureCause::Injected;
}

// A planned drain: the job checkpoints first, so it loses no work (an asynchronous
// checkpoint must also reach storage before the job stops), then restarts on a hot spare
// when it has them, or waits for the node, whichever comes first; either way it
// re-initializes and loads the checkpoint back.
void drainEffect(const ChaosEvent& e, const ReliabilityReport& r, ChaosEffect& out)
{
    out.drainCheckpoint = r.plan.storageStall + r.plan.storageFlush;
    const bool spares = r.spareGpus > 0;
    const double away = spares ? std::min(r.provision, e.duration) : e.duration;
    out.downtime = away + r.reinit + r.checkpointLoad;
}

// Checkpoint writes fail (fraction 0: the checkpoints due are skipped, the last good one
// stays) or run at a fraction of the bandwidth: a synchronous write stalls 1/f as long;
// an asynchronous one stalls for its staging, plus what of its slower flush does not fit
// before the next checkpoint.
void outageEffect(const ChaosEvent& e, const ReliabilityReport& r, ChaosEffect& out)
{
    if (e.fraction <= 0) {
        out.skipsCheckpoints = true;
        return;
    }
    const RecoveryPlan& p = r.plan;
    const double interval = p.storageInterval();
    out.outageStall = p.async ? p.storageStall + std::max(0.0, p.storageFlush / e.fraction - (std::isfinite(interval) ? interval : 0.0))
                              : p.storageStall / e.fraction;
}

// A host's memory fills: only what the run keeps there is hit.
void hostOomEffect(const ReliabilityReport& r, bool offloadsToHost, ChaosEffect& out)
{
    out.fails = offloadsToHost;            // the offloading process is killed: a node failure
    out.failsCheckpoint = r.plan.async;    // the checkpoint staged there never reaches storage
    out.losesCopies = r.plan.strategy == RecoveryStrategy::InMemory; // its peers' copies are gone
    if (!out.fails && !out.failsCheckpoint && !out.losesCopies)
        out.noEffect = "no effect: nothing of this run lives in host memory (no offload, synchronous checkpoints, no in-memory copies)";
}

} // namespace

double linkStepSlowdown(const Scenario& s0, const Calibration& c, LinkLevel level, int tier, double fraction, double baseStep)
{
    Scenario s = s0;
    if (level == LinkLevel::ScaleUp) {
        s.cluster.scaleUpBandwidth *= fraction;
    } else if (tier > 0 && tier <= s.cluster.tierCount) {
        // Its own uplink, which 0 derives from the NICs (cluster.h): made explicit first.
        NetworkTier& t = s.cluster.tiers[std::size_t(tier - 1)];
        t.uplinkBandwidth = t.uplinkPerGpu(s.cluster.scaleOutBandwidth) * t.spanGpus * fraction;
    } else {
        s.cluster.scaleOutBandwidth *= fraction;
        for (int i = 0; i < s.cluster.tierCount; ++i)
            s.cluster.tiers[std::size_t(i)].uplinkBandwidth *= fraction;
    }
    return baseStep > 0 ? predictRun(s, c).step.stepTime / baseStep - 1 : 0.0;
}

ChaosEffect chaosEffect(const ChaosEvent& e, const ReliabilityReport& r, bool offloadsToHost, double linkSlowdown)
{
    ChaosEffect out;
    switch (e.kind) {
    case ChaosEvent::Kind::Failure:
    case ChaosEvent::Kind::Straggler:
    case ChaosEvent::Kind::CorruptCheckpoint: break; // the trials read the event itself
    case ChaosEvent::Kind::Drain: drainEffect(e, r, out); break;
    case ChaosEvent::Kind::LinkDegraded:
        out.stepSlowdown = std::max(0.0, linkSlowdown);
        if (!(out.stepSlowdown > 1e-12))
            out.noEffect = "no effect: the step's traffic does not cross that level";
        break;
    case ChaosEvent::Kind::StorageOutage: outageEffect(e, r, out); break;
    case ChaosEvent::Kind::Partition:
        // The cut runs between two units of a switch tier (two pods); a job below one
        // unit of the first tier has no collective across any such cut.
        if (r.rackGpus >= double(r.gpus) && r.gpus > 0) {
            out.noEffect = "no effect: the job runs below one switch, which no partition between pods cuts";
            break;
        }
        out.fails = true;
        out.hold = std::max(kCollectiveTimeout, e.duration);
        break;
    case ChaosEvent::Kind::HostOom: hostOomEffect(r, offloadsToHost, out); break;
    }
    return out;
}

std::vector<ChaosEffect> chaosEffects(const Scenario& s, const Calibration& c, const ReliabilityReport& r)
{
    std::vector<ChaosEffect> out;
    out.reserve(s.reliability.chaos.size());
    double baseStep = -1; // the healthy step, once, when a link event needs it
    for (const ChaosEvent& e : s.reliability.chaos) {
        const bool link = e.kind == ChaosEvent::Kind::LinkDegraded;
        if (link && baseStep < 0)
            baseStep = predictRun(s, c).step.stepTime;
        const double slow = link ? linkStepSlowdown(s, c, e.level, e.tier, e.fraction, baseStep) : 0.0;
        out.push_back(chaosEffect(e, r, s.plan.offload.usesHostMemory(), slow));
    }
    return out;
}

std::string describeChaosEffect(const ChaosEvent& e, const ChaosEffect& x)
{
    if (!x.noEffect.empty())
        return x.noEffect;
    const std::string pct = formatCount(100 * e.fraction) + "%";
    switch (e.kind) {
    case ChaosEvent::Kind::Failure: return "the job fails and recovers as from any failure";
    case ChaosEvent::Kind::Straggler: return "every step " + formatCount(100 * e.slowdown) + "% slower from then on";
    case ChaosEvent::Kind::CorruptCheckpoint: return "the next storage checkpoint is unreadable";
    case ChaosEvent::Kind::Drain:
        return "checkpoint first (" + formatSeconds(x.drainCheckpoint) + "), back after " + formatSeconds(x.downtime);
    case ChaosEvent::Kind::LinkDegraded:
        return "at " + pct + " of its bandwidth: steps " + formatCount(100 * x.stepSlowdown) + "% slower for " + formatSeconds(e.duration);
    case ChaosEvent::Kind::StorageOutage:
        return x.skipsCheckpoints ? "checkpoints due in it are skipped; the next is a whole interval after the last skipped one"
                                  : "checkpoints due in it stall " + formatSeconds(x.outageStall) + " (storage at " + pct + ")";
    case ChaosEvent::Kind::Partition:
        return "collectives hang; the job fails and restarts " + formatSeconds(x.hold) + " later from its last checkpoint";
    case ChaosEvent::Kind::HostOom: {
        std::string what = x.fails ? "the offloading process dies (a node failure)" : "";
        if (x.failsCheckpoint)
            what += std::string(what.empty() ? "" : "; ") + "the checkpoint staged there is lost";
        if (x.losesCopies)
            what += std::string(what.empty() ? "" : "; ") + "its in-memory copies are lost until the next";
        return what;
    }
    }
    return {};
}

ChaosSchedule::ChaosSchedule(const std::vector<ChaosEvent>& events, const std::vector<ChaosEffect>& effects, const ReliabilityReport& r)
{
    const int injected = int(FailureCause::Injected);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const ChaosEvent& e = events[i];
        const ChaosEffect x = effects.size() == events.size() ? effects[i] : chaosEffect(e, r, false, 0);
        const double at = e.atSeconds, end = e.atSeconds + e.duration;
        switch (e.kind) {
        case ChaosEvent::Kind::Failure: failures.push_back({ at, int(scopeCause(e.scope)), 0 }); break;
        case ChaosEvent::Kind::Straggler: stragglers.push_back(e); changes.push_back(at); break;
        case ChaosEvent::Kind::CorruptCheckpoint: corruptions.push_back(at); changes.push_back(at); break;
        case ChaosEvent::Kind::Drain: drains.push_back({ at, x.drainCheckpoint, x.downtime }); changes.push_back(at); break;
        case ChaosEvent::Kind::LinkDegraded:
            if (x.stepSlowdown > 0) {
                links.push_back({ at, end, x.stepSlowdown });
                changes.insert(changes.end(), { at, end });
            }
            break;
        case ChaosEvent::Kind::StorageOutage:
            outages.push_back({ at, end, x.skipsCheckpoints ? -1.0 : x.outageStall });
            changes.insert(changes.end(), { at, end });
            break;
        case ChaosEvent::Kind::Partition:
        case ChaosEvent::Kind::HostOom:
            if (x.fails)
                failures.push_back({ at, injected, x.hold });
            if (x.failsCheckpoint) {
                corruptions.push_back(at);
                changes.push_back(at);
            }
            if (x.losesCopies) {
                copyLosses.push_back(at);
                changes.push_back(at);
            }
            break;
        }
    }
    std::sort(failures.begin(), failures.end(), [](const Failure& a, const Failure& b) { return a.at < b.at; });
    std::sort(drains.begin(), drains.end(), [](const Drain& a, const Drain& b) { return a.at < b.at; });
    std::sort(changes.begin(), changes.end());
    std::sort(corruptions.begin(), corruptions.end());
    std::sort(copyLosses.begin(), copyLosses.end());
}

double ChaosSchedule::paceAt(double t) const
{
    double straggler = 0, link = 0;
    for (const ChaosEvent& e : stragglers)
        if (t >= e.atSeconds)
            straggler = std::max(straggler, e.slowdown);
    for (const Window& w : links)
        if (t >= w.from && t < w.until)
            link = std::max(link, w.value);
    return (1 + straggler) * (1 + link);
}

const ChaosSchedule::Window* ChaosSchedule::outageAt(double t) const
{
    const Window* worst = nullptr;
    for (const Window& w : outages)
        if (t >= w.from && t < w.until && (!worst || w.value < 0 || (worst->value >= 0 && w.value > worst->value)))
            worst = &w;
    return worst;
}

bool ChaosSchedule::copiesLostIn(double from, double to) const
{
    const auto it = std::lower_bound(copyLosses.begin(), copyLosses.end(), from);
    return it != copyLosses.end() && *it <= to;
}

} // namespace dtsim
