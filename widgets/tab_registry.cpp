#include "tab_registry.h"

#include "breakdown_tab.h"
#include "cluster_tab.h"
#include "cost_tab.h"
#include "frontier_tab.h"
#include "main_window.h"
#include "plans_tab.h"
#include "reliability_tab.h"
#include "scaling_tab.h"
#include "timeline_tab.h"
#include "topology_tab.h"
#include "whatif_tab.h"

#include <QCoreApplication>

namespace dtsim::gui {

const std::vector<TabEntry>& tabRegistry()
{
    static const std::vector<TabEntry> tabs {
        { "frontier", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Frontier"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                return new FrontierTab(s.evaluator, s.data.frontierAnchors, parent);
            } },
        { "scaling", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Scaling"),
            [](const TabServices& s, QWidget* parent) -> QWidget* { return new ScalingTab(s.evaluator, parent); } },
        { "breakdown", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Breakdown"),
            [](const TabServices&, QWidget* parent) -> QWidget* { return new BreakdownTab(parent); } },
        { "plans", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Best plans"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                auto* plans = new PlansTab(s.evaluator, parent);
                plans->setModelCatalogue(s.data.models, s.data.catalog);
                return plans;
            } },
        { "topology", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Topology"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                return new TopologyTab(s.document, s.data.topologies, parent);
            } },
        { "timeline", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Timeline"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                return new TimelineTab(s.evaluator, s.data.failureRates, parent);
            } },
        { "reliability", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Reliability"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                return new ReliabilityTab(s.evaluator, s.data.failureRates, s.document, parent);
            } },
        { "cost", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Cost"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                return new CostTab(s.evaluator, s.data.catalog, s.data.failureRates, s.data.costRates, parent);
            } },
        { "cluster", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "Cluster"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                return new ClusterTab(s.evaluator, s.data.failureRates, s.data.costRates, parent);
            } },
        { "whatif", QT_TRANSLATE_NOOP("dtsim::gui::MainWindow", "What if"),
            [](const TabServices& s, QWidget* parent) -> QWidget* {
                return new WhatIfTab(s.evaluator, s.data.catalog, parent);
            } },
    };
    return tabs;
}

QString tabTitle(const TabEntry& e) { return QCoreApplication::translate("dtsim::gui::MainWindow", e.title); }

QString tabNameList()
{
    QStringList names;
    for (const TabEntry& e : tabRegistry())
        names << e.name;
    return names.join(", ");
}

} // namespace dtsim::gui
