// The convergence model (simcore/convergence.h): published final losses, the loss <->
// tokens round trip, McCandlish et al.'s tokens at a batch, and the turnaround a growing
// batch makes in the time to a loss.
#include "simcore/convergence.h"
#include "simcore/loader/published_losses_loader.h"
#include "simcore/loader/scenario_override.h"
#include "simcore/planner/scaling.h"
#include "simcore/step.h"
#include "test_data.h"

#include <QtTest>

#include <cmath>

using namespace dtsim;

class TestConvergence : public QObject {
    Q_OBJECT
private slots:
    // Runs on the corpus both shipped laws were fitted to (Hoffmann et al.'s MassiveText)
    // end within the refit's stated error (its constants' standard errors, propagated).
    void publishedLossesOnTheLawsCorpusAreWithinTheFitsError()
    {
        const Calibration& c = test::calibration();
        const LossLawConstants& law = c.convergence.law(LossLaw::Besiroglu2024);
        QVERIFY(law.known);
        int compared = 0;
        for (const PublishedLoss& run : loadPublishedLosses(test::dataPath("tests/convergence/published-losses.yaml"))) {
            QVERIFY2(!run.source.empty(), run.id.c_str());
            if (run.corpus != "MassiveText")
                continue;
            const double predicted = law.loss(run.parameters, run.tokens);
            const double error = law.lossError(run.parameters, run.tokens);
            QVERIFY2(error > 0 && std::abs(predicted - run.loss) <= error,
                qPrintable(QString("%1: %2 vs %3 +- %4").arg(run.id.c_str()).arg(predicted).arg(run.loss).arg(error)));
            ++compared;
        }
        QVERIFY(compared >= 3);
    }

    // A loss target's tokens, read back as a token target, reach that loss again.
    void lossToTokensAndBackIsTheIdentity()
    {
        Scenario s = test::preset("critical-batch-gpt3-xl");
        const Calibration& c = test::calibration();
        for (double target : { 2.3, 2.4, 2.8 }) {
            s.training.target = TrainingTarget::Loss;
            s.training.targetLoss = target;
            const ConvergencePlan planned = convergencePlan(s, c);
            QVERIFY(planned.known && planned.tokens > planned.minimalTokens);
            s.training.target = TrainingTarget::Tokens;
            s.training.tokens = planned.tokens;
            QVERIFY(std::abs(convergencePlan(s, c).loss - target) < 1e-6);
        }
    }

    // McCandlish et al. 2018: to reach one loss, tokens E = E_min (1 + B / B_crit) and
    // steps S = S_min (1 + B_crit / B): doubling the batch far below B_crit halves the
    // steps at nearly the same tokens; far above, the tokens double at nearly the same steps.
    void tokensGrowWithTheBatchAsMcCandlishSays()
    {
        Scenario s = test::preset("critical-batch-gpt3-xl");
        const Calibration& c = test::calibration();
        const double bcrit = convergencePlan(s, c).criticalBatchTokens;
        QVERIFY(bcrit > 1e6 && bcrit < 1e8);
        auto at = [&](int globalBatch) {
            s.training.globalBatch = globalBatch;
            return std::pair { trainingTokens(s, c), trainingSteps(s, c) };
        };
        const auto [tokensSmall, stepsSmall] = at(16);        // 33 k tokens, 1% of B_crit
        const auto [tokensSmall2, stepsSmall2] = at(32);
        QVERIFY(tokensSmall2 / tokensSmall < 1.02);
        QVERIFY(std::abs(stepsSmall2 / stepsSmall - 0.5) < 0.01);
        const auto [tokensLarge, stepsLarge] = at(1 << 16);   // 134 M tokens, ~40 x B_crit
        const auto [tokensLarge2, stepsLarge2] = at(1 << 17);
        QVERIFY(std::abs(tokensLarge2 / tokensLarge - 2) < 0.05);
        QVERIFY(stepsLarge2 / stepsLarge > 0.97 && stepsLarge2 < stepsLarge);
        // And exactly the form's ratio between any two batches.
        const double b1 = 64.0 * 2048, b2 = 4096.0 * 2048;
        QCOMPARE(at(4096).first / at(64).first, (1 + b2 / bcrit) / (1 + b1 / bcrit));
    }

    // The preset's growing-batch curve turns around: time to the loss falls, then rises.
    // The same curve to a fixed token count without jitter keeps falling.
    void timeToALossTurnsAroundAsTheBatchGrows()
    {
        const Scenario s = test::preset("critical-batch-gpt3-xl");
        const ScalingCurves curves = scalingCurves(s, test::calibration());
        QVERIFY(curves.turnaroundGpus > s.plan.gpus());
        bool fell = false, rose = false;
        for (std::size_t i = 1; i < curves.growingBatch.size(); ++i) {
            const ScalingPoint &a = curves.growingBatch[i - 1], &b = curves.growingBatch[i];
            if (!a.fits || !b.fits)
                continue;
            fell |= b.timeToTrain < a.timeToTrain;
            rose |= b.timeToTrain > a.timeToTrain;
            if (b.gpus <= curves.turnaroundGpus)
                QVERIFY(b.timeToTrain < a.timeToTrain);
        }
        QVERIFY(fell && rose);

        Scenario tokens = test::preset("critical-batch-gpt3-xl",
            { parseOverride("training.target=tokens"), parseOverride("training.tokens=50B"), parseOverride("cluster.jitter=0") });
        const ScalingCurves flat = scalingCurves(tokens, test::calibration());
        QCOMPARE(flat.turnaroundGpus, 0LL);
    }

    // Below the model's floor no number of tokens reaches the target: refused, named.
    void aTargetBelowTheFloorIsRefused()
    {
        Scenario s = test::preset("critical-batch-gpt3-xl");
        s.training.targetLoss = 1.9;
        const auto why = convergenceIssue(s, test::calibration());
        QVERIFY(why && why->find("out of reach") != std::string::npos);
        s.training.targetLoss = 2.4;
        QVERIFY(!convergenceIssue(s, test::calibration()));
    }

    // DiLoCo across two datacenters: the step no longer waits on the long-haul link, the
    // link carries far fewer bytes, streaming hides what blocking exposes, and the workers
    // cost tokens as Charles et al.'s fits say (more workers, more tokens; none past 8).
    void dilocoTradesTheLongHaulLinkForTokens()
    {
        const Calibration& c = test::calibration();
        const Scenario diloco = test::preset("diloco-two-datacenters", { parseOverride("cluster.tiers[1].uplink_bandwidth=1Gbps") });
        Scenario plain = diloco;
        plain.plan.diloco = DilocoSpec {};
        const Report withDiloco = predictRun(diloco, c), without = predictRun(plain, c);
        const int longHaul = 3; // levels: fabric, NICs, leaf uplinks, the datacenter's uplinks
        QCOMPARE(withDiloco.step.levelCount, 4);
        QVERIFY(withDiloco.step.levels[longHaul].bytesPerStep < without.step.levels[longHaul].bytesPerStep / 20);
        QVERIFY(withDiloco.timeToTrain < without.timeToTrain / 20);
        QVERIFY(withDiloco.steps > without.steps); // two workers: a little more loss at equal tokens

        Scenario blocking = diloco;
        blocking.plan.diloco.streaming = false;
        const StepReport b = predictStep(blocking, c), s = predictStep(diloco, c);
        QCOMPARE(b.outerSync.totalSeconds, s.outerSync.totalSeconds);
        QCOMPARE(b.breakdown.outerSync, b.outerSync.totalSeconds); // blocking: all of it exposed
        QVERIFY(s.breakdown.outerSync < b.breakdown.outerSync);
        // Hand calculation: streaming exposes what H steps of compute (at the overlap
        // efficiency) leave of one outer all-reduce, shared over the H steps.
        const double H = diloco.plan.diloco.innerSteps, compute = s.breakdown.forward + s.breakdown.backward + s.breakdown.recompute;
        QVERIFY(std::abs(s.breakdown.outerSync - std::max(0.0, H * s.outerSync.totalSeconds - H * c.overlapEfficiency * compute) / H) < 1e-12);

        double previous = 0;
        for (int workers : { 1, 2, 4, 8 }) {
            Scenario w = diloco;
            w.plan.diloco.workers = workers;
            const double tokens = trainingTokens(w, c);
            QVERIFY2(tokens > previous, qPrintable(QString("%1 workers").arg(workers)));
            previous = tokens;
        }
        Scenario many = diloco;
        many.plan.diloco.workers = 16;
        QVERIFY(convergenceIssue(many, c).has_value());
    }

    // The run's time follows the target: more tokens for a lower loss, the same step.
    void theRunFollowsTheTarget()
    {
        Scenario s = test::preset("critical-batch-gpt3-xl");
        const Report a = predictRun(s, test::calibration());
        s.training.targetLoss = 2.3;
        const Report b = predictRun(s, test::calibration());
        QCOMPARE(a.step.stepTime, b.step.stepTime);
        QVERIFY(b.steps > a.steps && b.timeToTrain > a.timeToTrain);
        QCOMPARE(b.tokens(s), b.convergence.tokens);
    }
};

QTEST_GUILESS_MAIN(TestConvergence)
#include "tst_convergence.moc"
