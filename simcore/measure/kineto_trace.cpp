#include "kineto_trace.h"

#include "../input_error.h"
#include "json_reader.h"
#include "launching_op.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace dtsim {

namespace {

std::string lower(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// One traceEvents entry, the fields dtsim uses.
struct RawEvent {
    std::string ph, cat, name, collectiveName, dtype;
    double ts = 0, dur = -1;
    bool hasTs = false;
    int device = 0;
    long long stream = 0, correlation = -1;
    long long externalId = -1; // a CPU op's id, or the op a launch belongs to
    double nelems = -1;
    OpInputs inputs; // a cpu_op's record_shapes arguments
};

} // namespace

const char* kernelCategoryName(KernelCategory c)
{
    static const char* names[] = { "gemm", "attention", "convolution", "elementwise_norm", "optimizer", "communication", "memcpy", "memset", "other" };
    return names[int(c)];
}

KernelCategory classifyKernel(const std::string& kernelName)
{
    const std::string n = lower(kernelName);
    if (nameHas(n, "nccl"))
        return KernelCategory::Communication;
    if (nameHas(n, "multi_tensor_apply") || nameHas(n, "adam") || nameHas(n, "sgd") || nameHas(n, "lamb") || nameHas(n, "optimizer"))
        return KernelCategory::Optimizer;
    // cuDNN's fused attention (its SDPA kernels, cudnn_generated_fort_native_sdpa_*) and the
    // helpers of its backward (dO.O and the dQ conversion, cudnn::fusion::compute_dot_do_o,
    // convert_dq_to_16bits), as PyTorch 2.11 with cuDNN 9 launches them on Hopper.
    if (nameHas(n, "flash") || nameHas(n, "fmha") || nameHas(n, "attention") || nameHas(n, "attn") || nameHas(n, "sdpa") || nameHas(n, "dot_do_o")
        || nameHas(n, "convert_dq"))
        return KernelCategory::Attention;
    // cuBLAS's nvjet kernels (cuBLAS 12.6 and later on Hopper and Blackwell) and its split-K
    // reduction are GEMMs, before the convolution rules ("nvjet_sm90_tst_..._NNT").
    if (nameHas(n, "nvjet") || nameHas(n, "splitkreduce"))
        return KernelCategory::Gemm;
    // cuDNN's convolutions before GEMMs: many are implicit GEMMs ("xmma_fprop_implicit_gemm").
    if ((nameHas(n, "conv") && !nameHas(n, "convert")) || nameHas(n, "fprop") || nameHas(n, "dgrad") || nameHas(n, "wgrad") || nameHas(n, "winograd")
        || nameHas(n, "scudnn"))
        return KernelCategory::Convolution;
    if (nameHas(n, "gemm") || nameHas(n, "cutlass") || nameHas(n, "cublas") || nameHas(n, "matmul"))
        return KernelCategory::Gemm;
    if (nameHas(n, "elementwise") || nameHas(n, "vectorized") || nameHas(n, "norm") || nameHas(n, "bn_") || nameHas(n, "moments")
        || nameHas(n, "gammabeta") || nameHas(n, "reduce") || nameHas(n, "softmax") || nameHas(n, "dropout") || nameHas(n, "pool")
        || nameHas(n, "copy") || nameHas(n, "fill") || nameHas(n, "cat") || nameHas(n, "index") || nameHas(n, "scatter") || nameHas(n, "gather")
        || nameHas(n, "relu") || nameHas(n, "gelu") || nameHas(n, "silu") || nameHas(n, "embedding") || nameHas(n, "loss")
        || nameHas(n, "triton")) // Inductor's generated kernels: fused pointwise and reductions
        return KernelCategory::ElementwiseNorm;
    // What is left of cuDNN (layout transforms and offsets for its convolutions).
    if (nameHas(n, "cudnn") || nameHas(n, "cask"))
        return KernelCategory::Convolution;
    return KernelCategory::Other;
}

std::string collectiveType(const std::string& kernelName, const std::string& collectiveName)
{
    std::string n = lower(collectiveName.empty() ? kernelName : collectiveName);
    n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
    for (const char* t : { "allreduce", "allgather", "reducescatter", "alltoall", "sendrecv", "broadcast" })
        if (nameHas(n, t))
            return t;
    if (nameHas(n, "send") || nameHas(n, "recv"))
        return "sendrecv";
    if (nameHas(n, "reduce"))
        return "reduce";
    return collectiveName.empty() ? "other" : lower(collectiveName);
}

namespace {

// A number that must be a whole one in [lo, hi] (a device index, a rank, a stream id):
// out of range it is refused, not cast (a cast of 4e10 to int is undefined).
long long whole(const JsonReader& r, double v, const std::string& field, double lo, double hi)
{
    if (!(v >= lo && v <= hi) || v != std::floor(v))
        r.fail(field, "must be a whole number from " + std::to_string((long long)lo) + " to " + std::to_string((long long)hi));
    return static_cast<long long>(v);
}

constexpr double kMaxId = 9e15; // ids above 2^53 are not exact in the JSON double anyway
constexpr double kMaxTimestamp = 1e17;  // microseconds
constexpr double kMaxSpan = 86400e6;    // microseconds: a day, for one event and the whole trace
constexpr double kMaxElements = 1e15;   // a collective's message, in elements
constexpr double kMaxDeviceMemory = 1e15;

// record_shapes keeps at most this many inputs and dimensions an input that dtsim uses;
// more are read past (an op on a list of tensors has hundreds).
constexpr std::size_t kMaxInputs = 32, kMaxRank = 8;

// [[8, 16, 2048, 64], [], ...]: each input's shape (a scalar or a list: empty).
void readDims(JsonReader& r, std::vector<std::vector<double>>& dims, const std::string& field)
{
    for (JsonReader::Token t = r.next(); t != JsonReader::Token::EndArray; t = r.next()) {
        std::vector<double> shape;
        if (t == JsonReader::Token::BeginArray) {
            for (JsonReader::Token d = r.next(); d != JsonReader::Token::EndArray; d = r.next()) {
                if (d != JsonReader::Token::Number) { // a nested list (TensorList dims): not a shape
                    r.skip(d);
                    shape.clear();
                    continue;
                }
                if (!(r.number() >= 0 && r.number() <= 1e15))
                    r.fail(field, "a dimension must be from 0 to 1e15");
                if (shape.size() < kMaxRank)
                    shape.push_back(r.number());
            }
        } else {
            r.skip(t);
        }
        if (dims.size() < kMaxInputs)
            dims.push_back(std::move(shape));
    }
}

void readStrings(JsonReader& r, std::vector<std::string>& out)
{
    for (JsonReader::Token t = r.next(); t != JsonReader::Token::EndArray; t = r.next()) {
        std::string s = t == JsonReader::Token::String ? r.text() : std::string();
        r.skip(t);
        if (out.size() < kMaxInputs)
            out.push_back(std::move(s));
    }
}

void readArgs(JsonReader& r, RawEvent& e, const std::string& field)
{
    for (JsonReader::Token t = r.next(); t != JsonReader::Token::EndObject; t = r.next()) {
        const std::string key = r.text();
        const JsonReader::Token v = r.next();
        auto number = [&] {
            if (v != JsonReader::Token::Number)
                r.fail(field + ".args." + key, std::string("must be a number, not ") + jsonTokenName(v));
            return r.number();
        };
        if (key == "device")
            e.device = int(whole(r, number(), field + ".args.device", 0, 1 << 20));
        else if (key == "stream")
            e.stream = whole(r, number(), field + ".args.stream", -kMaxId, kMaxId);
        else if (key == "correlation")
            e.correlation = whole(r, number(), field + ".args.correlation", -kMaxId, kMaxId);
        else if (key == "External id" && v == JsonReader::Token::Number)
            e.externalId = whole(r, r.number(), field + ".args.External id", -kMaxId, kMaxId);
        else if (key == "Input Dims" && v == JsonReader::Token::BeginArray)
            readDims(r, e.inputs.dims, field + ".args.Input Dims");
        else if ((key == "Input type" || key == "Concrete Inputs") && v == JsonReader::Token::BeginArray)
            readStrings(r, key == "Input type" ? e.inputs.types : e.inputs.concrete);
        else if (key == "Collective name" && v == JsonReader::Token::String)
            e.collectiveName = r.text();
        else if (key == "dtype" && v == JsonReader::Token::String)
            e.dtype = r.text();
        else if (key == "In msg nelems" && v == JsonReader::Token::Number) {
            e.nelems = r.number();
            if (!(e.nelems >= 0 && e.nelems <= kMaxElements))
                r.fail(field + ".args.In msg nelems", "must be a count from 0 to 1e15 elements");
        }
        else
            r.skip(v);
    }
}

void readEvent(JsonReader& r, RawEvent& e, const std::string& field)
{
    for (JsonReader::Token t = r.next(); t != JsonReader::Token::EndObject; t = r.next()) {
        const std::string key = r.text();
        const JsonReader::Token v = r.next();
        if ((key == "ph" || key == "cat" || key == "name") && v == JsonReader::Token::String) {
            (key == "ph" ? e.ph : key == "cat" ? e.cat : e.name) = r.text();
        } else if (key == "ts" || key == "dur") {
            if (v != JsonReader::Token::Number)
                r.fail(field + "." + key, std::string("must be a number (microseconds), not ") + jsonTokenName(v));
            const double us = r.number();
            // Kineto's timestamps are microseconds since the epoch (about 1.7e15 today);
            // one event lasts at most the whole trace.
            if (key == "ts" && !(std::fabs(us) <= kMaxTimestamp))
                r.fail(field + ".ts", "is beyond any clock (at most 1e17 microseconds, the year 5138)");
            if (key == "dur" && us > kMaxSpan)
                r.fail(field + ".dur", "lasts more than a day: a profiler trace covers seconds to minutes");
            (key == "ts" ? e.ts : e.dur) = us;
            e.hasTs = e.hasTs || key == "ts";
        } else if (key == "args" && v == JsonReader::Token::BeginObject) {
            readArgs(r, e, field);
        } else {
            r.skip(v);
        }
    }
}

void readDeviceProperties(JsonReader& r, KinetoTrace& out)
{
    int index = 0;
    for (JsonReader::Token t = r.next(); t != JsonReader::Token::EndArray; t = r.next(), ++index) {
        if (t != JsonReader::Token::BeginObject)
            r.fail("deviceProperties[" + std::to_string(index) + "]", "must be an object");
        for (JsonReader::Token k = r.next(); k != JsonReader::Token::EndObject; k = r.next()) {
            const std::string key = r.text();
            const JsonReader::Token v = r.next();
            if (index > 0) { // the first device describes the trace's GPU
                r.skip(v);
                continue;
            }
            if (key == "name" && v == JsonReader::Token::String)
                out.deviceName = r.text();
            else if (key == "totalGlobalMem" && v == JsonReader::Token::Number) {
                out.deviceMemoryBytes = r.number();
                if (!(out.deviceMemoryBytes > 0 && out.deviceMemoryBytes <= kMaxDeviceMemory))
                    r.fail("deviceProperties[0].totalGlobalMem", "must be a memory size in bytes, above 0 and at most 1e15 (1 PB)");
            }
            else if (key == "computeMajor" && v == JsonReader::Token::Number)
                out.computeMajor = int(whole(r, r.number(), "deviceProperties[0].computeMajor", 0, 1000));
            else if (key == "computeMinor" && v == JsonReader::Token::Number)
                out.computeMinor = int(whole(r, r.number(), "deviceProperties[0].computeMinor", 0, 1000));
            else
                r.skip(v);
        }
    }
}

void readDistributedInfo(JsonReader& r, KinetoTrace& out)
{
    for (JsonReader::Token k = r.next(); k != JsonReader::Token::EndObject; k = r.next()) {
        const std::string key = r.text();
        const JsonReader::Token v = r.next();
        if (key == "rank" && v == JsonReader::Token::Number)
            out.rank = int(whole(r, r.number(), "distributedInfo.rank", -1, 1 << 30));
        else if (key == "world_size" && v == JsonReader::Token::Number)
            out.worldSize = int(whole(r, r.number(), "distributedInfo.world_size", 0, 1 << 30));
        else if (key == "backend" && v == JsonReader::Token::String)
            out.backend = r.text();
        else
            r.skip(v);
    }
}

void keep(const RawEvent& e, KinetoTrace& out, JsonReader& r, const std::string& field)
{
    if (e.ph != "X")
        return; // instants, flows and metadata carry no GPU time
    const bool gpu = e.cat == "kernel" || e.cat == "gpu_memcpy" || e.cat == "gpu_memset";
    // One step per ProfilerStep#N: the profiler writes each twice, as the CPU's range and
    // again on the GPU's timeline (`gpu_user_annotation`); the CPU's is the step.
    const bool step = e.name.rfind("ProfilerStep#", 0) == 0 && e.cat != "gpu_user_annotation";
    const bool launch = (e.cat == "cuda_runtime" || e.cat == "cuda_driver") && e.correlation >= 0;
    const bool op = e.cat == "cpu_op" && e.externalId >= 0;
    if (!gpu && !step && !launch && !op)
        return;
    if (!e.hasTs)
        r.fail(field + ".ts", "is missing");
    if (op) {
        LaunchingOp& o = out.ops[e.externalId];
        o.name = out.opName(e.name);
        const OpCost cost = costOfOp(e.name, e.inputs);
        o.flops = cost.flops;
        o.inputBytes = cost.inputBytes;
        return;
    }
    if (launch) {
        out.launchTime[e.correlation] = e.ts * 1e-6;
        if (e.externalId >= 0)
            out.launchOp[e.correlation] = e.externalId;
        return;
    }
    if (e.dur < 0)
        r.fail(field + ".dur", e.dur == -1 ? "is missing" : "must not be negative");
    if (step) {
        out.steps.push_back({ e.name, e.ts * 1e-6, e.dur * 1e-6 });
        return;
    }
    GpuActivity a;
    a.start = e.ts * 1e-6;
    a.duration = e.dur * 1e-6;
    a.device = e.device;
    a.stream = e.stream;
    a.correlation = e.correlation;
    a.category = e.cat == "gpu_memcpy" ? KernelCategory::Memcpy : e.cat == "gpu_memset" ? KernelCategory::Memset : classifyKernel(e.name);
    if (a.category == KernelCategory::Communication) {
        a.collective = collectiveType(e.name, e.collectiveName);
        if (e.nelems >= 0 && dtypeBytes(e.dtype) > 0)
            a.bytes = e.nelems * dtypeBytes(e.dtype);
    }
    out.gpu.push_back(std::move(a));
}

// Each kernel to the CPU op that launched it (its launch's External id), and its
// category from that op where the op says one: a cuBLAS nvjet kernel launched by aten::mm
// is a GEMM, a cuDNN helper launched by the attention backward is attention.
void attributeKernels(KinetoTrace& t)
{
    for (GpuActivity& a : t.gpu) {
        const auto launch = t.launchOp.find(a.correlation);
        if (launch == t.launchOp.end())
            continue;
        const auto op = t.ops.find(launch->second);
        if (op == t.ops.end())
            continue;
        a.op = launch->second;
        if (a.category == KernelCategory::Memcpy || a.category == KernelCategory::Memset
            || a.category == KernelCategory::Communication)
            continue;
        if (const auto c = categoryOfOp(t.opNames[std::size_t(op->second.name)]))
            a.category = *c;
    }
}

// The GPU's activities and the steps together span at most a day: timestamps of events
// from different clocks or centuries apart would print spans of years.
void checkSpan(const KinetoTrace& t, const JsonReader& r)
{
    double first = INFINITY, last = -INFINITY;
    for (const GpuActivity& a : t.gpu) {
        first = std::min(first, a.start);
        last = std::max(last, a.start + a.duration);
    }
    for (const ProfilerStep& st : t.steps) {
        first = std::min(first, st.start);
        last = std::max(last, st.start + st.duration);
    }
    if (last - first > kMaxSpan * 1e-6)
        r.fail("traceEvents", "the events span " + std::to_string((last - first) / 86400) + " days: a profiler trace covers seconds "
            "to minutes (are two clocks mixed in one file?)");
}

} // namespace

KinetoTrace readKinetoTrace(const std::string& path, const std::function<bool(double)>& progress)
{
    CompressedFile file(path);
    JsonReader r(file);
    KinetoTrace out;
    out.file = path;
    // The events of the list just opened (traceEvents, or the whole document).
    auto readEvents = [&]() {
        for (JsonReader::Token e = r.next(); e != JsonReader::Token::EndArray; e = r.next(), ++out.events) {
            const std::string field = "traceEvents[" + std::to_string(out.events) + "]";
            if (e != JsonReader::Token::BeginObject)
                r.fail(field, "must be an object");
            RawEvent raw;
            try {
                readEvent(r, raw, field);
            } catch (const InputError& e) {
                if (!e.field().empty())
                    throw;
                throw InputError(e.where(), e.line(), field, e.reason()); // which event, for the grammar's errors too
            }
            keep(raw, out, r, field);
            if (progress && out.events % 65536 == 0
                && !progress(double(file.compressedBytesRead()) / double(std::max<std::size_t>(1, file.fileSize()))))
                throw InputError(path, 0, "", "reading cancelled");
        }
    };
    bool sawEvents = false;
    const JsonReader::Token top = r.next();
    if (top == JsonReader::Token::BeginArray) {
        // The Trace Event Format's JSON Array Format: the events alone, as PyTorch's
        // profiler writes them when built without Kineto (Debian's python3-torch).
        sawEvents = true;
        readEvents();
    } else if (top != JsonReader::Token::BeginObject) {
        r.fail("", "not a profiler trace: expected a JSON object with traceEvents, or a list of events");
    } else {
        for (JsonReader::Token t = r.next(); t != JsonReader::Token::EndObject; t = r.next()) {
            const std::string key = r.text();
            const JsonReader::Token v = r.next();
            if (key == "traceEvents") {
                if (v != JsonReader::Token::BeginArray)
                    r.fail("traceEvents", "must be a list");
                sawEvents = true;
                readEvents();
            } else if (key == "deviceProperties" && v == JsonReader::Token::BeginArray) {
                readDeviceProperties(r, out);
            } else if (key == "distributedInfo" && v == JsonReader::Token::BeginObject) {
                readDistributedInfo(r, out);
            } else {
                r.skip(v);
            }
        }
    }
    if (r.next() != JsonReader::Token::End)
        r.fail("", "not JSON: text after the end of the document");
    if (!sawEvents)
        r.fail("traceEvents", "is missing: not a profiler trace");
    attributeKernels(out);
    if (out.rank >= 0 && out.worldSize > 0 && out.rank >= out.worldSize)
        r.fail("distributedInfo.rank", "rank " + std::to_string(out.rank) + " of a world of " + std::to_string(out.worldSize)
            + ": ranks count from 0 to world_size - 1");
    checkSpan(out, r);
    return out;
}

} // namespace dtsim
