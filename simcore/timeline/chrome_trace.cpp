#include "trace.h"

#include <cstdio>
#include <string>

namespace dtsim {

const char* taskKindName(TaskKind k)
{
    switch (k) {
    case TaskKind::Forward: return "forward";
    case TaskKind::Backward: return "backward";
    case TaskKind::Recompute: return "recompute";
    case TaskKind::WeightGrad: return "weight gradient";
    case TaskKind::PipelineSend: return "pipeline send";
    case TaskKind::LayerCollective: return "in-layer collective";
    case TaskKind::DataParallel: return "data-parallel sync";
    case TaskKind::Optimizer: return "optimizer";
    case TaskKind::Overhead: return "overhead";
    case TaskKind::Checkpoint: return "checkpoint";
    case TaskKind::Compute: return "compute";
    case TaskKind::BarrierWait: return "waiting for the slowest rank";
    }
    return "?";
}

const char* streamName(Stream s)
{
    switch (s) {
    case Stream::Compute: return "compute";
    case Stream::LayerComm: return "in-layer collectives";
    case Stream::PipelineComm: return "pipeline comm";
    case Stream::DataParallelComm: return "data-parallel comm";
    }
    return "?";
}

namespace {
// A JSON string body: quotes and backslashes escaped, control characters as \u00XX
// (RFC 8259, Sec. 7: they may not appear raw).
void appendEscaped(std::string& out, const std::string& s)
{
    static const char hex[] = "0123456789abcdef";
    for (char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (u < 0x20) {
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 15];
            continue;
        }
        if (ch == '"' || ch == '\\')
            out += '\\';
        out += ch;
    }
}
} // namespace

bool writeChromeTrace(const Trace& t, const std::function<bool(std::string_view)>& sink)
{
    // Pieces of about 1 MB: few calls, little memory.
    std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
    out.reserve(1 << 20);
    auto flush = [&](bool force) {
        if (!force && out.size() < (1u << 20))
            return true;
        const bool ok = sink(out);
        out.clear();
        return ok;
    };
    char buf[512];
    bool first = true;
    auto comma = [&] {
        if (!first)
            out += ",\n";
        first = false;
    };
    for (int row = 0; row < int(t.rowNames.size()); ++row) {
        comma();
        out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + std::to_string(row) + ",\"tid\":0,\"args\":{\"name\":\"";
        appendEscaped(out, t.rowNames[row]);
        out += "\"}}";
        for (int st = 0; st < kStreamCount; ++st) {
            comma();
            std::snprintf(buf, sizeof buf, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
                row, st, streamName(Stream(st)));
            out += buf;
        }
        if (!flush(false))
            return false;
    }
    for (const TraceEvent& e : t.events) {
        comma();
        std::snprintf(buf, sizeof buf,
            "{\"name\":\"%s%s\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"microbatch\":%d,\"chunk\":%d,\"step\":%d,\"bytes\":%.0f}}",
            taskKindName(e.kind), e.microbatch >= 0 ? (" mb" + std::to_string(e.microbatch)).c_str() : "",
            taskKindName(e.kind), e.start * 1e6, e.duration * 1e6, e.row, int(e.stream), e.microbatch, e.chunk, e.step, e.bytes);
        out += buf;
        if (!flush(false))
            return false;
    }
    out += "\n]}\n";
    return flush(true);
}

std::string toChromeTrace(const Trace& t)
{
    std::string all;
    writeChromeTrace(t, [&](std::string_view piece) {
        all += piece;
        return true;
    });
    return all;
}

} // namespace dtsim
