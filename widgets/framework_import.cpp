#include "framework_import.h"

#include "scenario_document.h"

#include "simcore/frameworks/import_scenario.h"
#include "simcore/input_error.h"
#include "simcore/loader/scenario_writer.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace dtsim::gui {

FrameworkConfigImport::FrameworkConfigImport(ScenarioDocument* doc, const std::vector<HardwareSpec>* hardware,
    const std::vector<Topology>* topologies, const std::vector<CatalogueModel>* models, QWidget* parent)
    : QObject(parent)
    , m_doc(doc)
    , m_hardware(hardware)
    , m_topologies(topologies)
    , m_models(models)
    , m_parent(parent)
{
}

void FrameworkConfigImport::chooseAndImport()
{
    const QStringList files = QFileDialog::getOpenFileNames(m_parent, tr("Import framework configuration"), QString(),
        tr("Framework configurations (*.json *.toml *.yaml *.yml *.sh);;All files (*)"));
    if (!files.isEmpty())
        importFiles(files, true);
}

QString FrameworkConfigImport::importFiles(const QStringList& files, bool interactive)
{
    QString summary;
    m_failed = false;
    try {
        std::vector<std::string> paths;
        for (const QString& f : files)
            paths.push_back(f.toStdString());
        const dtsim::FrameworkImport imp = importFrameworkFiles(paths, {});
        ImportInputs in;
        Scenario base = m_doc->scenario();
        base.calibration = {}; // read beside the scenario's file; put back below
        in.baseText = scenarioToYaml(base);
        in.baseOrigin = m_doc->path().isEmpty() ? "the open scenario" : m_doc->path().toStdString();
        in.hardware = m_hardware;
        in.topologies = m_topologies;
        in.models = m_models;
        Scenario imported = importedScenario(imp, in);
        // What the scenario file refers to beside itself (an overlay) stays as it was.
        imported.calibration = m_doc->scenario().calibration;
        m_doc->edit("import", [imported](Scenario& s) { s = imported; }, false);
        QStringList names;
        for (const QString& f : files)
            names << QFileInfo(f).fileName();
        summary = tr("%1 settings from %2; %3 values not expressed.").arg(imp.settings.size()).arg(names.join(", ")).arg(imp.notes.size());
        QString details = QString::fromStdString(importReport(imp));
        details.replace("#   ", "  ").replace("# ", "");
        if (interactive) {
            QMessageBox box(QMessageBox::Information, tr("Import framework configuration"), summary, QMessageBox::Close, m_parent);
            box.setInformativeText(tr("Undo (Ctrl+Z) takes the whole import back. The details list each value's file and line, "
                                      "and what dtsim cannot express."));
            box.setDetailedText(details);
            box.exec();
        }
        return summary + "\n" + details;
    } catch (const InputError& e) {
        m_failed = true;
        summary = QString::fromStdString(e.what());
        if (interactive)
            QMessageBox::warning(m_parent, tr("Import framework configuration"),
                tr("Nothing was imported:\n%1").arg(summary));
        return summary;
    }
}

} // namespace dtsim::gui
