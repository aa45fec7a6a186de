#include "data_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace dtsim::cli {

std::string DataPaths::hardwareDir() const { return QDir(root).filePath("resources/hardware").toStdString(); }
std::string DataPaths::calibrationFile() const
{
    return QDir(root).filePath("resources/calibration/default.yaml").toStdString();
}
std::string DataPaths::presetsDir() const { return QDir(root).filePath("presets").toStdString(); }
std::string DataPaths::topologiesDir() const { return QDir(root).filePath("resources/topologies").toStdString(); }
std::string DataPaths::costFile() const { return QDir(root).filePath("resources/cost/cost.yaml").toStdString(); }
std::string DataPaths::reliabilityFile() const { return QDir(root).filePath("resources/reliability/reliability.yaml").toStdString(); }
std::string DataPaths::anchorsFile() const { return QDir(root).filePath("resources/anchors/epoch.yaml").toStdString(); }
std::string DataPaths::residualsFile() const { return QDir(root).filePath("resources/validation/residuals.yaml").toStdString(); }

DataPaths findDataPaths(const QString& explicitDir)
{
    QStringList candidates;
    if (!explicitDir.isEmpty())
        candidates << explicitDir;
    const QString env = qEnvironmentVariable("DTSIM_DATA_DIR");
    if (!env.isEmpty())
        candidates << env;
    candidates << QDir(QCoreApplication::applicationDirPath()).filePath("../share/dtsim");
    candidates << QStringLiteral(DTSIM_SOURCE_DATA_DIR);
    for (const QString& c : candidates) {
        if (QFileInfo(QDir(c).filePath("resources/hardware")).isDir())
            return { QDir(c).absolutePath() };
    }
    return {};
}

} // namespace dtsim::cli
