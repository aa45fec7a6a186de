#pragma once
// File > Import measurements: a PyTorch profiler trace, read on a worker thread with a
// progress bar and cancel, summarized; or an nccl-tests log, fitted, and on request put
// into the scenario's calibration overlay for the tier it measured.
#include "simcore/calibration.h"
#include "simcore/calibration_overlay.h"
#include "simcore/measure/profile_summary.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

class QWidget;

namespace dtsim::gui {

class ScenarioDocument;

class MeasurementImport : public QObject {
    Q_OBJECT
public:
    MeasurementImport(ScenarioDocument* doc, Calibration calibration, QWidget* parent);

    // Asks for a file, then reads it (a dialog reports the outcome).
    void chooseAndImport();
    // The same without asking, for a given file. Traces are read on a worker thread;
    // `finished` comes when the summary is ready (or the read failed or was cancelled).
    void importFile(const QString& path);
    QString lastSummary() const { return m_summary; } // the last import's text, or its error
    bool lastFailed() const { return m_failed; }
    void setInteractive(bool on) { m_interactive = on; } // off: no dialogs (tests)

    // An nccl-tests log's fit added to the overlay at `overlayPath` (created if absent)
    // for `tier`, and the scenario pointed at it. Returns "" or why not.
    QString useNcclLog(const QString& logPath, MeasuredTier tier, const QString& overlayPath);
    QString defaultOverlayPath() const; // next to the scenario file, or "" when unsaved
    // The last trace read, fitted to the open scenario (dtsim-cli calibrate TRACE
    // --scenario FILE -o OVERLAY): its kernel speeds go into the overlay at
    // `overlayPath`, and the scenario points at it, in one undo step. "" or why not.
    QString calibrateFromTrace(const QString& overlayPath);
    bool hasTrace() const { return m_trace.steps > 0 || !m_trace.file.empty(); }

signals:
    void finished();

private:
    void finish(const QString& summary, bool failed, bool offerNccl, const QString& path);
    void askForTier(const QString& path);
    void askForTraceOverlay();
    QString addToOverlay(const QString& overlayPath, const std::function<void(CalibrationOverlay&)>& add); // "" or why not
    QString pointScenarioAt(const QString& overlayPath); // one undo step; "" or why not
    struct Trace {
        std::string file, device;
        ProfileSummary summary;
        int steps = 0;
    } m_trace; // the last trace read
    ScenarioDocument* m_doc;
    Calibration m_calibration;
    QWidget* m_parent;
    QString m_summary;
    bool m_failed = false;
    bool m_interactive = true;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace dtsim::gui
