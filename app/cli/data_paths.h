#pragma once
// Where the shipped data lives: presets/, resources/hardware/, resources/calibration/.
#include <QString>

#include <string>

namespace dtsim::cli {

struct DataPaths {
    QString root;
    QString problem; // why a folder named by --data or DTSIM_DATA_DIR was not used (root is then empty)
    std::string hardwareDir() const;
    std::string calibrationFile() const;
    std::string presetsDir() const;
    std::string topologiesDir() const;
    std::string reliabilityFile() const;
    std::string anchorsFile() const; // Epoch AI's published frontier readings
    std::string residualsFile() const; // dtsim's errors on the published runs (error bands)
    std::string costFile() const;
    std::string modelCatalogueFile() const; // resources/models/catalogue.yaml
};

// Search order: --data DIR, $DTSIM_DATA_DIR, <bin>/../share/dtsim, the source tree.
// Returns an empty root when none holds resources/hardware. A folder the user names
// (--data, DTSIM_DATA_DIR) is used or refused, never passed over for another: `problem`
// then says which and why.
DataPaths findDataPaths(const QString& explicitDir);

} // namespace dtsim::cli
