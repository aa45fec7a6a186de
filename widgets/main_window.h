#pragma once
// The dtsim window: parameters on the left, the dashboard on top, and tabs of views.
// It wires the document (scenario + undo) to the evaluator and the views; the views
// only draw what the engine returns.
#include "simcore/study/error_band.h"
#include "simcore/calibration.h"
#include "simcore/hardware.h"
#include "simcore/loader/model_catalogue_loader.h"
#include "simcore/loader/topology_loader.h"
#include "simcore/cost/cost.h"
#include "simcore/planner/frontier_anchors.h"
#include "simcore/reliability/reliability.h"

#include "autosave.h"
#include "frontier_tab.h"

#include "simcore/loader/lecture_loader.h"
#include "simcore/plan_check.h"
#include "simcore/report.h"

#include <QFont>
#include <QMainWindow>

#include <array>
#include <QTimer>

#include <functional>
#include <optional>
#include <vector>

class QDockWidget;
class QAction;
class QTabWidget;
class QLabel;
class QMenu;

namespace dtsim::gui {

class ScenarioDocument;
class ParameterPanel;
class Dashboard;
class Evaluator;
class FrontierView;
class FrontierTab;
class StaleNote;
class ScalingTab;
class BreakdownTab;
class PlansTab;
class TopologyTab;
class TimelineTab;
class ReliabilityTab;
class ClusterTab;
class WhatIfTab;
class CostTab;
class Autosave;
class TeachingPanel;

struct AppData {
    std::vector<HardwareSpec> catalog;
    Calibration calibration;
    QString presetsDir;
    std::vector<Topology> topologies;
    FailureRates failureRates;
    CostRates costRates;
    std::vector<FrontierAnchor> frontierAnchors; // Epoch AI's readings, drawn on the Frontier tab
    QString autosaveFolder; // "" : Autosave::defaultFolder()
    // The full report as JSON (the CLI's `simulate --json` document); supplied by the
    // app so the views do not depend on the command line. Empty: no JSON export.
    std::function<QByteArray(const Scenario&, const Report&)> reportJson;
    QString docsDir; // the manual (README.md and docs/), shipped with the package: Help opens it offline
    std::vector<Residual> residuals; // dtsim's errors on the published runs: the dashboard's error bands
    std::vector<CatalogueModel> models; // public models' dimensions (resources/models/catalogue.yaml)
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(AppData data, QWidget* parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString& path);     // false (and an inline error) on bad input
    // Side by side: pin the document as it stands as A and keep editing B; the dashboard
    // shows A's numbers and B's change, the Breakdown draws A in grey. `dtsim a.yaml
    // b.yaml` opens B with A pinned.
    bool pinAsA();                          // false when the document's plan is not valid
    void unpinA();
    bool openCompared(const QString& a, const QString& b);
    const std::optional<Scenario>& pinnedA() const { return m_pinnedA; }
    bool openPreset(const QString& name);
    bool saveTo(const QString& path);       // atomic
    bool selectTab(const QString& name);    // a name from tab_registry.cpp
    static std::vector<std::string> tabNames(); // the names selectTab takes, in tab order
    // Lecture scripts (docs/teaching.md): a shipped one by name (presets/lectures/), or a
    // file. Every step is checked when it opens; false with an inline error when one fails.
    bool openLecture(const QString& nameOrPath);
    bool showLectureStep(int index); // its preset, changes, view and caption
    void closeLecture();
    int lectureStep() const { return m_lectureIndex; } // -1: no lecture open
    const LectureScript& lecture() const { return m_lecture; }
    QStringList lectureNames() const; // the shipped scripts
    class LectureBar* lectureBar() const { return m_lectureBar; }
    QString openError() const { return m_openError; } // why the last file did not open (empty when it did)
    QStringList presetNames() const;
    static QString userPresetsDir(); // the user's own presets, listed after the shipped ones
    // Crash recovery: unsaved scenarios left by sessions that ended unexpectedly.
    std::vector<RecoverableScenario> recoverable() const;
    bool recover(const RecoverableScenario& r); // opens it as unsaved changes
    void offerRecovery();                      // a banner with Recover / Discard, if any
    Autosave* autosave() const { return m_autosave; }
    // Presentation: full screen, large fonts, only the chosen tabs (names as --tab).
    void setPresentationMode(bool on);
    bool setTheme(const QString& name, bool remember = true); // system, light, dark
    bool presentationMode() const { return m_presenting; }
    void setPresentationTabs(const QStringList& names);
    TeachingPanel* teachingPanel() const { return m_teaching; }
    QDockWidget* teachingDock() const { return m_teachingDock; }
    // Exports (File > Export); false with `error` set on failure. Every one is atomic.
    bool exportCurrentView(const QString& path, QString* error);   // .png, .svg, .pdf
    bool exportCurrentTables(const QString& path, QString* error); // CSV
    bool exportReport(const QString& path, QString* error);        // JSON
    bool exportTrace(const QString& path, QString* error);         // Chrome trace JSON
    bool exportScenario(const QString& path, QString* error);      // YAML, the document keeps its file

    // For tests and screenshots.
    ScenarioDocument* document() const { return m_doc; }
    class MeasurementImport* measurementImport() const { return m_import; }
    class FrameworkConfigImport* frameworkImport() const { return m_frameworkImport; }
    ParameterPanel* panel() const { return m_panel; }
    Dashboard* dashboard() const { return m_dashboard; }
    Evaluator* evaluator() const { return m_evaluator; }
    // The tabs by type (tab_registry.cpp makes them); null when there is none.
    template <typename T> T* tabOf() const;
    FrontierView* frontierView() const;
    PlansTab* plansTab() const;
    BreakdownTab* breakdownTab() const;
    TopologyTab* topologyTab() const;
    TimelineTab* timelineTab() const;
    ScalingTab* scalingTab() const;
    ReliabilityTab* reliabilityTab() const;
    ClusterTab* clusterTab() const;
    WhatIfTab* whatIfTab() const;
    CostTab* costTab() const;
    QString bannerText() const;
    bool hasFrontier() const;
    void flushPending(); // start debounced background work now

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void buildMenus(); // main_window_menus.cpp
    void addPresetMenu(QMenu* presets);
    void addExportMenu(QMenu* exports);
    void buildViewMenu();
    void addLectureMenu(QMenu* lectures);
    void shortcutsWorkWhilePresenting();
    void fitToScreen(); // onto the screen's available area, as far as the minimum size allows
    void makeRoomForTheDock(); // the formula panel opened: hide the parameters if both do not fit
public:
    // The size the caller gives is kept, larger than the screen or not (screenshots).
    void keepSizeOnShow() { m_fitted = true; }
private:
    // View updates (main_window_views.cpp). One report per edit feeds the dashboard and
    // the visible tab; the other tabs are brought up to date when shown.
    void refresh();            // after every document change
    // checkScenario's, then what needs the calibration (a loss target past the model's floor).
    std::optional<PlanIssue> scenarioIssue(const Scenario& s) const;
    void requestBackground();  // debounced: the visible tab's own analysis
    void showTab(int index, bool background); // bring a tab up to the current scenario
    void catchUpTab(int index);               // a tab was shown: update it if an edit passed it by
    void updateStaleNote();                   // the note over the shown tab, if its results are not the document's
    void applyField(const QString& id, double value, bool merge);
    void applyFix(const QString& id);
    void showBanner(const QString& text);
    void updateTitle();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    bool maybeSave();
    QString lecturesDir() const;
    Scenario lectureStepScenario(const LectureScript& script, const LectureStep& step, std::string* presetText = nullptr) const;
    std::string scenarioText() const; // what Save writes: the opened file's text, patched

    AppData m_data;
    ScenarioDocument* m_doc = nullptr;
    class MeasurementImport* m_import = nullptr;
    class FrameworkConfigImport* m_frameworkImport = nullptr;
    ParameterPanel* m_panel = nullptr;
    Dashboard* m_dashboard = nullptr;
    Evaluator* m_evaluator = nullptr;
    QTabWidget* m_tabs = nullptr;
    std::optional<Scenario> m_pinnedA;
    Report m_pinnedReport; // A's, while one is pinned
    Autosave* m_autosave = nullptr;
    TeachingPanel* m_teaching = nullptr;
    QDockWidget* m_teachingDock = nullptr;
    QAction* m_presentationAction = nullptr;
    std::vector<QAction*> m_presentationTabs;
    bool m_presenting = false;
    bool m_restyling = false;
    bool m_fitted = false; // fitted onto the screen at the first show
    QSize m_sizeBeforeDock;      // the window's size before the formula panel opened
    bool m_panelMadeRoom = false; // the parameters were hidden for the formula panel
    struct {
        QFont font;
        Qt::WindowStates state;
        bool panel = true, teaching = false;
    } m_beforePresentation;
    QLabel* m_banner = nullptr;
    class LectureBar* m_lectureBar = nullptr;
    LectureScript m_lecture;
    int m_lectureIndex = -1;
    QAction* m_nextStep = nullptr;     // Page Down, while a lecture is open
    QAction* m_previousStep = nullptr; // Page Up
    StaleNote* m_staleNote = nullptr; // over the shown tab while the plan is invalid
    QString m_openError; // why the last file did not open; kept beside a recovery offer
    struct OnDisk {
        std::string text;  // the file as opened or last saved ("" for a new scenario)
        Scenario scenario; // what it reads as
    } m_onDisk;
    QMenu* m_recentMenu = nullptr;
    QTimer m_debounce;
    Report m_report;       // the current scenario's, when m_currentValid
    std::vector<bool> m_tabStale; // per tab (as many as the tab bar has): shows an older scenario than the document's
    bool m_currentValid = false;
};

} // namespace dtsim::gui
