#pragma once
// A timeline of one or more training steps: bars on rows (pipeline stages, or each
// rank of a stage's TP group) and streams (compute, pipeline sends, data-parallel).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dtsim {

// Compute and BarrierWait: a data-parallel replica's whole step of compute, and its wait
// for the slowest replica at the gradient reduction (replica_rows.h).
enum class TaskKind { Forward, Backward, Recompute, WeightGrad, PipelineSend, LayerCollective, DataParallel, Optimizer, Overhead, Checkpoint,
    Compute, BarrierWait };
const char* taskKindName(TaskKind k);

enum class Stream { Compute = 0, LayerComm = 1, PipelineComm = 2, DataParallelComm = 3 };
inline constexpr int kStreamCount = 4;
const char* streamName(Stream s);

struct TraceEvent {
    double start = 0;    // seconds from the start of the trace
    double duration = 0;
    int row = 0;         // stage (or stage x TP rank with per-rank rows)
    Stream stream = Stream::Compute;
    TaskKind kind = TaskKind::Forward;
    int microbatch = -1;
    int chunk = 0;       // virtual stage
    int step = 0;
    double bytes = 0;
    long long seq = 0;   // the place in the trace: events sort by (start, seq)
};

struct Trace {
    std::vector<TraceEvent> events; // by start, then row (seq numbers this order)
    std::vector<std::string> rowNames;
    double stepTime = 0;  // of the first step
    double totalTime = 0; // of all steps
    int stages = 1;
    int ranksPerStage = 1;
    std::vector<char> critical; // per event, 1 on the critical path (criticalPath); empty until computed
};

// Chrome Trace Event JSON ({"traceEvents": [...]}, microseconds), for Perfetto and
// chrome://tracing: one process per row, one thread per stream, named by metadata.
// Streamed to `sink` a piece at a time (a false from the sink stops the writing and is
// returned), so a large trace is never held twice in memory.
bool writeChromeTrace(const Trace& t, const std::function<bool(std::string_view)>& sink);
std::string toChromeTrace(const Trace& t);

} // namespace dtsim
