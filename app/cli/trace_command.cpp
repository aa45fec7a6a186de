// dtsim-cli trace: the event simulation of training steps, as Chrome Trace Event JSON.
#include "cli_common.h"
#include "commands.h"

#include "simcore/io/atomic_file.h"
#include "simcore/analysis/timeline_setup.h"
#include "simcore/units.h"

#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dtsim::cli {

namespace {

// A trace is for reading in Perfetto; past this it is a disk filler, not a view.
constexpr double kMaxTraceBytes = 1e9;

} // namespace

int runTrace(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ { "o", "output" }, "Write the Chrome trace JSON here (required; - for standard output).", "OUT" });
    p.addOption({ "steps", "Training steps to simulate (default 1).", "N", "1" });
    p.addOption({ "ranks", "One row per TP rank of each stage." });
    p.addOption({ "zero-bubble", "Use the ZB-H1 zero-bubble schedule (pipeline runs only)." });
    p.addOption({ "set", "Override a scenario field (repeatable).", "path=value" });
    if (!parseCommand(p, "trace", args, 1))
        return kExitBadInput;
    try {
        // Where it goes, checked before any work: named by the user (a default file name
        // wrote into whatever folder the shell was in), and not a FIFO or a device.
        if (!p.isSet("output"))
            throw InputError("-o", 0, "", "say where to write the trace: -o trace.json, or -o - for standard output");
        const std::string output = p.value("output").toStdString();
        if (const std::string why = unwritableTarget(output); !why.empty())
            throw InputError("-o", 0, "", why);
        TimelineOptions o;
        o.steps = int(wholeOption(p, "steps", 1, 1000, "a number of steps"));
        o.perRankRows = p.isSet("ranks");
        o.zeroBubble = p.isSet("zero-bubble");
        const EngineData d = loadEngineData(p);
        const Scenario s = loadScenarioArgument(p, d);
        // Checkpoints fall where the reliability model puts them (every so many steps).
        const TimelineSetup setup = timelineSetup(s, d.calibration, d.failureRates, o);
        o = setup.options;
        const StepReport& step = setup.step;

        // Refused before it is built: the trace's size follows from the step alone.
        const double events = setup.estimatedBars;
        const double bytes = events * kChromeTraceBytesPerEvent;
        if (bytes > kMaxTraceBytes) {
            const int steps = int(std::floor(o.steps * kMaxTraceBytes / bytes));
            std::string fix = steps >= 1 ? "use --steps " + std::to_string(steps) : std::string("no number of steps fits");
            if (o.perRankRows)
                fix += " or drop --ranks";
            throw InputError("--steps", 0, "", "this trace would be about " + formatBytes(bytes) + " (" + formatCount(events)
                    + " bars); dtsim writes traces of up to " + formatBytes(kMaxTraceBytes) + ": " + fix);
        }
        const Trace t = simulateTimeline(s, d.calibration, o);

        // Streamed into the file, which appears whole or not at all.
        AtomicFile out(output);
        if (!out.open() || !writeChromeTrace(t, [&](std::string_view piece) { return out.write(piece); }) || !out.commit()) {
            std::fprintf(stderr, "dtsim-cli trace: %s (nothing was written)\n", out.error().c_str());
            return kExitInternal;
        }
        // The summary goes to stderr when the trace itself goes to standard output.
        QTextStream summary(output == "-" ? stderr : stdout);
        summary << QString("%1 events on %2 rows written to %3\nstep time: event simulation %4, analytical %5 (%6%)\n")
                       .arg(t.events.size()).arg(t.rowNames.size()).arg(p.value("output"))
                       .arg(QString::fromStdString(formatSeconds(t.stepTime)))
                       .arg(QString::fromStdString(formatSeconds(step.stepTime)))
                       .arg(100 * (t.stepTime / step.stepTime - 1), 0, 'f', 2);
        summary << QString("checkpoint: %1 stall every %2 steps (%3 in this window)\n")
                       .arg(QString::fromStdString(formatSeconds(o.checkpointSeconds)))
                       .arg(o.checkpointEverySteps)
                       .arg(o.steps / std::max(1, o.checkpointEverySteps));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
