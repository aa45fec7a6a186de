// dtsim-cli advise, sweep and diff: the decision end of a what-if session. What to change
// (each gain simulated), one number over a grid of two fields, and what differs between
// two scenarios, in the input and in the results.
#include "cli_common.h"
#include "commands.h"

#include "simcore/fields/scenario_fields.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/planner/sync_wall.h"
#include "simcore/report_check.h"
#include "simcore/step.h"
#include "simcore/study/advice.h"
#include "simcore/study/scenario_diff.h"
#include "simcore/study/sweep.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <cmath>
#include <tuple>

namespace dtsim::cli {

namespace {


QString setsText(const Suggestion& sg)
{
    QStringList parts;
    for (const auto& [path, value] : sg.sets)
        parts << QString("--set %1=%2").arg(q(path), value.find(' ') != std::string::npos ? "'" + q(value) + "'" : q(value));
    return parts.join(' ');
}

// --- sweep axes: "path=v1,v2,..." or "path=from..to*factor" / "path=from..to+step" ------

const FieldDef* sweepableField(const std::string& path, const std::string& option, const Scenario& base)
{
    const FieldDef* f = findField(path);
    if (!f)
        throw InputError(option, 0, path, "no such scenario field (dtsim-cli fields lists them)");
    if (!f->appliesTo(base)) // every cell would be the same scenario
        throw InputError(option, 0, path, std::string("does not apply to ") + (base.model.isLayerTable() ? "a layer-table model" : "a transformer")
            + " (" + base.model.name + "): every cell would be the same run");
    if (f->type == FieldType::Text || f->type == FieldType::Gpu || f->type == FieldType::Topology || f->type == FieldType::Region
        || path.find("[]") != std::string::npos)
        throw InputError(option, 0, path, "a sweep takes numbers, flags or choices; " + path + " is not one");
    return f;
}

double valueOf(const FieldDef& f, const std::string& text, const std::string& option)
{
    auto bad = [&](const std::string& why) { return InputError(option, 0, f.path, "\"" + text + "\": " + why); };
    switch (f.type) {
    case FieldType::Integer: {
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(text, &used);
        } catch (...) {
            used = 0;
        }
        if (text.empty() || used != text.size())
            throw bad("expected a whole number");
        if (v < f.min || v > f.max)
            throw bad("out of range " + std::to_string(f.min) + " to " + std::to_string(f.max));
        return double(v);
    }
    case FieldType::Quantity: {
        const QuantityParse p = parseQuantity(text, f.dimension);
        if (!p.value)
            throw bad(p.error);
        return *p.value;
    }
    case FieldType::Flag:
        if (text == "true" || text == "false")
            return text == "true" ? 1.0 : 0.0;
        throw bad("expected true or false");
    case FieldType::Choice:
        for (const ChoiceName& c : f.choices)
            if (c.name == text)
                return double(c.value);
        throw bad("not one of the field's choices");
    default:
        throw bad("not sweepable");
    }
}

SweepAxis parseAxis(const QString& spec, const char* option, const Scenario& base)
{
    const std::string s = spec.toStdString();
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
        throw InputError(option, 0, "", "expected path=v1,v2,... or path=from..to*factor (got \"" + s + "\")");
    SweepAxis a;
    a.field = sweepableField(s.substr(0, eq), option, base);
    const std::string values = s.substr(eq + 1);
    const auto dots = values.find("..");
    if (dots != std::string::npos) {
        const auto op = values.find_first_of("*+", dots);
        if (op == std::string::npos)
            throw InputError(option, 0, a.field->path, "a range needs a step: from..to*factor or from..to+step");
        const double from = valueOf(*a.field, values.substr(0, dots), option);
        const double to = valueOf(*a.field, values.substr(dots + 2, op - dots - 2), option);
        // The step is a plain number: a factor or an increment in the field's base unit.
        const std::string stepText = values.substr(op + 1);
        double step = 0;
        std::size_t used = 0;
        try {
            step = std::stod(stepText, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (stepText.empty() || used != stepText.size() || !std::isfinite(step))
            throw InputError(option, 0, a.field->path, "\"" + stepText + "\" is not a number (from..to*factor or from..to+step)");
        const bool geometric = values[op] == '*';
        if (geometric ? !(step > 1) : !(step > 0))
            throw InputError(option, 0, a.field->path, geometric ? "the factor must exceed 1" : "the step must be positive");
        for (double v = from; v <= to * (1 + 1e-12) && a.values.size() <= 256; v = geometric ? v * step : v + step)
            a.values.push_back(v);
    } else {
        std::size_t from = 0;
        while (from <= values.size()) {
            const auto comma = values.find(',', from);
            const std::string one = values.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
            a.values.push_back(valueOf(*a.field, one, option));
            if (comma == std::string::npos)
                break;
            from = comma + 1;
        }
    }
    if (a.values.empty() || a.values.size() > 256)
        throw InputError(option, 0, a.field->path, "between 1 and 256 values");
    Scenario probe = base;
    for (double v : a.values) {
        applyFieldValue(probe, *a.field, v);
        a.labels.push_back(fieldValueText(probe, *a.field));
    }
    return a;
}

} // namespace

int runAdvise(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "set", "Override a field (repeatable).", "path=value" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "advise", args, 1))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        const Scenario s = loadScenarioArgument(p, d);
        const Advice a = advise(s, d.calibration, d.catalog);
        if (p.isSet("json")) {
            QJsonArray shares, list;
            for (const StepShare& sh : a.diagnosis.shares)
                if (sh.share > 0)
                    shares.append(QJsonObject { { "part", q(sh.part) }, { "share", sh.share } });
            for (const Suggestion& sg : a.suggestions) {
                QJsonArray sets;
                for (const auto& [path, value] : sg.sets)
                    sets.append(q(path + "=" + value));
                QJsonObject o { { "change", q(sg.title) }, { "set", sets }, { "time_to_train_s", sg.timeToTrain },
                    { "gpu_hours", sg.gpuHours }, { "note", q(sg.note) }, { "makes_it_fit", sg.makesItFit } };
                if (a.fits) {
                    o.insert("gain", sg.gain);
                    o.insert("gpu_hours_change", sg.gpuHoursChange);
                }
                list.append(o);
            }
            QJsonObject o { { "scenario", q(s.name) }, { "fits", a.fits }, { "regime", regimeName(a.diagnosis.regime) },
                { "summary", q(a.diagnosis.summary) }, { "reading", q(a.diagnosis.reading) }, { "suggestions", list } };
            if (a.fits) { // a plan that does not fit has no step to share out, and no run
                o.insert("compute_share", a.diagnosis.computeShare);
                o.insert("step_shares", shares);
                o.insert("time_to_train_s", a.timeToTrain);
                o.insert("gpu_hours", a.gpuHours);
            }
            printJson(QJsonDocument(o));
            return kExitOk;
        }
        QTextStream out(stdout);
        out << q(s.name) << "\n";
        out << "regime        " << q(a.diagnosis.summary) << "\n";
        out << "reading       " << q(a.diagnosis.reading) << "\n";
        if (a.fits)
            out << "time to train " << q(formatDuration(a.timeToTrain)) << ", " << q(formatCount(a.gpuHours)) << " GPU-hours\n\n";
        else
            out << "time to train none: the run cannot start\n\n";
        if (a.suggestions.empty())
            out << (a.fits ? "No change dtsim tried makes this run faster.\n" : "No change dtsim tried makes this run fit.\n");
        int rank = 0;
        for (const Suggestion& sg : a.suggestions) {
            // "13.5% faster" up to twice as fast, then "2.19x as fast".
            const QString gain = sg.makesItFit ? QString("makes it fit")
                : sg.gain < 1                  ? QString::number(100 * sg.gain, 'f', 1) + "% faster"
                                               : QString::number(1 + sg.gain, 'f', 2) + "x as fast";
            out << QString("%1. %2: %3 (%4").arg(++rank).arg(q(sg.title), gain, q(formatDuration(sg.timeToTrain)));
            if (std::abs(sg.gpuHoursChange) >= 0.001)
                out << QString(", GPU-hours %1%2%").arg(sg.gpuHoursChange > 0 ? "+" : "").arg(100 * sg.gpuHoursChange, 0, 'f', 1);
            out << ")";
            if (!sg.note.empty())
                out << "; " << q(sg.note);
            out << "\n   " << setsText(sg) << "\n";
        }
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runSweep(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file, or the name of a preset.");
    p.addOption({ "set", "Override a field (repeatable).", "path=value" });
    p.addOption({ "x", "The columns: path=v1,v2,... or path=from..to*factor or path=from..to+step.", "path=values" });
    p.addOption({ "y", "The rows, likewise.", "path=values" });
    p.addOption({ "metric", QString("The number in each cell: %1 (default step_time).").arg(q(headlineNames())), "NAME", "step_time" });
    p.addOption({ "json", "Print JSON." });
    p.addOption({ "csv", "Print CSV: one row per y value." });
    if (!parseCommand(p, "sweep", args, 1))
        return kExitBadInput;
    try {
        if (!p.isSet("x") || !p.isSet("y"))
            throw InputError(!p.isSet("x") ? "--x" : "--y", 0, "", "a sweep needs both --x and --y");
        const EngineData d = loadEngineData(p);
        const Scenario s = loadScenarioArgument(p, d);
        const auto metric = headlineFromName(p.value("metric").toStdString());
        if (!metric)
            throw InputError("--metric", 0, "", "expected one of " + headlineNames());
        const SweepAxis x = parseAxis(p.value("x"), "--x", s), y = parseAxis(p.value("y"), "--y", s);
        if (x.field == y.field)
            throw InputError("--y", 0, y.field->path, "the two axes sweep the same field");
        const SweepResult r = sweep(s, d.calibration, x, y, *metric);
        QTextStream out(stdout);
        auto cellText = [&](const SweepCell& c) { return c.ok() ? q(formatHeadline(*metric, c.value)) : QString("-"); };
        if (p.isSet("json")) {
            QJsonArray rows;
            for (std::size_t iy = 0; iy < y.values.size(); ++iy) {
                QJsonArray row;
                for (std::size_t ix = 0; ix < x.values.size(); ++ix) {
                    const SweepCell& c = r.at(ix, iy);
                    row.append(c.ok() ? QJsonValue(c.value) : QJsonValue(QJsonObject { { "issue", q(c.issue) } }));
                }
                rows.append(row);
            }
            QJsonArray xs, ys;
            for (const std::string& l : x.labels)
                xs.append(q(l));
            for (const std::string& l : y.labels)
                ys.append(q(l));
            printJson(QJsonDocument(QJsonObject { { "scenario", q(s.name) }, { "metric", headlineInfo(*metric).key },
                { "x", QJsonObject { { "field", q(x.field->path) }, { "values", xs } } },
                { "y", QJsonObject { { "field", q(y.field->path) }, { "values", ys } } }, { "cells", rows },
                { "current", QJsonArray { r.currentX, r.currentY } } }));
            return kExitOk;
        }
        const QString sep = p.isSet("csv") ? "," : "\t";
        out << q(y.field->path) << " \\ " << q(x.field->path);
        for (const std::string& l : x.labels)
            out << sep << q(l);
        out << "\n";
        for (std::size_t iy = 0; iy < y.values.size(); ++iy) {
            out << q(y.labels[iy]);
            for (std::size_t ix = 0; ix < x.values.size(); ++ix) {
                const SweepCell& c = r.at(ix, iy);
                out << sep << (p.isSet("csv") ? (c.ok() ? QString::number(c.value, 'g', 10) : QString()) : cellText(c));
                if (!p.isSet("csv") && int(ix) == r.currentX && int(iy) == r.currentY)
                    out << "*";
            }
            out << "\n";
        }
        if (!p.isSet("csv"))
            out << QString("%1 in each cell; * the scenario as it stands; - a cell the loader refuses or that does not fit in memory "
                           "(--json says why)\n").arg(headlineInfo(*metric).label);
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

int runDiff(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("A", "Scenario YAML file, or the name of a preset.");
    p.addPositionalArgument("B", "The scenario to compare it with.");
    p.addOption({ "set", "Override a field of B (repeatable): diff a scenario with itself changed.", "path=value" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "diff", args, 2))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        std::vector<Override> overrides;
        for (const QString& set : p.values("set"))
            overrides.push_back(parseOverride(set.toStdString()));
        auto load = [&](const QString& arg, const std::vector<Override>& sets) {
            Scenario s = loadScenarioFile(resolveScenarioPath(arg, d.paths), d.catalog, sets, d.topologies);
            checkOverlay(s, d.calibration);
            return s;
        };
        const Scenario a = load(p.positionalArguments()[0], {}), b = load(p.positionalArguments()[1], overrides);
        const std::vector<FieldDifference> inputs = diffScenarios(a, b);
        const Report ra = predictRunWithSyncWall(a, d.calibration), rb = predictRunWithSyncWall(b, d.calibration);
        // A plan that does not fit in memory has its memory figure and nothing else.
        const bool fitsA = ra.step.memory.fits, fitsB = rb.step.memory.fits;
        auto runs = [](bool fits, Headline h) { return fits || h == Headline::MemoryPerGpu; };
        if (p.isSet("json")) {
            QJsonArray in, results;
            for (const FieldDifference& f : inputs)
                in.append(QJsonObject { { "field", q(f.path) }, { "a", q(f.a) }, { "b", q(f.b) } });
            for (int h = 0; h < kHeadlineCount; ++h) {
                const Headline m = Headline(h);
                const double va = headlineValue(ra, m), vb = headlineValue(rb, m);
                const bool both = runs(fitsA, m) && runs(fitsB, m);
                results.append(QJsonObject { { "metric", headlineInfo(m).key }, { "a", runs(fitsA, m) ? QJsonValue(va) : QJsonValue() },
                    { "b", runs(fitsB, m) ? QJsonValue(vb) : QJsonValue() },
                    { "change", both ? QJsonValue(va != 0 ? vb / va - 1 : 0.0) : QJsonValue() } });
            }
            printJson(QJsonDocument(QJsonObject { { "a", q(a.name) }, { "b", q(b.name) }, { "a_fits", fitsA }, { "b_fits", fitsB },
                { "inputs", in }, { "results", results } }));
            return kExitOk;
        }
        QTextStream out(stdout);
        out << "A: " << q(a.name) << "\nB: " << q(b.name) << "\n\n";
        out << (inputs.empty() ? "Inputs: the same\n" : QString("Inputs (%1 differ)\n").arg(inputs.size()));
        for (const FieldDifference& f : inputs)
            out << QString("  %1  %2  ->  %3\n").arg(q(f.path), -40).arg(q(f.a), q(f.b));
        out << "\nResults                      A              B          change\n";
        for (int h = 0; h < kHeadlineCount; ++h) {
            const Headline m = Headline(h);
            const double va = headlineValue(ra, m), vb = headlineValue(rb, m);
            const bool both = runs(fitsA, m) && runs(fitsB, m);
            const QString change = both && va != 0 ? QString("%1%2%").arg(vb >= va ? "+" : "").arg(100 * (vb / va - 1), 0, 'f', 1) : QString("-");
            out << QString("  %1 %2 %3 %4\n").arg(headlineInfo(m).label, -18)
                       .arg(runs(fitsA, m) ? q(formatHeadline(m, va)) : QString("does not fit"), 14)
                       .arg(runs(fitsB, m) ? q(formatHeadline(m, vb)) : QString("does not fit"), 14).arg(change, 10);
        }
        for (const auto& [name, sc, r] : { std::tuple { "A", &a, &ra }, std::tuple { "B", &b, &rb } })
            if (const auto issue = memoryIssue(*sc, r->step.memory))
                out << "\n" << name << " does not fit in memory: " << q(issue->reason) << "\n";
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
