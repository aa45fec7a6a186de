// dtsim-cli loss: the convergence model on its own. A model size and tokens give the final
// loss; a target loss gives the tokens; --published compares the loss law with the final
// losses of published runs (docs/convergence.md).
#include "cli_common.h"
#include "commands.h"

#include "simcore/convergence.h"
#include "simcore/loader/published_losses_loader.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <cmath>

namespace dtsim::cli {

namespace {

LossLaw lawOption(const QCommandLineParser& p)
{
    if (!p.isSet("law"))
        return LossLaw::Besiroglu2024;
    for (int i = 0; i < kLossLawCount; ++i)
        if (p.value("law").toStdString() == lossLawName(LossLaw(i)))
            return LossLaw(i);
    throw InputError("dtsim-cli loss", 0, "--law", "\"" + p.value("law").toStdString() + "\" is not a loss law (hoffmann2022, besiroglu2024)");
}

// One published run against the law: the law's loss at its tokens (at its batch where
// the source states one, else the law alone), and whether the gap is within the fit's error.
struct Comparison {
    PublishedLoss run;
    double predicted = 0, error = 0;
    bool sameCorpus = false;
};

Comparison compare(const PublishedLoss& run, LossLaw law, const Calibration& c)
{
    Comparison out { run };
    const LossLawConstants& k = c.convergence.law(law);
    double effectiveTokens = run.tokens;
    if (run.batchTokens > 0) {
        ConvergenceQuery q { law, run.parameters, run.batchTokens, run.tokens };
        effectiveTokens = convergenceAt(q, c).minimalTokens;
    }
    out.predicted = k.loss(run.parameters, effectiveTokens);
    out.error = k.lossError(run.parameters, effectiveTokens);
    out.sameCorpus = run.corpus == "MassiveText"; // both shipped laws are fits to Hoffmann et al.'s runs
    return out;
}

int printPublished(const QCommandLineParser& p, const Calibration& c, LossLaw law)
{
    const std::vector<PublishedLoss> runs = loadPublishedLosses(p.value("published").toStdString());
    QTextStream out(stdout);
    QJsonArray rows;
    if (!p.isSet("json"))
        out << QString("%1 %2 %3 %4 %5 %6 %7  %8\n").arg("run", -26).arg("corpus", -11).arg("params", 8).arg("tokens", 8)
                   .arg("loss", 7).arg(q(std::string(lossLawName(law))), 14).arg("gap", 7).arg("within the fit's error");
    for (const PublishedLoss& run : runs) {
        const Comparison cmp = compare(run, law, c);
        const double gap = cmp.predicted - run.loss;
        const QString verdict = !cmp.sameCorpus ? "another corpus: not comparable"
            : cmp.error <= 0               ? "the law states no error"
            : std::abs(gap) <= cmp.error   ? QString("yes (+-%1)").arg(cmp.error, 0, 'f', 3)
                                           : QString("NO (+-%1)").arg(cmp.error, 0, 'f', 3);
        if (p.isSet("json")) {
            rows.append(QJsonObject { { "id", q(run.id) }, { "corpus", q(run.corpus) }, { "params", run.parameters },
                { "tokens", run.tokens }, { "loss", run.loss }, { "predicted", cmp.predicted }, { "fit_error", cmp.error },
                { "same_corpus", cmp.sameCorpus } });
            continue;
        }
        out << QString("%1 %2 %3 %4 %5 %6 %7  %8\n").arg(q(run.id), -26).arg(q(run.corpus), -11)
                   .arg(q(formatCount(run.parameters)), 8).arg(q(formatCount(run.tokens)), 8).arg(run.loss, 7, 'f', 3)
                   .arg(cmp.predicted, 14, 'f', 3).arg((gap >= 0 ? "+" : "") + QString::number(gap, 'f', 3), 7).arg(verdict);
    }
    if (p.isSet("json"))
        printJson(QJsonDocument(QJsonObject { { "law", q(std::string(lossLawName(law))) }, { "runs", rows } }));
    return kExitOk;
}

// A count option that takes the suffixes scenario files do ("1.4T", "70B", "3M").
double countOption(const QCommandLineParser& p, const QString& name, double min, double max)
{
    const QuantityParse parsed = parseQuantity(p.value(name).toStdString(), Dimension::Count);
    if (!parsed.value || !(*parsed.value >= min && *parsed.value <= max))
        throw InputError("dtsim-cli loss", 0, "--" + name.toStdString(),
            "\"" + p.value(name).toStdString() + "\" is not a count from " + formatCount(min) + " to " + formatCount(max)
                + (parsed.error.empty() ? "" : " (" + parsed.error + ")"));
    return *parsed.value;
}

} // namespace

int runLoss(const QStringList& args)
{
    QCommandLineParser p;
    p.addOption({ "params", "Model parameters (dense: all; MoE: active).", "N" });
    p.addOption({ "tokens", "Training tokens: print the loss they reach.", "D" });
    p.addOption({ "target", "A final loss: print the tokens it needs.", "LOSS" });
    p.addOption({ "batch", "Tokens per optimizer step (default 1M).", "TOKENS" });
    p.addOption({ "law", "hoffmann2022 or besiroglu2024 (default).", "NAME" });
    p.addOption({ "critical-batch", "A measured critical batch in tokens (default: Kaplan et al.'s at the loss).", "TOKENS" });
    p.addOption({ "published", "Compare the law with the published losses in FILE.", "FILE" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "loss", args, 0))
        return kExitBadInput;
    try {
        const EngineData data = loadEngineData(p);
        const LossLaw law = lawOption(p);
        if (!data.calibration.convergence.law(law).known)
            throw InputError(data.paths.calibrationFile(), 0, "convergence.loss_laws", "has no " + std::string(lossLawName(law)));
        if (p.isSet("published"))
            return printPublished(p, data.calibration, law);
        if (!p.isSet("params") || p.isSet("tokens") == p.isSet("target"))
            throw InputError("dtsim-cli loss", 0, "", "give --params and one of --tokens or --target (or --published FILE)");
        ConvergenceQuery query;
        query.law = law;
        query.parameters = countOption(p, "params", 1, 1e15);
        query.batchTokens = p.isSet("batch") ? countOption(p, "batch", 1, 1e12) : 1e6;
        query.criticalBatchTokens = p.isSet("critical-batch") ? countOption(p, "critical-batch", 1, 1e12) : 0.0;
        if (p.isSet("tokens"))
            query.tokens = countOption(p, "tokens", 1, 1e18);
        else
            query.targetLoss = numberOption(p, "target", 0.01, 100, "nats per token");
        const double floor = data.calibration.convergence.law(law).floor(query.parameters);
        if (query.targetLoss > 0 && !(query.targetLoss > floor))
            throw InputError("dtsim-cli loss", 0, "--target",
                QString("%1 is below the floor of %2 parameters under %3, %4").arg(query.targetLoss).arg(q(formatCount(query.parameters)))
                    .arg(q(std::string(lossLawName(law)))).arg(floor, 0, 'f', 4).toStdString());
        const ConvergencePlan plan = convergenceAt(query, data.calibration);
        if (p.isSet("json")) {
            printJson(QJsonDocument(QJsonObject { { "law", q(std::string(lossLawName(law))) }, { "params", plan.parameters },
                { "batch_tokens", plan.batchTokens }, { "tokens", plan.tokens }, { "minimal_tokens", plan.minimalTokens },
                { "loss", plan.loss }, { "fit_error", plan.lossError }, { "floor", plan.floorLoss },
                { "critical_batch_tokens", plan.criticalBatchTokens } }));
            return kExitOk;
        }
        QTextStream out(stdout);
        out << QString("loss %1 +- %2 (%3; floor %4 with infinite data)\n").arg(plan.loss, 0, 'f', 4).arg(plan.lossError, 0, 'f', 3)
                   .arg(q(std::string(lossLawName(law)))).arg(plan.floorLoss, 0, 'f', 4)
            << QString("tokens %1 at a batch of %2 tokens (%3 at a small batch, +%4%)\n").arg(q(formatCount(plan.tokens)))
                   .arg(q(formatCount(plan.batchTokens))).arg(q(formatCount(plan.minimalTokens))).arg(100 * plan.batchPenalty(), 0, 'f', 1)
            << QString("critical batch %1 tokens at this loss\n").arg(q(formatCount(plan.criticalBatchTokens)));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
