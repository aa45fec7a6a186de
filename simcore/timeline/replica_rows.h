#pragma once
// The data-parallel replicas of a few steps, row by row, for teaching what per-step jitter
// costs: each replica computes for a time drawn around the step's compute (cluster.jitter
// as the coefficient of variation), waits at the gradient reduction's barrier for the
// slowest replica, then all-reduces. The mean stretch of the barrier over the nominal
// compute is what the step model's straggler term charges (stragglers.h), here sampled.
#include "../report.h"
#include "../scenario.h"
#include "trace.h"

#include <vector>

namespace dtsim {

struct ReplicaRowsInput {
    double compute = 0;            // seconds of compute one replica does per step, without jitter
    double allReduce = 0;          // seconds of gradient reduction after the barrier
    long long replicas = 1;        // the data-parallel degree
    long long ranksPerReplica = 1; // GPUs in one replica (TP x PP x CP): the slowest of them paces it
    double jitter = 0;             // cluster.jitter: each rank's compute CV
    int steps = 3;
    unsigned long long seed = 1;   // the same seed draws the same rows
    int maxRows = 8;               // rows drawn at most
};

// The step report's compute (forward, backward, recomputation: what jitter stretches) and
// exposed data-parallel reduction, with the scenario's degrees and jitter.
ReplicaRowsInput replicaRowsInput(const Scenario& s, const StepReport& st, int steps);

enum class ReplicaPhase { Compute, Wait, AllReduce };

struct ReplicaSegment {
    int row = 0;
    int step = 0;
    ReplicaPhase phase = ReplicaPhase::Compute;
    double start = 0; // seconds from the first step's start
    double duration = 0;
};

struct ReplicaRows {
    long long replicas = 1;
    long long ranksPerReplica = 1;
    int shownReplicas = 0;   // replicas 0..shownReplicas-1 have a row each
    bool restRow = false;    // and one last row stands for the others: the slowest of them each step
    int rows() const { return shownReplicas + (restRow ? 1 : 0); }
    std::vector<ReplicaSegment> segments; // by step, then row, then phase
    std::vector<double> stretch;          // per step: barrier / nominal compute - 1
    double expectedStretch = 0;           // the step model's: cv x E[max of replicas x ranks normals]
    double totalTime = 0;
    double meanStretch() const;
    double meanWait() const; // over the drawn rows and steps, seconds
};

// Draws the rows. Every replica is sampled (the barrier waits for the slowest of all of
// them), in O(rows x steps): a replica of m ranks takes the largest of m normal draws,
// and the rest row the largest of the others', each drawn exactly by inverting the CDF
// of a maximum, Phi(z)^m.
ReplicaRows simulateReplicaRows(const ReplicaRowsInput& in);

// The rows as a trace the Gantt view draws: one row per replica, compute, barrier wait
// and data-parallel reduction on the compute stream.
Trace replicaTrace(const ReplicaRows& r);

} // namespace dtsim
