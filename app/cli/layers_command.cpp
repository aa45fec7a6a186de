// dtsim-cli layers: where a layer-table step goes, layer by layer (which convolution is
// slow, which norm is bound by memory, which kernel only waits for the host), and the
// same summed by layer type.
#include "cli_common.h"
#include "commands.h"

#include "simcore/layers/layer_step.h"
#include "simcore/step.h"
#include "simcore/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTextStream>

#include <map>

namespace dtsim::cli {

namespace {


struct TypeTotal {
    int layers = 0;
    double seconds = 0, flops = 0;
};

} // namespace

int runLayers(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("FILE", "Scenario YAML file on a layer table (model.table), or the name of a preset.");
    p.addOption({ "set", "Override a field, e.g. --set training.micro_batch=64 (repeatable).", "path=value" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "layers", args, 1))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        FieldLocator where;
        const Scenario s = loadScenarioArgument(p, d, &where);
        if (!s.model.isLayerTable())
            where.fail("model.table", "dtsim-cli layers needs a layer-table scenario; this one is a transformer (dtsim-cli simulate breaks its step down)");
        const std::vector<LayerTiming> rows = layerTableProfile(s, d.calibration);
        const StepReport step = predictStep(s, d.calibration);
        double total = 0;
        for (const LayerTiming& l : rows)
            total += l.forward + l.backward + l.comm;
        std::map<std::string, TypeTotal> byType;
        for (const LayerTiming& l : rows) {
            TypeTotal& t = byType[layerTypeName(l.type)];
            ++t.layers;
            t.seconds += l.forward + l.backward + l.comm;
            t.flops += l.forwardFlops;
        }
        auto share = [&](double sec) { return total > 0 ? sec / total : 0.0; };
        // Achieved rate of a layer's own work: 3x its forward FLOPs over its time.
        auto rate = [](double flops, double sec) { return sec > 0 ? 3.0 * flops / sec : 0.0; };

        if (p.isSet("json")) {
            QJsonArray layers, types;
            for (const LayerTiming& l : rows)
                layers.append(QJsonObject { { "name", q(l.name) }, { "type", layerTypeName(l.type) }, { "forward_s", l.forward },
                    { "backward_s", l.backward }, { "comm_s", l.comm }, { "forward_flops", l.forwardFlops },
                    { "share", share(l.forward + l.backward + l.comm) }, { "bound", layerBoundName(l.bound) } });
            for (const auto& [name, t] : byType)
                types.append(QJsonObject { { "type", q(name) }, { "layers", t.layers }, { "seconds", t.seconds },
                    { "share", share(t.seconds) }, { "flop_per_s", rate(t.flops, t.seconds) } });
            printJson(QJsonDocument(QJsonObject { { "micro_batch", s.training.microBatch }, { "layers_s", total },
                { "step_s", step.stepTime }, { "microbatches", step.microbatches }, { "layers", layers }, { "by_type", types } }));
            return kExitOk;
        }
        QTextStream out(stdout);
        out << QString("%1: %2 layers, micro-batch %3 on one GPU; the layers take %4 of the %5 step (%6 micro-batches)\n\n")
                   .arg(q(s.model.table.ref))
                   .arg(rows.size())
                   .arg(s.training.microBatch)
                   .arg(q(formatSeconds(total)))
                   .arg(q(formatSeconds(step.stepTime)))
                   .arg(step.microbatches);
        out << QString("%1 %2 %3 %4 %5 %6  %7\n")
                   .arg("layer", -22).arg("type", -12).arg("forward", 10).arg("backward", 10).arg("share", 7).arg("rate", 12).arg("bound");
        for (const LayerTiming& l : rows) {
            const double sec = l.forward + l.backward + l.comm;
            out << QString("%1 %2 %3 %4 %5 %6  %7%8\n")
                       .arg(q(l.name).left(22), -22)
                       .arg(layerTypeName(l.type), -12)
                       .arg(q(formatSeconds(l.forward)), 10)
                       .arg(q(formatSeconds(l.backward)), 10)
                       .arg(QString::number(100 * share(sec), 'f', 1) + "%", 7)
                       .arg(l.forwardFlops > 0 && sec > 0 ? q(formatFlops(rate(l.forwardFlops, sec))) : QString("-"), 12)
                       .arg(layerBoundName(l.bound))
                       .arg(l.comm > 0 ? " + " + q(formatSeconds(l.comm)) + " TP exchange" : QString());
        }
        out << "\nBy type\n";
        for (const auto& [name, t] : byType)
            out << QString("%1 %2 layers %3 %4 %5\n")
                       .arg(q(name), -12)
                       .arg(t.layers, 4)
                       .arg(q(formatSeconds(t.seconds)), 10)
                       .arg(QString::number(100 * share(t.seconds), 'f', 1) + "%", 7)
                       .arg(t.flops > 0 ? q(formatFlops(rate(t.flops, t.seconds))) : QString("-"), 12);
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
