#include "convergence_text.h"

#include "simcore/units.h"

#include <QCoreApplication>

namespace dtsim::gui {

namespace {
QString convergenceTr(const char* text) { return QCoreApplication::translate("Dashboard", text); }
QString tokenCount(double n) { return QString::fromStdString(formatCount(n)); }
QString signedPercent(double share) { return QString("%1%2%").arg(share >= 0 ? "+" : "").arg(100 * share, 0, 'f', 1); }
} // namespace

QString lossLawTitle(LossLaw law)
{
    switch (law) {
    case LossLaw::Hoffmann2022: return convergenceTr("Hoffmann et al. 2022");
    case LossLaw::Besiroglu2024: return convergenceTr("Besiroglu et al. 2024 refit");
    }
    return QString::fromUtf8(lossLawName(law).data(), qsizetype(lossLawName(law).size()));
}

QString convergenceLine(const Scenario& s, const ConvergencePlan& cv, bool brief)
{
    if (!cv.known)
        return {};
    const bool target = s.training.target == TrainingTarget::Loss;
    const QString loss = QString("<b>%1</b> &plusmn; %2").arg(cv.loss, 0, 'f', 3).arg(cv.lossError, 0, 'f', 3);
    // A loss target: the tokens follow from it; a token target: the loss follows from them.
    const QString head = target
        ? convergenceTr("Loss %1 (target, %2): needs <b>%3</b> tokens, %4 for this batch over a small batch")
              .arg(loss, lossLawTitle(s.training.lossLaw), tokenCount(cv.tokens), signedPercent(cv.batchPenalty()))
        : convergenceTr("Loss %1 predicted at <b>%2</b> tokens (%3); a small batch would reach it in %4 (this batch %5)")
              .arg(loss, tokenCount(cv.tokens), lossLawTitle(s.training.lossLaw), tokenCount(cv.minimalTokens), signedPercent(cv.batchPenalty()));
    if (brief) // the stage's one line: the loss, the tokens and what the batch adds
        return target ? convergenceTr("Loss %1 (target): <b>%2</b> tokens, %3 for this batch")
                            .arg(loss, tokenCount(cv.tokens), signedPercent(cv.batchPenalty()))
                      : convergenceTr("Loss %1 predicted at <b>%2</b> tokens").arg(loss, tokenCount(cv.tokens));
    return head
        + convergenceTr(" &middot; critical batch %1 tokens, this batch %2 (%3x)")
              .arg(tokenCount(cv.criticalBatchTokens), tokenCount(cv.batchTokens))
              .arg(cv.criticalBatchTokens > 0 ? cv.batchTokens / cv.criticalBatchTokens : 0.0, 0, 'f', 2);
}

QString widestConvergenceLine(bool brief)
{
    const QString loss = QString("<b>8.888</b> &plusmn; 8.888");
    if (brief)
        return convergenceTr("Loss %1 (target): <b>%2</b> tokens, %3 for this batch").arg(loss, "888.8 B", "+888.8%");
    const QString head = convergenceTr("Loss %1 predicted at <b>%2</b> tokens (%3); a small batch would reach it in %4 (this batch %5)")
                             .arg(loss, "888.8 B", lossLawTitle(LossLaw::Besiroglu2024), "888.8 B", "+888.8%");
    return head
        + convergenceTr(" &middot; critical batch %1 tokens, this batch %2 (%3x)").arg("888.8 M", "888.8 M", "88.88");
}

} // namespace dtsim::gui
