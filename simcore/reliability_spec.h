#pragma once
// What the user says about failures and checkpoints: storage, checkpoint policy,
// mitigations and injected chaos events. Plain values, read from the scenario's
// optional `reliability:` section; the defaults come from resources/reliability.
#include <string>
#include <vector>

namespace dtsim {

// An injected event ("at day 12 lose switch leaf-7", "from day 3 GPU 1042 runs 15%
// slow", "checkpoint at day 20 is corrupt").
struct ChaosEvent {
    enum class Kind { Failure, Straggler, CorruptCheckpoint };
    Kind kind = Kind::Failure;
    double atSeconds = 0; // of wall-clock time since the run started
    double slowdown = 0;  // straggler: fractional step slowdown from then on
    std::string target;   // what it hits, for labels ("switch leaf-7", "gpu 1042")

    bool operator==(const ChaosEvent&) const = default;
};

const char* chaosKindName(ChaosEvent::Kind k);

enum class LinkLevel { ScaleUp, ScaleOut };

struct ReliabilitySpec {
    // Storage, aggregate over the job; 0 means the per-GPU default times the GPUs.
    double storageWriteBandwidth = 0;
    double storageReadBandwidth = 0;
    bool asyncCheckpoint = false;      // snapshot to host memory, flush in the background
    double stagingBandwidth = 0;       // per GPU, device to host; 0: the default
    double checkpointInterval = 0;     // seconds of wall clock; 0: Young's optimum
    bool spares = true;                // hot spares: replace a node in minutes, not hours
    double stragglerSlowdown = 0;      // one GPU slower by this fraction slows every step
    bool backupWorkers = false;        // mitigation: extra ranks, drop the slowest each step
    double degradedLinkFraction = 1;   // one link at this share of its bandwidth
    LinkLevel degradedLinkLevel = LinkLevel::ScaleOut;
    std::vector<ChaosEvent> chaos;
    // The run's own failure rates and recovery phases, over resources/reliability's:
    // mean time between failures of one unit (a GPU, a host, a GPU's NIC, its switch or
    // cable path per level, its software stack) and the phases of a restart. 0: shipped.
    double mtbfGpu = 0, mtbfHost = 0, mtbfNic = 0, mtbfSwitchOrCable = 0, mtbfSoftware = 0;
    double drain = 0, provision = 0, reinit = 0;

    bool operator==(const ReliabilitySpec&) const = default;
};

} // namespace dtsim
