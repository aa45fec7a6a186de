#include "data_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <utility>

namespace dtsim::cli {

std::string DataPaths::hardwareDir() const { return QDir(root).filePath("resources/hardware").toStdString(); }
std::string DataPaths::calibrationFile() const
{
    return QDir(root).filePath("resources/calibration/default.yaml").toStdString();
}
std::string DataPaths::presetsDir() const { return QDir(root).filePath("presets").toStdString(); }
std::string DataPaths::topologiesDir() const { return QDir(root).filePath("resources/topologies").toStdString(); }
std::string DataPaths::modelCatalogueFile() const { return QDir(root).filePath("resources/models/catalogue.yaml").toStdString(); }
std::string DataPaths::costFile() const { return QDir(root).filePath("resources/cost/cost.yaml").toStdString(); }
std::string DataPaths::reliabilityFile() const { return QDir(root).filePath("resources/reliability/reliability.yaml").toStdString(); }
std::string DataPaths::anchorsFile() const { return QDir(root).filePath("resources/anchors/epoch.yaml").toStdString(); }
std::string DataPaths::residualsFile() const { return QDir(root).filePath("resources/validation/residuals.yaml").toStdString(); }

namespace {

bool holdsData(const QString& dir) { return QFileInfo(QDir(dir).filePath("resources/hardware")).isDir(); }

} // namespace

DataPaths findDataPaths(const QString& explicitDir)
{
    // Named by the user: that folder or nothing.
    for (const auto& [named, origin] : { std::pair { explicitDir, QString("--data") },
             std::pair { qEnvironmentVariable("DTSIM_DATA_DIR"), QString("DTSIM_DATA_DIR") } }) {
        if (named.isEmpty())
            continue;
        if (holdsData(named))
            return { QDir(named).absolutePath(), {} };
        return { {}, QString("%1: \"%2\" %3").arg(origin, named,
                         QFileInfo(named).isDir() ? "holds no resources/hardware: it is not dtsim's data folder (the one with presets/ and resources/)"
                                                  : "is not a folder") };
    }
    QStringList candidates;
    candidates << QDir(QCoreApplication::applicationDirPath()).filePath("../share/dtsim");
    candidates << QStringLiteral(DTSIM_SOURCE_DATA_DIR);
    for (const QString& c : candidates) {
        if (holdsData(c))
            return { QDir(c).absolutePath(), {} };
    }
    return {};
}

} // namespace dtsim::cli
