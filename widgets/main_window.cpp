#include "main_window.h"

#include "lecture_bar.h"

#include "palette_colors.h"

#include "breakdown_tab.h"
#include "dashboard.h"
#include "evaluator.h"
#include "framework_import.h"
#include "simcore/frameworks/import_scenario.h"
#include "measurement_import.h"
#include "frontier_view.h"
#include "parameter_fields.h"
#include "parameter_panel.h"
#include "plan_fixes.h"
#include "plans_tab.h"
#include "scaling_tab.h"
#include "scenario_document.h"
#include "help_menu.h"
#include "stale_note.h"
#include "timeline_tab.h"
#include "reliability_tab.h"
#include "cluster_tab.h"
#include "whatif_tab.h"
#include "cost_tab.h"
#include "tab_page.h"
#include "tab_registry.h"
#include "theme.h"
#include "teaching_panel.h"
#include "view_export.h"
#include "topology_tab.h"

#include "simcore/scenario_rules.h"
#include "simcore/input_error.h"
#include "simcore/loader/scenario_loader.h"
#include "simcore/loader/scenario_writer.h"
#include "simcore/report_check.h"
#include "simcore/scenario_limits.h"
#include "simcore/units.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QDateTime>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QSignalBlocker>
#include <QActionGroup>
#include <QDockWidget>
#include <QEventLoop>
#include <QTimer>
#include <QShortcut>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace dtsim::gui {

namespace {

std::vector<std::string> gridRegions(const CostRates& c)
{
    std::vector<std::string> names;
    for (const auto& kv : c.gridGramsPerKwh)
        names.push_back(kv.first);
    return names;
}

} // namespace

namespace {
}

std::vector<std::string> MainWindow::tabNames()
{
    std::vector<std::string> names;
    for (const TabEntry& e : tabRegistry())
        names.emplace_back(e.name);
    return names;
}

template <typename T> T* MainWindow::tabOf() const
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* tab = qobject_cast<T*>(m_tabs->widget(i)))
            return tab;
    return nullptr;
}

FrontierView* MainWindow::frontierView() const { return tabOf<FrontierTab>()->view(); }
bool MainWindow::hasFrontier() const { return tabOf<FrontierTab>()->hasFrontier(); }
PlansTab* MainWindow::plansTab() const { return tabOf<PlansTab>(); }
BreakdownTab* MainWindow::breakdownTab() const { return tabOf<BreakdownTab>(); }
TopologyTab* MainWindow::topologyTab() const { return tabOf<TopologyTab>(); }
TimelineTab* MainWindow::timelineTab() const { return tabOf<TimelineTab>(); }
ScalingTab* MainWindow::scalingTab() const { return tabOf<ScalingTab>(); }
ReliabilityTab* MainWindow::reliabilityTab() const { return tabOf<ReliabilityTab>(); }
ClusterTab* MainWindow::clusterTab() const { return tabOf<ClusterTab>(); }
WhatIfTab* MainWindow::whatIfTab() const { return tabOf<WhatIfTab>(); }
CostTab* MainWindow::costTab() const { return tabOf<CostTab>(); }

MainWindow::MainWindow(AppData data, QWidget* parent)
    : QMainWindow(parent)
    , m_data(std::move(data))
{
    m_doc = new ScenarioDocument(this);
    m_import = new MeasurementImport(m_doc, m_data.calibration, this);
    m_frameworkImport = new FrameworkConfigImport(m_doc, &m_data.catalog, &m_data.topologies, &m_data.models, this);
    m_autosave = new Autosave(m_doc, m_data.autosaveFolder, this);
    connect(m_autosave, &Autosave::failed, this, [this](const QString& why) {
        showBanner(tr("Could not write the recovery copy of your unsaved changes: %1. Until it can be written, "
                      "a crash would lose them: save the scenario (File > Save as) somewhere with room.").arg(why));
    });
    connect(m_autosave, &Autosave::recovered, this, [this] {
        if (bannerText().startsWith(tr("Could not write the recovery copy")))
            showBanner({});
    });
    m_evaluator = new Evaluator(m_data.calibration, this);

    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(4, 4, 4, 4);
    m_banner = new QLabel(central);
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QString("background: %1; color: %2; padding: 6px; border-radius: 3px;")
                                .arg(errorBannerFill().name(), errorBannerInk().name()));
    m_banner->hide();
    column->addWidget(m_banner);
    m_dashboard = new Dashboard(central);
    m_dashboard->setResiduals(m_data.residuals);
    column->addWidget(m_dashboard);
    m_lectureBar = new LectureBar(central);
    m_lectureBar->hide();
    column->addWidget(m_lectureBar);
    connect(m_lectureBar, &LectureBar::nextRequested, this, [this] { showLectureStep(m_lectureIndex + 1); });
    connect(m_lectureBar, &LectureBar::previousRequested, this, [this] { showLectureStep(m_lectureIndex - 1); });
    connect(m_lectureBar, &LectureBar::closeRequested, this, &MainWindow::closeLecture);

    auto* split = new QSplitter(Qt::Horizontal, central);
    m_panel = new ParameterPanel(scenarioFields(m_data.catalog, gridRegions(m_data.costRates)), split);
    m_panel->setMinimumWidth(330);
    m_tabs = new QTabWidget(split);

    // Every tab is a TabPage (tab_page.h): the window says when, the tab what.
    const TabServices services { m_evaluator, m_doc, m_data };
    for (const TabEntry& e : tabRegistry())
        m_tabs->addTab(e.make(services, m_tabs), tabTitle(e));
    if (auto* whatif = tabOf<WhatIfTab>())
        connect(whatif, &WhatIfTab::applyScenario, this, [this](const Scenario& s, const QString&) {
            m_doc->edit("what-if", [&](Scenario& doc) { doc = s; }, false);
        });
    if (auto* plans = tabOf<PlansTab>())
        connect(plans, &PlansTab::applyPlan, this, [this](const ParallelPlan& plan, int micro) {
            m_doc->edit("plan", [&](Scenario& s) {
                s.plan = plan;
                s.training.microBatch = micro;
                s.cluster.gpus = plan.gpus();
            }, false);
        });
    m_staleNote = new StaleNote(m_tabs);
    // Only the visible tab follows every edit; another catches up when it is shown.
    m_tabStale.assign(std::size_t(m_tabs->count()), true);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::catchUpTab);
    m_teaching = new TeachingPanel(this);
    m_teachingDock = new QDockWidget(tr("How this number is computed"), this);
    m_teachingDock->setObjectName("teaching");
    m_teachingDock->setWidget(m_teaching);
    m_teachingDock->setMinimumWidth(240);
    // Opening it must not push the window past the screen (at 1366 px it did, to 1614,
    // and stayed so): where the window cannot hold both, the parameters make room while
    // the formulas are open; closing it gives back the window's size and the parameters.
    connect(m_teachingDock, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        if (!isVisible())
            return;
        if (shown) {
            if (!m_sizeBeforeDock.isValid())
                m_sizeBeforeDock = size();
            QTimer::singleShot(0, this, &MainWindow::makeRoomForTheDock);
            return;
        }
        if (m_panelMadeRoom) {
            m_panelMadeRoom = false;
            m_panel->show();
        }
        const QSize before = m_sizeBeforeDock;
        m_sizeBeforeDock = QSize();
        if (before.isValid() && !(windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)))
            QTimer::singleShot(0, this, [this, before] { resize(before); });
    });
    addDockWidget(Qt::RightDockWidgetArea, m_teachingDock);
    m_teachingDock->hide();
    connect(m_dashboard, &Dashboard::figureClicked, this, [this](const QString& key) {
        m_teaching->selectFigure(key);
        m_teachingDock->show();
    });
    split->addWidget(m_panel);
    split->addWidget(m_tabs);
    split->setStretchFactor(1, 1);
    column->addWidget(split, 1);
    setCentralWidget(central);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(120); // coalesce a slider drag into few background requests
    connect(&m_debounce, &QTimer::timeout, this, &MainWindow::requestBackground);

    connect(m_doc, &ScenarioDocument::changed, this, &MainWindow::refresh);
    connect(m_doc, &ScenarioDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_panel, &ParameterPanel::edited, this, &MainWindow::applyField);
    connect(m_panel, &ParameterPanel::fixRequested, this, &MainWindow::applyFix);
    m_panel->setModelCatalogue(m_data.models);
    connect(m_panel, &ParameterPanel::modelChosen, this, [this](const QString& id) {
        const CatalogueModel* m = findCatalogueModel(m_data.models, id.toStdString());
        if (!m)
            return;
        const ModelSpec spec = catalogueModelSpec(*m, m_data.catalog);
        m_doc->edit("model", [spec](Scenario& s) { s.model = spec; }, false);
    });
    // Background work shows as a word in the status bar; the newest request cancels the
    // older ones, so it never outlives the latest change by much. Not a busy QProgressBar:
    // painting its animation held the event loop for up to 130 ms while a large
    // timeline was computed (dtsim --bench-edits --tab timeline).
    auto* working = new QLabel(tr("working..."), this);
    working->hide();
    statusBar()->addPermanentWidget(working);
    connect(m_evaluator, &Evaluator::busyChanged, this, [this, working](bool busy) {
        statusBar()->showMessage(busy ? tr("Updating %1...").arg(m_tabs->tabText(m_tabs->currentIndex())) : tr("Ready"));
        working->setVisible(busy);
    });

    buildMenus();
    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray()))
        resize(1600, 1000);
    restoreState(settings.value("window/state").toByteArray());
    updateTitle();
}

void MainWindow::showEvent(QShowEvent* e)
{
    QMainWindow::showEvent(e);
    // Once laid out and placed by the window system (before, the minimum size is not
    // yet known): fit the screen.
    if (!m_fitted) {
        m_fitted = true;
        QTimer::singleShot(0, this, &MainWindow::fitToScreen);
    }
}

void MainWindow::makeRoomForTheDock()
{
    // A window frame's few pixels are left for the window manager's border.
    const QRect room = (screen() ? screen() : QGuiApplication::primaryScreen())->availableGeometry();
    constexpr int kFrame = 16;
    if (m_teachingDock->isVisible() && !m_panel->isHidden() && minimumSizeHint().width() > room.width() - kFrame) {
        m_panel->hide();
        m_panelMadeRoom = true;
        statusBar()->showMessage(tr("The parameters make room for the formulas while they are open (F2 closes them)."), 6000);
    }
    fitToScreen();
}

void MainWindow::fitToScreen()
{
    // A geometry saved on a larger screen (or the first run's 1600x1000) is shrunk onto
    // this one, as far as the window's minimum allows, and moved into view.
    const QRect room = (screen() ? screen() : QGuiApplication::primaryScreen())->availableGeometry();
    const QSize least = minimumSizeHint();
    const QSize size(std::max(least.width(), std::min(width(), room.width())), std::max(least.height(), std::min(height(), room.height())));
    if (size != this->size())
        resize(size);
    if (!room.contains(frameGeometry()))
        move(std::clamp(x(), room.left(), std::max(room.left(), room.right() - width())),
            std::clamp(y(), room.top(), std::max(room.top(), room.bottom() - height())));
}

MainWindow::~MainWindow()
{
    // Children die after this body; stop document and evaluator signals reaching a
    // half-destroyed window.
    disconnect(m_doc, nullptr, this, nullptr);
    disconnect(m_evaluator, nullptr, nullptr, nullptr);
}

bool MainWindow::setTheme(const QString& name, bool remember)
{
    if (!applyTheme(name))
        return false;
    if (remember)
        QSettings().setValue("view/theme", name);
    restyleCharts(this);
    // Redraw everything from the model with the new palette.
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* tab = dynamic_cast<TabPage*>(m_tabs->widget(i)))
            tab->restyle();
    refresh();
    requestBackground();
    return true;
}

void MainWindow::changeEvent(QEvent* e)
{
    // The desktop switched between light and dark: follow it.
    if (e->type() == QEvent::ApplicationPaletteChange && currentTheme() == "system" && !m_restyling) {
        m_restyling = true;
        restyleCharts(this);
        m_restyling = false;
    }
    QMainWindow::changeEvent(e);
}

void MainWindow::setPresentationTabs(const QStringList& names)
{
    for (QAction* a : m_presentationTabs)
        a->setChecked(names.contains(a->data().toString()));
    if (m_presenting)
        setPresentationMode(true);
}

void MainWindow::setPresentationMode(bool on)
{
    // Full screen, large type, the chosen views only, no editing chrome; everything
    // comes back as it was.
    if (on && !m_presenting) {
        m_beforePresentation.font = font();
        m_beforePresentation.state = windowState();
        // Whether they were hidden, not whether they are on screen: entered before the
        // window was shown (--present), isVisible() said false and the panel never came back.
        m_beforePresentation.panel = !m_panel->isHidden();
        m_beforePresentation.teaching = !m_teachingDock->isHidden();
        QFont big = font();
        big.setPointSizeF(big.pointSizeF() * 1.5);
        setFont(big);
        m_panel->hide();
        menuBar()->hide();
        statusBar()->hide();
        resizeChartText(this);
        setWindowState(windowState() | Qt::WindowFullScreen);
    }
    if (on) {
        int firstShown = -1;
        for (int i = 0; i < m_tabs->count() && i < int(m_presentationTabs.size()); ++i) {
            const bool show = m_presentationTabs[i]->isChecked();
            m_tabs->setTabVisible(i, show);
            if (show && firstShown < 0)
                firstShown = i;
        }
        if (firstShown >= 0 && !m_tabs->isTabVisible(m_tabs->currentIndex()))
            m_tabs->setCurrentIndex(firstShown);
    } else if (m_presenting) {
        for (int i = 0; i < m_tabs->count(); ++i)
            m_tabs->setTabVisible(i, true);
        setFont(m_beforePresentation.font);
        m_panel->setVisible(m_beforePresentation.panel);
        m_teachingDock->setVisible(m_beforePresentation.teaching);
        menuBar()->show();
        statusBar()->show();
        resizeChartText(this);
        setWindowState(m_beforePresentation.state);
    }
    m_presenting = on;
    m_dashboard->setPresenting(on);
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* tab = dynamic_cast<TabPage*>(m_tabs->widget(i)))
            tab->setPresenting(on);
    const QSignalBlocker block(m_presentationAction);
    m_presentationAction->setChecked(on);
}

bool MainWindow::selectTab(const QString& name)
{
    for (int i = 0; i < int(tabRegistry().size()); ++i)
        if (name == tabRegistry()[std::size_t(i)].name) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    return false;
}

void MainWindow::applyField(const QString& id, double value, bool merge)
{
    if (const FieldSpec* f = m_panel->field(id)) {
        const bool rebalance = f->rebalancesDp && m_panel->keepsGpuCount();
        m_doc->edit(id, [&](Scenario& s) {
            f->set(s, value);
            if (rebalance)
                keepGpuCount(s);
        }, merge);
    }
}

void MainWindow::applyFix(const QString&)
{
    if (auto fix = suggestFix(m_doc->scenario()))
        m_doc->edit("fix", [&](Scenario& s) { s = fix->fixed; }, false);
}




void MainWindow::showBanner(const QString& text)
{
    m_banner->setText(text);
    m_banner->setVisible(!text.isEmpty());
}

QString MainWindow::bannerText() const { return m_banner->isHidden() ? QString() : m_banner->text(); }

} // namespace dtsim::gui
