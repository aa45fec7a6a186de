// dtsim-cli trace: the event simulation of training steps, as Chrome Trace Event JSON.
#include "cli_common.h"
#include "commands.h"

#include "simcore/reliability/reliability.h"
#include "simcore/step.h"
#include "simcore/timeline/timeline.h"
#include "simcore/units.h"

#include <QFile>
#include <QSaveFile>
#include <QTextStream>

#include <algorithm>

namespace dtsim::cli {

int runTrace(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ { "o", "output" }, "Write the Chrome trace JSON here (default trace.json).", "OUT", "trace.json" });
    p.addOption({ "steps", "Training steps to simulate (default 1).", "N", "1" });
    p.addOption({ "ranks", "One row per TP rank of each stage." });
    p.addOption({ "zero-bubble", "Use the ZB-H1 zero-bubble schedule (pipeline runs only)." });
    p.addOption({ "set", "Override a scenario field (repeatable).", "path=value" });
    if (!parseCommand(p, "trace", args, 1))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        const Scenario s = loadScenarioArgument(p, d);
        bool ok = false;
        TimelineOptions o;
        o.steps = p.value("steps").toInt(&ok);
        if (!ok || o.steps < 1 || o.steps > 1000)
            throw InputError("--steps", 0, "", "expected a whole number from 1 to 1000");
        o.perRankRows = p.isSet("ranks");
        // Checkpoints fall where the reliability model puts them (every so many steps).
        const ReliabilityReport rel = analyzeReliability(s, d.calibration, d.failureRates);
        o.checkpointEverySteps = static_cast<int>(std::min(1e9, rel.intervalSteps));
        o.checkpointSeconds = rel.checkpointWrite;
        o.zeroBubble = p.isSet("zero-bubble");
        const Trace t = simulateTimeline(s, d.calibration, o);
        const std::string json = toChromeTrace(t);
        QSaveFile out(p.value("output"));
        if (!out.open(QIODevice::WriteOnly) || out.write(json.data(), qint64(json.size())) != qint64(json.size()) || !out.commit())
            throw InputError(p.value("output").toStdString(), 0, "", "cannot write: " + out.errorString().toStdString());
        const double analytical = simulateStep(s, d.calibration).stepTime;
        QTextStream(stdout) << QString("%1 events on %2 rows written to %3\nstep time: event simulation %4, analytical %5 (%6%)\n")
                                   .arg(t.events.size()).arg(t.rowNames.size()).arg(p.value("output"))
                                   .arg(QString::fromStdString(formatSeconds(t.stepTime)))
                                   .arg(QString::fromStdString(formatSeconds(analytical)))
                                   .arg(100 * (t.stepTime / analytical - 1), 0, 'f', 2);
        QTextStream(stdout) << QString("checkpoint: %1 stall every %2 steps (%3 in this window)\n")
                                   .arg(QString::fromStdString(formatSeconds(o.checkpointSeconds)))
                                   .arg(o.checkpointEverySteps)
                                   .arg(o.steps / std::max(1, o.checkpointEverySteps));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
