#include "measurement_import.h"

#include "scenario_document.h"

#include "simcore/input_error.h"
#include "simcore/io/atomic_file.h"
#include "simcore/loader/calibration_overlay_loader.h"
#include "simcore/loader/read_file.h"
#include "simcore/measure/measurement_text.h"
#include "simcore/measure/trace_fit.h"
#include "simcore/units.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace dtsim::gui {

namespace {

// A trace is JSON (it opens with '{' or '[') or gzip (0x1f 0x8b); anything else is taken
// for an nccl-tests log.
bool looksLikeTrace(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return path.endsWith(".json") || path.endsWith(".gz");
    const QByteArray head = f.read(64).trimmed();
    return head.startsWith('{') || head.startsWith('[') || (head.size() >= 2 && uchar(head[0]) == 0x1f && uchar(head[1]) == 0x8b);
}

struct TraceResult {
    std::string text, error;
    std::string file, device;
    ProfileSummary summary;
};

} // namespace

MeasurementImport::MeasurementImport(ScenarioDocument* doc, Calibration calibration, QWidget* parent)
    : QObject(parent)
    , m_doc(doc)
    , m_calibration(std::move(calibration))
    , m_parent(parent)
{
}

void MeasurementImport::chooseAndImport()
{
    const QString path = QFileDialog::getOpenFileName(m_parent, tr("Import measurements"), QString(),
        tr("Profiler traces and nccl-tests logs (*.json *.gz *.log *.txt);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

QString MeasurementImport::defaultOverlayPath() const
{
    const QString scenario = m_doc->path();
    if (scenario.isEmpty())
        return {};
    const QFileInfo f(scenario);
    return f.dir().filePath(f.completeBaseName() + ".calibration.yaml");
}

void MeasurementImport::importFile(const QString& path)
{
    if (!looksLikeTrace(path)) {
        try {
            const std::string file = path.toStdString();
            const NcclTestsLog log = parseNcclTestsLog(file, readTextFile(file, "nccl-tests log"));
            finish(QString::fromStdString(ncclTestsText(log, fitNcclTests(log))), false, true, path);
        } catch (const InputError& e) {
            finish(QString::fromUtf8(e.what()), true, false, path);
        }
        return;
    }
    // A trace can be hundreds of megabytes: read it on a worker, the bar following the
    // bytes read, cancel stopping it at the next block.
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto progress = std::make_shared<std::atomic<int>>(0);
    auto cancel = m_cancel;
    auto* watcher = new QFutureWatcher<TraceResult>(this);
    QProgressDialog* bar = nullptr;
    QTimer* poll = nullptr;
    if (m_interactive) {
        bar = new QProgressDialog(tr("Reading %1...").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000, m_parent);
        bar->setWindowModality(Qt::WindowModal);
        bar->setMinimumDuration(300);
        connect(bar, &QProgressDialog::canceled, this, [cancel] { cancel->store(true); });
        poll = new QTimer(bar);
        connect(poll, &QTimer::timeout, bar, [bar, progress] { bar->setValue(progress->load()); });
        poll->start(50);
    }
    connect(watcher, &QFutureWatcher<TraceResult>::finished, this, [this, watcher, bar, path] {
        const TraceResult r = watcher->result();
        watcher->deleteLater();
        if (bar)
            bar->deleteLater();
        if (r.error.empty())
            m_trace = { r.file, r.device, r.summary, int(r.summary.steps.size()) };
        finish(QString::fromStdString(r.error.empty() ? r.text : r.error), !r.error.empty(), false, path);
    });
    const std::string file = path.toStdString();
    watcher->setFuture(QtConcurrent::run([file, progress, cancel]() -> TraceResult {
        try {
            const KinetoTrace t = readKinetoTrace(file, [&](double f) {
                progress->store(int(1000 * std::min(1.0, f)));
                return !cancel->load();
            });
            ProfileSummary summary = summarizeProfile(t);
            return { profileText(t, summary), {}, t.file, t.deviceName, std::move(summary) };
        } catch (const InputError& e) {
            return { {}, e.what(), {}, {}, {} };
        }
    }));
}

void MeasurementImport::finish(const QString& summary, bool failed, bool offerNccl, const QString& path)
{
    m_summary = summary;
    m_failed = failed;
    if (m_interactive) {
        // A trace can calibrate the open scenario's kernel speeds, as dtsim-cli calibrate
        // TRACE --scenario FILE -o OVERLAY does; an nccl-tests log its collectives.
        const bool offerTrace = !failed && !offerNccl;
        QMessageBox box(failed ? QMessageBox::Warning : QMessageBox::Information, tr("Import measurements"),
            failed ? tr("This file could not be read.") : tr("What %1 measured:").arg(QFileInfo(path).fileName()), QMessageBox::Close, m_parent);
        box.setDetailedText(summary);
        box.setInformativeText(failed ? summary
                : offerNccl ? tr("Add this fit to the scenario's calibration overlay for the tier it measured?")
                            : tr("Fit the open scenario's kernel speeds (GEMM, attention, memory-bound) to this trace? "
                                 "The trace should be of this scenario's model, batch and sequence on its GPU."));
        QAbstractButton* use = !failed ? box.addButton(offerNccl ? tr("Use in this scenario...") : tr("Calibrate this scenario..."),
                                      QMessageBox::AcceptRole)
                                       : nullptr;
        box.exec();
        if (use && box.clickedButton() == use) {
            if (offerTrace)
                askForTraceOverlay();
            else
                askForTier(path);
        }
    }
    emit finished();
}

void MeasurementImport::askForTier(const QString& path)
{
    bool ok = false;
    const QStringList tiers { tr("scale-up (inside a server or NVLink domain)"), tr("scale-out (across them)") };
    const QString tier = QInputDialog::getItem(m_parent, tr("Which tier did it measure?"), tr("Tier:"), tiers, 0, false, &ok);
    QString overlay = defaultOverlayPath();
    if (ok && overlay.isEmpty())
        overlay = QFileDialog::getSaveFileName(m_parent, tr("Save the calibration overlay"), "calibration.yaml", tr("YAML (*.yaml)"));
    if (ok && !overlay.isEmpty()) {
        const QString why = useNcclLog(path, tier == tiers[0] ? MeasuredTier::ScaleUp : MeasuredTier::ScaleOut, overlay);
        if (!why.isEmpty())
            QMessageBox::warning(m_parent, tr("Import measurements"), why);
    }
}

void MeasurementImport::askForTraceOverlay()
{
    QString overlay = defaultOverlayPath();
    if (overlay.isEmpty())
        overlay = QFileDialog::getSaveFileName(m_parent, tr("Save the calibration overlay"), "calibration.yaml", tr("YAML (*.yaml)"));
    if (overlay.isEmpty())
        return;
    const QString why = calibrateFromTrace(overlay);
    if (!why.isEmpty())
        QMessageBox::warning(m_parent, tr("Import measurements"), why);
}

QString MeasurementImport::calibrateFromTrace(const QString& overlayPath)
{
    if (!hasTrace())
        return tr("No trace has been read.");
    try {
        const Scenario& s = m_doc->scenario();
        const TraceFit fit = fitTrace(s, m_calibration, m_trace.summary);
        if (!fit.converged())
            return tr("The traced kernels cannot be reproduced with speeds within ten times the model's: is the trace of this "
                      "scenario (its model, batch and sequence) on this GPU?");
        MeasuredKernels kernels = fit.kernels;
        kernels.source = "fit to " + std::to_string(fit.steps) + " steps of " + m_trace.file + " (" + m_trace.device
            + ") on scenario \"" + s.name + "\", imported in the app: step " + formatSeconds(fit.measuredStep) + " traced, "
            + formatSeconds(fit.predictedStep) + " predicted before";
        return addToOverlay(overlayPath, [&](CalibrationOverlay& o) { o.kernels = kernels; });
    } catch (const InputError& e) {
        return QString::fromUtf8(e.what());
    }
}

QString MeasurementImport::addToOverlay(const QString& overlayPath, const std::function<void(CalibrationOverlay&)>& add)
{
    // The overlay there (or a new one) with the measurement added, written atomically, and
    // the scenario pointed at it.
    CalibrationOverlay o = QFileInfo::exists(overlayPath) ? loadCalibrationOverlay(overlayPath.toStdString()) : CalibrationOverlay();
    add(o);
    std::string error;
    if (!dtsim::writeFileAtomically(overlayPath.toStdString(), calibrationOverlayText(o), &error))
        return QString::fromStdString(error);
    return pointScenarioAt(overlayPath);
}

QString MeasurementImport::pointScenarioAt(const QString& overlayPath)
{
    // Named relative to the scenario when it sits beside it; one undo step.
    const QString scenarioDir = m_doc->path().isEmpty() ? QString() : QFileInfo(m_doc->path()).absolutePath();
    CalibrationOverlay named = loadCalibrationOverlay(overlayPath.toStdString());
    named.file = (scenarioDir.isEmpty() ? QFileInfo(overlayPath).absoluteFilePath() : QDir(scenarioDir).relativeFilePath(overlayPath)).toStdString();
    m_doc->edit("calibration", [named](Scenario& s) { s.calibration = named; }, false);
    return {};
}

QString MeasurementImport::useNcclLog(const QString& logPath, MeasuredTier tier, const QString& overlayPath)
{
    try {
        const std::string file = logPath.toStdString();
        const NcclTestsLog log = parseNcclTestsLog(file, readTextFile(file, "nccl-tests log"));
        const NcclFit fit = fitNcclTests(log);
        MeasuredCollective m = measuredCollective(log, fit, tier);
        m.source += ", imported in the app";
        return addToOverlay(overlayPath, [&](CalibrationOverlay& o) { o.put(std::move(m)); });
    } catch (const InputError& e) {
        return QString::fromUtf8(e.what());
    }
}

} // namespace dtsim::gui
