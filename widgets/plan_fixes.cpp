#include "plan_fixes.h"

#include <limits>

#include <QObject>
#include <QStringList>

#include <cstdlib>

namespace dtsim::gui {

namespace {

// The value nearest `current` in [1, limit] that satisfies `ok` (`current` itself when
// none does). It searched only within `limit` of `current`: TP 512 with 128 heads
// found nothing and offered "Set TP to 512".
int nearest(int current, int limit, const auto& ok)
{
    // Outward from `current`, far enough to cover [1, limit] from wherever it starts.
    const long long reach = std::max<long long>(static_cast<long long>(current) - 1, static_cast<long long>(limit) - current);
    for (long long d = 0; d <= reach; ++d)
        for (long long v : { static_cast<long long>(current) - d, static_cast<long long>(current) + d })
            if (v >= 1 && v <= limit && ok(static_cast<int>(v)))
                return static_cast<int>(v);
    return current;
}

std::optional<PlanFix> fixFirstRule(const Scenario& s);

} // namespace

QString rowForIssueField(const QString& field)
{
    if (field == "parallel")
        return "parallel.dp";
    return field;
}

std::optional<PlanFix> suggestFix(const Scenario& s)
{
    // One rule's fix can break another (a new TP no longer divides the GPUs): follow the
    // chain, and offer the fix only if it ends in a plan the rules accept.
    std::optional<PlanFix> fix = fixFirstRule(s);
    if (!fix)
        return std::nullopt;
    QStringList labels { fix->label };
    for (int step = 0; step < 6 && firstViolation(fix->fixed) != PlanRule::Ok; ++step) {
        const std::optional<PlanFix> next = fixFirstRule(fix->fixed);
        if (!next)
            return std::nullopt;
        labels << next->label;
        fix->fixed = next->fixed;
    }
    if (firstViolation(fix->fixed) != PlanRule::Ok)
        return std::nullopt;
    labels.removeDuplicates();
    fix->label = labels.join(QObject::tr(", then "));
    return fix;
}

namespace {

std::optional<PlanFix> fixFirstRule(const Scenario& s)
{
    PlanFix fix { {}, s };
    Scenario& f = fix.fixed;
    ParallelPlan& p = f.plan;
    const ModelSpec& m = s.model;
    switch (firstViolation(s)) {
    case PlanRule::GpuProduct: {
        const long long model = static_cast<long long>(p.tp) * p.pp * p.cp;
        if (s.cluster.gpus % model == 0) {
            p.dp = static_cast<int>(s.cluster.gpus / model);
            fix.label = QObject::tr("Set DP to %1").arg(p.dp);
        } else {
            f.cluster.gpus = p.gpus();
            fix.label = QObject::tr("Set GPUs to %1").arg(f.cluster.gpus);
        }
        return fix;
    }
    case PlanRule::TpHeads:
    case PlanRule::TpKvHeads:
    case PlanRule::TpFfn: {
        // The nearest TP that the model allows and that keeps the GPU count (DP absorbs it).
        const long long perTp = s.cluster.gpus / (static_cast<long long>(p.pp) * p.cp);
        auto valid = [&](int t) { return m.heads % t == 0 && (m.kvHeads % t == 0 || t % m.kvHeads == 0) && m.ffnHidden % t == 0; };
        int tp = nearest(p.tp, m.heads, [&](int t) { return valid(t) && perTp % t == 0; });
        if (!valid(tp))
            tp = nearest(p.tp, m.heads, valid);
        p.tp = tp;
        if (perTp % tp == 0)
            p.dp = static_cast<int>(perTp / tp);
        fix.label = QObject::tr("Set TP to %1").arg(tp);
        return fix;
    }
    case PlanRule::EpExperts:
    case PlanRule::EpDataParallel:
    case PlanRule::EpNeedsMoe: {
        auto regroups = [&](int e) {
            ParallelPlan q = p;
            q.ep = e;
            return q.expertDataParallel() != 0;
        };
        const int ep = m.isMoe() ? nearest(p.ep, m.moe.experts, [&](int e) { return m.moe.experts % e == 0 && regroups(e); }) : 1;
        if (regroups(ep)) {
            p.ep = ep;
            fix.label = QObject::tr("Set EP to %1").arg(ep);
        } else { // no EP regroups the ranks at this expert TP: the experts take the layers' TP
            p.expertTp = 0;
            fix.label = QObject::tr("Set expert TP to TP (%1)").arg(p.tp);
        }
        return fix;
    }
    case PlanRule::PpLayers:
        p.pp = m.layers;
        fix.label = QObject::tr("Set PP to %1").arg(p.pp);
        return fix;
    case PlanRule::UnevenStages:
        p.firstStageLayers = 0;
        p.lastStageLayers = 0;
        fix.label = QObject::tr("Split the layers evenly over the stages");
        return fix;
    case PlanRule::VirtualNeedsInterleaved:
        p.schedule = Schedule::Interleaved1F1B;
        fix.label = QObject::tr("Use the interleaved schedule");
        if (firstViolation(f) == PlanRule::Ok)
            return fix;
        p.schedule = s.plan.schedule;
        p.virtualStages = 1;
        fix.label = QObject::tr("Set virtual stages to 1");
        return fix;
    case PlanRule::InterleavedNeedsPipeline:
    case PlanRule::InterleavedLayers:
    case PlanRule::InterleavedMicrobatches:
    case PlanRule::DualPipeShape:
        p.schedule = Schedule::OneFOneB;
        p.virtualStages = 1;
        fix.label = QObject::tr("Use the 1F1B schedule");
        return fix;
    case PlanRule::BatchDivisibility:
    case PlanRule::MicroBatchTooLarge: {
        // A large micro-batch (a layer table's hundreds of images) on millions of replicas
        // would need a batch beyond any count: one sample a replica first.
        if (static_cast<long long>(p.dp) * f.training.microBatch > std::numeric_limits<int>::max())
            f.training.microBatch = 1;
        const long long unit = static_cast<long long>(p.dp) * f.training.microBatch;
        const long long gb = std::max<long long>(unit, (s.training.globalBatch + unit / 2) / unit * unit);
        f.training.globalBatch = static_cast<int>(gb);
        fix.label = f.training.microBatch != s.training.microBatch
            ? QObject::tr("Set micro-batch to 1 and global batch to %1").arg(gb)
            : QObject::tr("Set global batch to %1").arg(gb);
        return fix;
    }
    case PlanRule::CpSequence: {
        const int cp = nearest(p.cp, s.training.seqLen, [&](int c) { return s.training.seqLen % c == 0; });
        fix.label = QObject::tr("Set CP to %1").arg(cp);
        p.cp = cp;
        return fix;
    }
    case PlanRule::ScaleUpDomain: {
        const int domain = nearest(f.cluster.scaleUpDomain, f.cluster.gpusPerNode, [&](int d) { return f.cluster.gpusPerNode % d == 0; });
        f.cluster.scaleUpDomain = domain;
        fix.label = QObject::tr("Set the scale-up domain to %1").arg(domain);
        return fix;
    }
    case PlanRule::SpSequence:
        p.sequenceParallel = false;
        fix.label = QObject::tr("Turn sequence parallelism off");
        return fix;
    case PlanRule::TableParallel: {
        // A layer table runs data parallel (and channel-split over TP): the other splits go to DP.
        const long long perTp = s.cluster.gpus / p.tp;
        p.pp = p.cp = p.ep = 1;
        p.sequenceParallel = false;
        p.virtualStages = 1;
        p.schedule = Schedule::OneFOneB;
        if (s.cluster.gpus % p.tp == 0)
            p.dp = static_cast<int>(perTp);
        fix.label = QObject::tr("Run data parallel (PP, CP, EP 1)");
        return fix;
    }
    case PlanRule::TableTp: {
        const long long gpus = s.cluster.gpus;
        Scenario t = f;
        const int tp = nearest(p.tp, 64, [&](int v) {
            t.plan.tp = v;
            return firstViolation(t) != PlanRule::TableTp && gpus % v == 0;
        });
        p.tp = tp;
        p.dp = static_cast<int>(gpus / tp);
        fix.label = QObject::tr("Set TP to %1").arg(tp);
        return fix;
    }
    case PlanRule::GradCompression:
        f.training.gradCompression = GradCompression::None;
        fix.label = QObject::tr("Turn gradient compression off");
        return fix;
    case PlanRule::TableZero:
        p.zeroStage = 2;
        fix.label = QObject::tr("Set ZeRO to 2");
        return fix;
    default:
        return std::nullopt;
    }
}

} // namespace

} // namespace dtsim::gui
