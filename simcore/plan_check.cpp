#include "plan_check.h"

#include <string>

namespace dtsim {

namespace {
std::string num(long long v) { return std::to_string(v); }
}

int microbatchesPerStep(const Scenario& s)
{
    const long long perStep = static_cast<long long>(s.plan.dp) * s.training.microBatch;
    if (perStep <= 0 || s.training.globalBatch % perStep != 0)
        return 0;
    return static_cast<int>(s.training.globalBatch / perStep);
}

std::optional<PlanIssue> checkPlan(const Scenario& s)
{
    const ModelSpec& m = s.model;
    const ParallelPlan& p = s.plan;
    const TrainingSpec& t = s.training;

    if (m.heads % p.tp != 0)
        return PlanIssue { "parallel.tp",
            "tp = " + num(p.tp) + " does not divide the " + num(m.heads) + " attention heads" };
    // Key/value heads are split across TP ranks, or replicated when tp is a multiple.
    if (m.kvHeads % p.tp != 0 && p.tp % m.kvHeads != 0)
        return PlanIssue { "parallel.tp",
            "tp = " + num(p.tp) + " neither divides nor is a multiple of the " + num(m.kvHeads) + " key/value heads" };
    if (m.ffnHidden % p.tp != 0)
        return PlanIssue { "parallel.tp",
            "tp = " + num(p.tp) + " does not divide ffn_hidden = " + num(m.ffnHidden) };
    if (m.isMoe() && m.moe.expertFfnHidden % p.tp != 0)
        return PlanIssue { "parallel.tp",
            "tp = " + num(p.tp) + " does not divide expert_ffn_hidden = " + num(m.moe.expertFfnHidden) };
    // Uneven stages are allowed (Llama 3 drops a layer from each end stage); the
    // slowest stage holds ceil(layers / pp) layers.
    if (p.pp > m.layers)
        return PlanIssue { "parallel.pp",
            "pp = " + num(p.pp) + " is more than the " + num(m.layers) + " layers" };
    if (p.virtualStages > 1 && p.schedule != Schedule::Interleaved1F1B)
        return PlanIssue { "parallel.virtual_stages",
            "virtual stages > 1 need schedule: interleaved" };
    if (p.schedule == Schedule::Interleaved1F1B) {
        if (p.pp < 2)
            return PlanIssue { "parallel.schedule", "the interleaved schedule needs pp >= 2" };
        if (p.pp * p.virtualStages > m.layers)
            return PlanIssue { "parallel.virtual_stages",
                "pp*virtual_stages = " + num(p.pp * p.virtualStages) + " is more than the "
                    + num(m.layers) + " layers" };
    }
    // Checked after the per-degree rules, so the message names the degree that is wrong.
    if (p.gpus() != s.cluster.gpus)
        return PlanIssue { "parallel",
            "dp*tp*pp*cp = " + num(p.dp) + "*" + num(p.tp) + "*" + num(p.pp) + "*" + num(p.cp) + " = "
                + num(p.gpus()) + " but cluster.gpus = " + num(s.cluster.gpus) };
    if (p.ep > 1 && !m.isMoe())
        return PlanIssue { "parallel.ep", "ep = " + num(p.ep) + " needs a mixture-of-experts model" };
    if (m.isMoe() && m.moe.experts % p.ep != 0)
        return PlanIssue { "parallel.ep",
            "ep = " + num(p.ep) + " does not divide the " + num(m.moe.experts) + " experts" };
    if ((p.dp * p.cp) % p.ep != 0)
        return PlanIssue { "parallel.ep",
            "ep = " + num(p.ep) + " must divide dp*cp = " + num(p.dp * p.cp)
                + " (expert parallelism is carved from the data-parallel ranks)" };
    if (t.seqLen % p.cp != 0)
        return PlanIssue { "parallel.cp",
            "cp = " + num(p.cp) + " does not divide seq_len = " + num(t.seqLen) };
    if (p.sequenceParallel && t.seqLen / p.cp % p.tp != 0)
        return PlanIssue { "parallel.sequence_parallel",
            "sequence parallelism needs tp = " + num(p.tp) + " to divide the local sequence "
                + num(t.seqLen / p.cp) };
    if (t.microBatch > t.globalBatch)
        return PlanIssue { "training.micro_batch", "micro_batch is larger than global_batch" };
    const int m_ = microbatchesPerStep(s);
    if (m_ == 0)
        return PlanIssue { "training.global_batch",
            "global_batch = " + num(t.globalBatch) + " is not a multiple of dp*micro_batch = "
                + num(static_cast<long long>(p.dp) * t.microBatch) };
    if (p.schedule == Schedule::Interleaved1F1B && m_ % p.pp != 0)
        return PlanIssue { "training.global_batch",
            "the interleaved schedule needs micro-batches per step (" + num(m_)
                + ") to be a multiple of pp = " + num(p.pp) };
    if (p.zeroStage < 0 || p.zeroStage > 3)
        return PlanIssue { "parallel.zero", "ZeRO stage must be 0, 1, 2 or 3" };
    if (!s.hardware.supports(t.precision))
        return PlanIssue { "training.precision",
            s.hardware.id + " has no " + std::string(precisionName(t.precision)) + " peak in the catalogue" };
    if (s.cluster.gpusPerNode > s.cluster.scaleUpDomain && s.cluster.scaleUpDomain > 0
        && s.cluster.gpusPerNode % s.cluster.scaleUpDomain != 0)
        return PlanIssue { "cluster.scale_up_domain",
            "scale_up_domain must divide gpus_per_node or be a multiple of it" };
    return std::nullopt;
}

} // namespace dtsim
