// MainWindow's menus: File (presets, open, save, exports, imports), Edit, View (pin,
// tabs, theme, presentation, lectures) and Help; every shortcut also the window's.
#include "main_window.h"

#include "framework_import.h"
#include "help_menu.h"
#include "measurement_import.h"
#include "scenario_document.h"
#include "tab_registry.h"
#include "theme.h"

#include "simcore/input_error.h"
#include "simcore/loader/scenario_loader.h"

#include <QActionGroup>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

#include <functional>

namespace dtsim::gui {

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    addPresetMenu(file->addMenu(tr("New from &preset")));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        if (!maybeSave())
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(), tr("Scenarios (*.yaml *.yml)"));
        if (!path.isEmpty())
            openFile(path);
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] {
        if (m_doc->path().isEmpty() || m_doc->path().startsWith(m_data.presetsDir)) {
            const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"), QString(), tr("Scenarios (*.yaml)"));
            if (!path.isEmpty())
                saveTo(path);
        } else {
            saveTo(m_doc->path());
        }
    });
    file->addAction(tr("Save &as..."), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save scenario as"), QString(), tr("Scenarios (*.yaml)"));
        if (!path.isEmpty())
            saveTo(path);
    });
    addExportMenu(file->addMenu(tr("&Export")));
    file->addSeparator();
    // A profiler trace summarized, or an nccl-tests log fitted into the scenario's overlay.
    file->addAction(tr("&Import measurements..."), this, [this] { m_import->chooseAndImport(); });
    file->addAction(tr("Import &framework config..."), this, [this] { m_frameworkImport->chooseAndImport(); });
    file->addSeparator();
    // Ctrl+Q on every platform (QKeySequence::Quit is empty on some, offscreen included).
    file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this, &QWidget::close);


    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);


    buildViewMenu();
    addHelpMenu(this, m_data.docsDir);
    shortcutsWorkWhilePresenting();
}

// Shipped presets by the names they give themselves, then the user's own.
void MainWindow::addPresetMenu(QMenu* presets)
{
    // Listed by the names they give themselves (the file name is the tooltip), in
    // file order; a preset that does not load is listed by its file name.
    for (const QString& name : presetNames()) {
        QString title = name, description;
        try {
            const Scenario s = loadScenarioFile(QDir(m_data.presetsDir).filePath(name + ".yaml").toStdString(), m_data.catalog, {}, m_data.topologies);
            if (!s.name.empty())
                title = QString::fromStdString(s.name);
            description = QString::fromStdString(s.description);
        } catch (const InputError&) {
        }
        QAction* a = presets->addAction(title, this, [this, name] {
            if (maybeSave())
                openPreset(name);
        });
        a->setToolTip(QString("%1.yaml%2").arg(name, description.isEmpty() ? QString() : ": " + description));
        a->setData(name);
    }
    presets->setToolTipsVisible(true);
    // The user's own presets: any scenario saved into this folder.
    const QDir user(userPresetsDir());
    const QStringList mine = user.entryList({ "*.yaml" }, QDir::Files, QDir::Name);
    if (!mine.isEmpty())
        presets->addSeparator();
    for (const QString& f : mine)
        presets->addAction(QFileInfo(f).completeBaseName(), this, [this, path = user.filePath(f)] {
            if (maybeSave())
                openFile(path);
        });
    presets->addSeparator();
    presets->addAction(tr("Save current as user preset..."), this, [this] {
        QDir().mkpath(userPresetsDir());
        const QString path = QFileDialog::getSaveFileName(this, tr("Save as user preset"), userPresetsDir(), tr("Scenarios (*.yaml)"));
        if (!path.isEmpty())
            saveTo(path);
    });
}

void MainWindow::addExportMenu(QMenu* exports)
{
    auto exportWith = [this](const QString& title, const QString& name, const QString& filter,
                          bool (MainWindow::*run)(const QString&, QString*)) {
        const QString path = QFileDialog::getSaveFileName(this, title, name, filter);
        QString error;
        if (path.isEmpty())
            return;
        if ((this->*run)(path, &error))
            statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
        else
            showBanner(tr("Could not export %1: %2").arg(path, error));
    };
    exports->addAction(tr("Current view as PNG, SVG or PDF..."), this, [this, exportWith] {
        exportWith(tr("Export view"), m_tabs->tabText(m_tabs->currentIndex()).toLower().remove(' ') + ".png",
            tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &MainWindow::exportCurrentView);
    });
    exports->addAction(tr("Tables of the current view as CSV..."), this, [exportWith] {
        exportWith(tr("Export tables"), "table.csv", tr("CSV (*.csv)"), &MainWindow::exportCurrentTables);
    });
    exports->addAction(tr("Report as JSON..."), this, [exportWith] {
        exportWith(tr("Export report"), "report.json", tr("JSON (*.json)"), &MainWindow::exportReport);
    });
    exports->addAction(tr("Timeline as Chrome trace..."), this, [exportWith] {
        exportWith(tr("Export trace"), "trace.json", tr("Chrome trace (*.json)"), &MainWindow::exportTrace);
    });
    exports->addAction(tr("Scenario as YAML..."), this, [exportWith] {
        exportWith(tr("Export scenario"), "scenario.yaml", tr("Scenarios (*.yaml)"), &MainWindow::exportScenario);
    });
}

void MainWindow::buildViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* pin = view->addAction(tr("Pin as &A (compare with it)"), this, [this] {
        if (!pinAsA())
            showBanner(tr("Fix the plan before pinning it as A: only a valid scenario can be compared."));
    });
    pin->setShortcut(QKeySequence(tr("Ctrl+Shift+A")));
    view->addAction(tr("&Unpin A"), this, &MainWindow::unpinA);
    view->addSeparator();
    for (int i = 0; i < m_tabs->count(); ++i) {
        // Ctrl+1 ... Ctrl+9, then Ctrl+0 for the tenth.
        const QKeySequence key = i < 9 ? QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)) : i == 9 ? QKeySequence(Qt::CTRL | Qt::Key_0) : QKeySequence();
        view->addAction(m_tabs->tabText(i), key, this, [this, i] { m_tabs->setCurrentIndex(i); });
    }
    view->addSeparator();
    QMenu* themes = view->addMenu(tr("T&heme"));
    auto* themeGroup = new QActionGroup(this);
    for (const QString& name : themeNames()) {
        QAction* a = themes->addAction(name == "system" ? tr("Follow the system") : name == "light" ? tr("Light") : tr("Dark"));
        a->setCheckable(true);
        a->setChecked(name == QSettings().value("view/theme", "system").toString());
        themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, name] { setTheme(name); });
    }
    QAction* teaching = m_teachingDock->toggleViewAction();
    teaching->setText(tr("&Teaching panel (formulas)"));
    teaching->setShortcut(QKeySequence(Qt::Key_F2));
    view->addAction(teaching);
    m_presentationAction = view->addAction(tr("&Presentation mode"), this, [this](bool on) { setPresentationMode(on); });
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcuts({ QKeySequence(Qt::Key_F11) });
    addAction(m_presentationAction); // its F11 works with the menu bar hidden, as it is while presenting
    QMenu* shown = view->addMenu(tr("Views in presentation mode"));
    for (int i = 0; i < m_tabs->count(); ++i) {
        QAction* a = shown->addAction(m_tabs->tabText(i));
        a->setCheckable(true);
        a->setChecked(true);
        a->setData(QString(tabRegistry()[std::size_t(i)].name));
        m_presentationTabs.push_back(a);
    }
    // Lectures: shipped scripts, any script file, and stepping by a presenter's clicker.
    addLectureMenu(view->addMenu(tr("&Lectures")));
}

void MainWindow::addLectureMenu(QMenu* lectures)
{
    for (const QString& name : lectureNames())
        lectures->addAction(name, this, [this, name] {
            if (maybeSave() && openLecture(name))
                setPresentationMode(true);
        });
    lectures->addAction(tr("Open lecture script..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open lecture script"), lecturesDir(), tr("Lecture scripts (*.yaml)"));
        if (!path.isEmpty() && maybeSave() && openLecture(path))
            setPresentationMode(true);
    });
    lectures->addSeparator();
    m_nextStep = lectures->addAction(tr("Next step"), QKeySequence(Qt::Key_PageDown), this, [this] { showLectureStep(m_lectureIndex + 1); });
    m_previousStep = lectures->addAction(tr("Previous step"), QKeySequence(Qt::Key_PageUp), this, [this] { showLectureStep(m_lectureIndex - 1); });
    lectures->addAction(tr("Close the lecture"), this, &MainWindow::closeLecture);
    m_nextStep->setEnabled(false); // Page Up / Page Down page the views until a lecture opens
    m_previousStep->setEnabled(false);
}

void MainWindow::shortcutsWorkWhilePresenting()
{
    // Every shortcut works with the menu bar hidden (presentation mode): a menu's
    // actions answer only while their menu bar is shown, the window's always.
    std::function<void(QMenu*)> windowWide = [&](QMenu* menu) {
        for (QAction* a : menu->actions()) {
            if (a->menu())
                windowWide(a->menu());
            else if (!a->shortcuts().isEmpty())
                addAction(a);
        }
    };
    for (QAction* a : menuBar()->actions())
        if (a->menu())
            windowWide(a->menu());
    // Esc leaves presentation mode (the menu bar is hidden there).
    auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(leave, &QShortcut::activated, this, [this] {
        if (m_presenting)
            setPresentationMode(false);
    });
}

} // namespace dtsim::gui
