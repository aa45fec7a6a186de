#pragma once
// Every tab of the main window, in tab-bar order: its name (`dtsim --tab`, lecture
// scripts, the presentation's choices), its title, and how to make it. The tab bar,
// the View menu's Ctrl+1..0 shortcuts, the presentation's tab list, `--tab`'s help and
// the window's stale flags are all built from this one list (widgets/README.md: "How to
// add a tab").
#include <QString>

#include <vector>

class QWidget;

namespace dtsim::gui {

class Evaluator;
class ScenarioDocument;
struct AppData;

// What a tab may be built with.
struct TabServices {
    Evaluator* evaluator;
    ScenarioDocument* document;
    const AppData& data;
};

struct TabEntry {
    const char* name;  // lower case, one word
    const char* title; // the tab bar's, translated in MainWindow's context
    QWidget* (*make)(const TabServices& services, QWidget* parent); // a QWidget that is a TabPage
};

const std::vector<TabEntry>& tabRegistry();
QString tabTitle(const TabEntry& e); // translated
QString tabNameList();               // "frontier, scaling, ...", for help and errors

} // namespace dtsim::gui
