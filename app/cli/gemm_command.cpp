// dtsim-cli gemm: what one matrix product costs on a GPU, as the step model prices every
// GEMM (the shape's efficiency, the alignment of its dimensions, the memory roofline), to
// check against a measurement or to see what padding a width buys.
#include "cli_common.h"
#include "commands.h"

#include "simcore/precision.h"
#include "simcore/step.h"
#include "simcore/step_layer.h"
#include "simcore/units.h"

#include <QJsonObject>
#include <QTextStream>

#include <algorithm>

namespace dtsim::cli {

int runGemm(const QStringList& args)
{
    QCommandLineParser p;
    p.addPositionalArgument("GPU", "A GPU of the catalogue (dtsim-cli hardware lists them).");
    p.addPositionalArgument("M", "Rows of the left operand (tokens).");
    p.addPositionalArgument("N", "Columns of the right operand (output features).");
    p.addPositionalArgument("K", "The shared dimension (input features).");
    p.addOption({ "precision", "Operand precision: bf16 (default), fp16, fp8, tf32, fp32.", "P", "bf16" });
    p.addOption({ "json", "Print JSON." });
    if (!parseCommand(p, "gemm", args, 4))
        return kExitBadInput;
    try {
        const EngineData d = loadEngineData(p);
        const QStringList a = p.positionalArguments();
        const auto gpu = std::find_if(d.catalog.begin(), d.catalog.end(), [&](const HardwareSpec& h) { return h.id == a[0].toStdString(); });
        if (gpu == d.catalog.end())
            throw InputError("GPU", 0, "", "\"" + a[0].toStdString() + "\" is not in the catalogue (dtsim-cli hardware lists them)");
        double dims[3] {};
        for (int i = 0; i < 3; ++i) {
            bool ok = false;
            dims[i] = a[i + 1].toDouble(&ok);
            if (!ok || !(dims[i] >= 1 && dims[i] <= 1e7) || dims[i] != double(qint64(dims[i])))
                throw InputError(QString("MNK").mid(i, 1).toStdString(), 0, "", "\"" + a[i + 1].toStdString() + "\" is not a whole number from 1 to 1e7");
        }
        const auto precision = precisionFromName(p.value("precision").toStdString());
        if (!precision || !gpu->supports(*precision))
            throw InputError("--precision", 0, "", "\"" + p.value("precision").toStdString() + "\" is not a precision " + gpu->name + " has");
        Scenario s;
        s.hardware = *gpu;
        s.training.precision = *precision;
        const step_detail::Rates r = step_detail::ratesFor(s, d.calibration);
        const double m = dims[0], n = dims[1], k = dims[2];
        const double seconds = step_detail::gemmTime(r, m, n, k);
        const double shape = gemmEfficiency(*r.eff, m, n, k, r.tileScale), alignment = step_detail::gemmAlignment(r, m, n, k);
        const double flops = 2 * m * n * k;
        if (p.isSet("json")) {
            printJson(QJsonDocument(QJsonObject { { "gpu", QString::fromStdString(gpu->id) }, { "m", m }, { "n", n }, { "k", k },
                { "precision", p.value("precision") }, { "seconds", seconds }, { "flops_per_s", flops / seconds },
                { "shape_efficiency", shape }, { "alignment_efficiency", alignment }, { "kernel_overhead_s", r.kernel } }));
            return kExitOk;
        }
        QTextStream(stdout) << QString("%1 x %2 x %3 on %4 (%5): %6, %7\n  shape efficiency %8% of %9, alignment x%10, plus %11 a kernel\n")
                                   .arg(m).arg(n).arg(k).arg(QString::fromStdString(gpu->name), p.value("precision"))
                                   .arg(QString::fromStdString(formatSeconds(seconds)), QString::fromStdString(formatFlops(flops / seconds)))
                                   .arg(100 * shape, 0, 'f', 1).arg(QString::fromStdString(formatFlops(r.gemmPeak)))
                                   .arg(alignment, 0, 'f', 3).arg(QString::fromStdString(formatSeconds(r.kernel)));
        return kExitOk;
    } catch (const InputError& e) {
        return reportInputError(e);
    }
}

} // namespace dtsim::cli
