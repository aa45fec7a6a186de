#pragma once
// File > Import framework config: a Hugging Face config.json, a Megatron-LM launch
// script, a torchtitan TOML, a DeepSpeed JSON or a NeMo recipe (several at once) applied
// to the open scenario as one undo step; what dtsim cannot express is listed.
#include "simcore/hardware.h"
#include "simcore/loader/model_catalogue_loader.h"
#include "simcore/loader/topology_loader.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

class QWidget;

namespace dtsim::gui {

class ScenarioDocument;

class FrameworkConfigImport : public QObject {
    Q_OBJECT
public:
    FrameworkConfigImport(ScenarioDocument* doc, const std::vector<HardwareSpec>* hardware, const std::vector<Topology>* topologies,
        const std::vector<CatalogueModel>* models, QWidget* parent);
    void chooseAndImport();
    // Applies `files` to the open scenario. Returns the summary shown (or the error);
    // `interactive` false: no dialog (tests).
    QString importFiles(const QStringList& files, bool interactive);
    bool lastFailed() const { return m_failed; }

private:
    ScenarioDocument* m_doc;
    const std::vector<HardwareSpec>* m_hardware;
    const std::vector<Topology>* m_topologies;
    const std::vector<CatalogueModel>* m_models;
    QWidget* m_parent;
    bool m_failed = false;
};

} // namespace dtsim::gui
