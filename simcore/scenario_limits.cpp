#include "scenario_limits.h"

#include "fields/scenario_fields.h"
#include "model.h"
#include "units.h"

#include <algorithm>
#include <cmath>

namespace dtsim {

namespace {

// The field that contributes most of the parameters, to blame for too many.
std::string largestPart(const ModelSpec& m, const ParameterCounts& c)
{
    const double layers = m.layers * (c.attentionPerLayer + c.normsPerLayer + c.denseMlpPerLayer);
    const double experts = m.moeLayerCount() * c.expertParamsPerLayer;
    const double embeddings = c.embedding + c.outputHead;
    if (embeddings >= layers && embeddings >= experts)
        return "model.vocab";
    if (experts >= layers)
        return "model.moe.experts";
    return "model.hidden";
}

// The shared-cluster fields describe a workload section's job stream: without its
// projects, sizes and durations there is no stream, and a saved file would not reopen.
std::optional<PlanIssue> workloadIssue(const WorkloadSpec& w)
{
    const bool stream = !w.projects.empty() && (w.generator.count == 0 || (!w.generator.sizes.empty() && !w.generator.durations.empty()));
    if (stream || w == WorkloadSpec {})
        return std::nullopt;
    const WorkloadSpec d;
    const char* field = w.policy != d.policy ? "workload.policy"
        : w.topologyAware != d.topologyAware ? "workload.topology_aware"
        : w.checkpointInterval != d.checkpointInterval ? "workload.checkpoint_interval"
        : w.generator.arrivalsPerHour != d.generator.arrivalsPerHour ? "workload.generate.arrivals_per_hour"
                                                                      : "workload.generate.count";
    return PlanIssue { field,
        "the shared-cluster fields need a workload section with projects, job sizes and durations in the scenario "
        "file (see docs/cluster.md); this scenario has none, so they change nothing" };
}

} // namespace

std::optional<PlanIssue> checkLimits(const Scenario& s)
{
    const ModelSpec& m = s.model;
    const TrainingSpec& t = s.training;

    // Every value within what the loader accepts (the field registry's ranges and checks),
    // so that an edit the GUI makes can always be saved and reopened.
    if (const FieldValueIssue issue = fieldValueIssue(s); !issue.field.empty())
        return PlanIssue { issue.field, issue.reason };

    // The loader's rule, here too so that an edit the GUI makes can always be saved and
    // reopened: grouped-query attention shares each key/value head among heads / kv_heads.
    if (!m.isLayerTable() && (m.kvHeads < 1 || m.kvHeads > m.heads || m.heads % m.kvHeads != 0))
        return PlanIssue { "model.kv_heads",
            "kv_heads = " + std::to_string(m.kvHeads) + " must divide heads = " + std::to_string(m.heads) };

    const ParameterCounts c = countParameters(m, t.seqLen);
    if (m.isLayerTable() && m.table.resolved) {
        // A layer table states its own sizes: the table is the input to blame.
        const LayerTableCost& cost = m.table.resolved->cost;
        const std::string table = "the layer table \"" + m.table.ref + "\" (" + m.table.resolved->table.name + ")";
        if (!(cost.parameters <= kMaxParameters))
            return PlanIssue { "model.table",
                table + " has " + formatCount(cost.parameters) + " parameters: more than any cluster could hold; dtsim models up to "
                    + formatCount(kMaxParameters) };
        if (!(cost.forwardFlops <= kMaxSampleFlops))
            return PlanIssue { "model.table",
                table + " costs " + formatCount(cost.forwardFlops) + " FLOP a sample forward: beyond any network trained (a "
                    + "transformer's whole 8k-token sequence at 1.8T parameters is about 3e16); dtsim models up to " + formatCount(kMaxSampleFlops) };
    }
    if (!(c.total <= kMaxParameters))
        return PlanIssue { largestPart(m, c),
            "the model has " + formatCount(c.total) + " parameters (layers " + std::to_string(m.layers) + ", hidden "
                + std::to_string(m.hidden) + ", vocabulary " + std::to_string(m.vocab)
                + "): more than any cluster could hold; dtsim models up to " + formatCount(kMaxParameters) };

    // A board capped at or below its idle power has no power left to compute with
    // (the clock scales with the power above idle: step.cpp).
    const HardwareSpec& h = s.hardware;
    if (h.powerLimitWatts > 0 && h.powerLimitWatts <= h.idleWatts)
        return PlanIssue { "hardware.power_limit",
            "a power limit of " + formatCount(h.powerLimitWatts) + " W is at or below the " + h.name + "'s idle power ("
                + formatCount(h.idleWatts) + " W): the GPU could not compute at all; give a limit between "
                + formatCount(h.idleWatts) + " and " + formatCount(h.tdpWatts) + " W" };

    if (auto issue = workloadIssue(s.workload))
        return issue;

    // At least one optimizer step: a batch larger than the whole run is not a run.
    const double perStep = t.tokensPerStep();
    if (!(t.tokens >= perStep) && m.isLayerTable())
        return PlanIssue { "training.samples",
            "training.samples = " + formatCount(t.tokens) + " is less than one step's global_batch = " + formatCount(perStep) };
    if (!(t.tokens >= perStep) && t.target == TrainingTarget::Tokens) // a loss target's tokens follow from the law
        return PlanIssue { "training.tokens",
            "training.tokens = " + formatCount(t.tokens) + " is less than one step (global_batch x seq_len = "
                + formatCount(perStep) + " tokens); train at least one step's tokens or shrink the batch" };
    return std::nullopt;
}

std::optional<PlanIssue> checkScenario(const Scenario& s)
{
    if (auto issue = checkPlan(s))
        return issue;
    return checkLimits(s);
}

} // namespace dtsim
