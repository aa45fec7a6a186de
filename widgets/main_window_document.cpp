// MainWindow's document actions: open, recover, save and export, the recent-files menu
// and the window title; the rest of the window is in main_window.cpp.
#include "main_window.h"

#include "breakdown_tab.h"
#include "scaling_tab.h"
#include "dashboard.h"
#include "evaluator.h"
#include "scenario_document.h"
#include "timeline_tab.h"
#include "view_export.h"

#include "simcore/input_error.h"
#include "simcore/loader/read_file.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/loader/scenario_patch.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/report_check.h"
#include "simcore/scenario_limits.h"
#include "simcore/units.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>

namespace dtsim::gui {

namespace {
constexpr int kMaxRecent = 8;
}

QStringList MainWindow::presetNames() const
{
    QStringList names;
    for (const QString& f : QDir(m_data.presetsDir).entryList({ "*.yaml" }, QDir::Files, QDir::Name))
        names << QFileInfo(f).completeBaseName();
    return names;
}

QString MainWindow::userPresetsDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("presets");
}

bool MainWindow::pinAsA()
{
    const Scenario& s = m_doc->scenario();
    if (scenarioIssue(s))
        return false;
    m_pinnedA = s;
    m_pinnedReport = m_evaluator->report(s);
    const QString name = QString::fromStdString(s.name.empty() ? std::string("pinned scenario") : s.name);
    m_dashboard->setPinned(name, m_pinnedReport, s.model.isLayerTable());
    refresh(); // the tabs get A with every update (TabInput::pinned)
    return true;
}

void MainWindow::unpinA()
{
    m_pinnedA.reset();
    m_dashboard->setPinned({}, std::nullopt);
    refresh();
}

bool MainWindow::openCompared(const QString& a, const QString& b)
{
    if (!openFile(a) || !pinAsA())
        return false;
    return openFile(b);
}

bool MainWindow::openFile(const QString& path)
{
    try {
        const std::string file = QFile::encodeName(path).toStdString();
        const std::string text = readTextFile(file, "scenario file");
        const Scenario s = loadScenarioText(text, file, m_data.catalog, {}, m_data.topologies);
        checkOverlay(s, m_data.calibration); // a measured speed within what the GPU can do
        m_openError.clear();
        showBanner({});
        m_onDisk = { text, s };
        m_doc->reset(s, path);
        addRecent(path);
        return true;
    } catch (const InputError& e) {
        m_openError = tr("Could not open the scenario: %1").arg(QString::fromUtf8(e.what()));
        showBanner(m_openError);
        return false;
    }
}

std::vector<RecoverableScenario> MainWindow::recoverable() const
{
    return Autosave::orphans(m_data.autosaveFolder.isEmpty() ? Autosave::defaultFolder() : m_data.autosaveFolder);
}

bool MainWindow::recover(const RecoverableScenario& r)
{
    try {
        const Scenario recovered = loadScenarioText(r.yaml.toStdString(), r.autosavePath.toStdString(), m_data.catalog, {}, m_data.topologies);
        // On top of the file it came from, when that still opens, so undo shows the
        // difference; else on its own, unsaved.
        bool onOriginal = false;
        if (!r.originalPath.isEmpty() && QFileInfo(r.originalPath).isFile()) {
            try {
                m_doc->reset(loadScenarioFile(r.originalPath.toStdString(), m_data.catalog, {}, m_data.topologies), r.originalPath);
                onOriginal = true;
            } catch (const InputError&) {
            }
        }
        if (onOriginal) {
            m_doc->edit("recover", [&](Scenario& s) { s = recovered; }, false);
        } else {
            m_doc->reset(recovered, QString());
            m_doc->markUnsaved();
        }
        Autosave::discard(r);
        showBanner({});
        statusBar()->showMessage(tr("Recovered the unsaved scenario"), 6000);
        return true;
    } catch (const InputError& e) {
        showBanner(tr("Could not recover the unsaved scenario: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

void MainWindow::offerRecovery()
{
    const std::vector<RecoverableScenario> found = recoverable();
    if (found.empty())
        return;
    const RecoverableScenario& r = found.front();
    const QString name = r.originalPath.isEmpty() ? tr("a new scenario") : QFileInfo(r.originalPath).fileName();
    // An error opening the file asked for stays in view above the offer.
    const QString error = m_openError.isEmpty() ? QString() : m_openError.toHtmlEscaped() + "<br><br>";
    showBanner(error
        + tr("dtsim found unsaved changes to %1 from a session that ended unexpectedly (%2). "
             "<a href=\"recover\">Recover them</a> &nbsp;·&nbsp; <a href=\"discard\">Discard</a>")
              .arg(name.toHtmlEscaped(), QDateTime::fromMSecsSinceEpoch(r.savedAtMs).toString(Qt::TextDate)));
    disconnect(m_banner, &QLabel::linkActivated, this, nullptr);
    connect(m_banner, &QLabel::linkActivated, this, [this, r](const QString& link) {
        if (link == "recover" && maybeSave()) {
            recover(r);
        } else if (link == "discard") {
            Autosave::discard(r);
            showBanner(m_openError);
            offerRecovery(); // the next one, if any
        }
    });
}

bool MainWindow::openPreset(const QString& name)
{
    return openFile(QDir(m_data.presetsDir).filePath(name + ".yaml"));
}

std::string MainWindow::scenarioText() const
{
    // The file it came from keeps its text: only what changed is rewritten, in the units
    // it was written in (scenario_patch.h); otherwise, or when that cannot be done in
    // place, the whole scenario in natural units.
    const Scenario& s = m_doc->scenario();
    std::optional<std::string> patched;
    if (!m_onDisk.text.empty())
        patched = patchScenarioText(m_onDisk.text, m_onDisk.scenario, s, m_data.catalog, m_data.topologies);
    return patched ? *patched : scenarioToYaml(s);
}

bool MainWindow::saveTo(const QString& path)
{
    const Scenario& s = m_doc->scenario();
    const std::string text = scenarioText();
    // Atomic: a failure never leaves a half-written scenario behind.
    QString error;
    if (!writeFileAtomically(path, QByteArray::fromStdString(text), &error)) {
        showBanner(tr("Could not save %1: %2").arg(path, error));
        return false;
    }
    m_onDisk = { text, s };
    m_doc->setPath(path);
    m_doc->markSaved();
    addRecent(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::exportCurrentView(const QString& path, QString* error)
{
    return exportWidget(m_tabs->currentWidget(), path, error);
}

bool MainWindow::exportCurrentTables(const QString& path, QString* error)
{
    return exportTablesCsv(m_tabs->currentWidget(), path, error);
}

bool MainWindow::exportReport(const QString& path, QString* error)
{
    const Scenario& s = m_doc->scenario();
    if (!m_data.reportJson) {
        *error = tr("no JSON writer in this build");
        return false;
    }
    if (auto issue = scenarioIssue(s)) {
        *error = QString::fromStdString(issue->reason);
        return false;
    }
    return writeFileAtomically(path, m_data.reportJson(s, m_evaluator->report(s)), error);
}

bool MainWindow::exportTrace(const QString& path, QString* error)
{
    if (!m_currentValid) {
        *error = tr("the scenario's plan is not valid");
        return false;
    }
    TimelineTab* timeline = timelineTab();
    if (timeline->isStale()) {
        // The trace exported is the one the Timeline tab draws, in full (not a drag's
        // draft): show it, and let the worker finish while the window stays responsive.
        m_tabs->setCurrentWidget(timeline);
        flushPending();
        QElapsedTimer waited;
        waited.start();
        while (timeline->isStale() && waited.elapsed() < 60000) {
            QEventLoop wait;
            connect(m_evaluator, &Evaluator::timelineReady, &wait, &QEventLoop::quit, Qt::QueuedConnection);
            QTimer::singleShot(1000, &wait, &QEventLoop::quit);
            wait.exec();
        }
    }
    return timeline->exportTrace(path, error);
}

bool MainWindow::exportScenario(const QString& path, QString* error)
{
    return writeFileAtomically(path, QByteArray::fromStdString(scenarioText()), error);
}

void MainWindow::updateTitle()
{
    // The file first (what Save writes to), then the scenario's own name.
    const Scenario& s = m_doc->scenario();
    const QString file = m_doc->path().isEmpty() ? tr("untitled") : QFileInfo(m_doc->path()).fileName();
    setWindowTitle(s.name.empty() ? QString("%1[*] - dtsim").arg(file)
                                  : QString("%1[*]: %2 - dtsim").arg(file, QString::fromStdString(s.name)));
    setWindowModified(m_doc->isModified());
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] {
            if (maybeSave())
                openFile(path);
        });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

bool MainWindow::maybeSave()
{
    if (!m_doc->isModified() || QApplication::platformName() == "offscreen")
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved changes"), tr("Save the changes to this scenario?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save) {
        const QString path = m_doc->path().isEmpty() || m_doc->path().startsWith(m_data.presetsDir)
            ? QFileDialog::getSaveFileName(this, tr("Save scenario"), QString(), tr("Scenarios (*.yaml)"))
            : m_doc->path();
        return !path.isEmpty() && saveTo(path);
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (!maybeSave()) {
        e->ignore();
        return;
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    e->accept();
}

} // namespace dtsim::gui
