#include "published_runs_loader.h"

#include "read_file.h"
#include "yaml_reader.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <regex>

namespace dtsim {

namespace {

// Tolerant reads: the schema allows null anywhere, and numbers may be quoted. But a
// number that is stated must be one: NaN, infinity or a negative count is refused with
// its line, never carried into a prediction as "nan%".
std::optional<double> parsedNumber(const YAML::Node& n)
{
    if (!n || !n.IsScalar() || n.Scalar().empty() || n.Scalar() == "null" || n.Scalar() == "~")
        return std::nullopt;
    const std::string& s = n.Scalar();
    // YAML's own spellings of the non-numbers, so that they are refused, not ignored.
    for (const char* special : { ".inf", ".Inf", ".INF", "+.inf", "-.inf", "-.Inf", ".nan", ".NaN", ".NAN" })
        if (s == special)
            return s.find("nan") != std::string::npos || s.find("NaN") != std::string::npos || s.find("NAN") != std::string::npos
                ? std::numeric_limits<double>::quiet_NaN()
                : (s[0] == '-' ? -1 : 1) * std::numeric_limits<double>::infinity();
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

class RunReader {
public:
    RunReader(YamlReader& r, std::string where) : r(r), where(std::move(where)) {}

    std::optional<double> number(const YAML::Node& n, const std::string& field) const
    {
        const auto v = parsedNumber(n);
        if (v && (!std::isfinite(*v) || *v < 0))
            r.fail(n, where + "." + field, "\"" + n.Scalar() + "\" is not a measurement (a finite, non-negative number, or null)");
        return v;
    }

    // Whole numbers; text such as "VP=12" or "12 (per README)" gives its first one.
    // `positive`: 0 is no size for this field (write null when it is not known).
    std::optional<int> integer(const YAML::Node& n, const std::string& field, bool positive = false) const
    {
        auto v = number(n, field);
        if (!v && n && n.IsScalar()) {
            static const std::regex firstInt(R"((\d+))");
            std::smatch m;
            const std::string& s = n.Scalar();
            if (std::regex_search(s, m, firstInt) && m[1].length() <= 10)
                v = std::stod(m[1]);
        }
        if (!v || *v > 2e9 || double(int(*v)) != *v)
            return std::nullopt;
        if (positive && *v < 1)
            r.fail(n, where + "." + field, "must be at least 1 (write null when it is not known)");
        return int(*v);
    }

private:
    YamlReader& r;
    std::string where;
};

std::optional<bool> flag(const YAML::Node& n)
{
    if (!n || !n.IsScalar())
        return std::nullopt;
    const std::string& s = n.Scalar();
    if (s == "true" || s == "yes")
        return true;
    if (s == "false" || s == "no")
        return false;
    return std::nullopt;
}

std::string scalarText(const YAML::Node& n)
{
    if (!n || n.IsNull())
        return {};
    if (n.IsScalar())
        return n.Scalar();
    YAML::Emitter e;
    e << YAML::Flow << n;
    return e.c_str();
}

YAML::Node section(const YAML::Node& record, const char* key)
{
    YAML::Node n = record[key];
    return n && n.IsMap() ? n : YAML::Node(YAML::NodeType::Map);
}

} // namespace

std::vector<RunRecord> loadPublishedRuns(const std::string& path)
{
    return loadPublishedRunsText(readTextFile(path, "published-runs file"), path);
}

std::vector<RunRecord> loadPublishedRunsText(const std::string& content, const std::string& origin)
{
    YamlReader r(origin);
    const YAML::Node root = r.parse(content);
    if (!root.IsSequence())
        r.fail(root, "(top level)", "expected a list of runs");
    std::vector<RunRecord> out;
    out.reserve(root.size());
    for (std::size_t i = 0; i < root.size(); ++i) {
        const YAML::Node n = root[i];
        const std::string where = "[" + std::to_string(i) + "]";
        if (!n.IsMap())
            r.fail(n, where, "each run must be a mapping");
        RunRecord rec;
        rec.line = n.Mark().line + 1;
        const RunReader read(r, where);
        if (!n["id"] || !n["id"].IsScalar())
            r.fail(n, where + ".id", "every run needs an id");
        rec.id = n["id"].Scalar();
        rec.quality = scalarText(n["quality"]);
        rec.framework = scalarText(n["framework"]);
        rec.model = scalarText(n["model"]);

        const YAML::Node a = section(n, "architecture");
        rec.architectureType = scalarText(a["type"]);
        rec.layerTable = scalarText(a["table"]);
        rec.layers = read.integer(a["layers"], "architecture.layers", true);
        rec.hidden = read.integer(a["hidden_size"], "architecture.hidden_size", true);
        rec.heads = read.integer(a["attention_heads"], "architecture.attention_heads", true);
        rec.kvHeads = read.integer(a["kv_heads"], "architecture.kv_heads", true);
        rec.headDim = read.integer(a["head_dim"], "architecture.head_dim", true);
        rec.ffnHidden = read.integer(a["ffn_hidden_size"], "architecture.ffn_hidden_size", true);
        rec.vocab = read.integer(a["vocab_size"], "architecture.vocab_size", true);
        rec.seqLen = read.integer(a["seq_len"], "architecture.seq_len", true);
        const YAML::Node moe = section(a, "moe");
        rec.experts = read.integer(moe["experts"], "architecture.moe.experts");
        rec.topK = read.integer(moe["top_k"], "architecture.moe.top_k");
        rec.expertFfnHidden = read.integer(moe["expert_ffn_hidden_size"], "architecture.moe.expert_ffn_hidden_size");
        if (!rec.expertFfnHidden)
            rec.expertFfnHidden = read.integer(moe["expert_ffn"], "architecture.moe.expert_ffn");
        rec.sharedExperts = read.integer(moe["shared_experts"], "architecture.moe.shared_experts");
        rec.denseLayers = read.integer(moe["dense_layers"], "architecture.moe.dense_layers");
        rec.architectureNotes = scalarText(a["notes"]) + "; " + scalarText(moe["notes"]);

        const YAML::Node h = section(n, "hardware");
        rec.accelerator = scalarText(h["accelerator"]);
        rec.gpuClass = scalarText(h["gpu_class"]);
        rec.interconnect = scalarText(h["interconnect"]);
        rec.numGpus = read.integer(h["num_gpus"], "hardware.num_gpus", true);
        rec.gpusPerNode = read.integer(h["gpus_per_node"], "hardware.gpus_per_node", true);
        const YAML::Node peak = section(h, "peak_dense_tflops");
        rec.peakBf16Tflops = read.number(peak["bf16_fp16"], "hardware.peak_dense_tflops.bf16_fp16");
        rec.peakFp8Tflops = read.number(peak["fp8"], "hardware.peak_dense_tflops.fp8");

        const YAML::Node p = section(n, "parallelism");
        rec.tp = read.integer(p["tp"], "parallelism.tp", true);
        rec.pp = read.integer(p["pp"], "parallelism.pp", true);
        rec.dp = read.integer(p["dp"], "parallelism.dp", true);
        rec.cp = read.integer(p["cp"], "parallelism.cp", true);
        rec.ep = read.integer(p["ep"], "parallelism.ep", true);
        rec.virtualPipeline = read.integer(p["virtual_pipeline"], "parallelism.virtual_pipeline", true);
        rec.virtualPipelineText = scalarText(p["virtual_pipeline"]);
        rec.sequenceParallel = flag(p["sequence_parallel"]);
        rec.zeroOrFsdp = scalarText(p["zero_or_fsdp"]);
        rec.pipelineSchedule = scalarText(p["pipeline_schedule"]);
        if (const YAML::Node o = p["offload"]; o && o.IsMap()) {
            rec.offloadOptimizer = scalarText(o["optimizer"]);
            rec.offloadGradients = scalarText(o["gradients"]);
            rec.offloadParameters = scalarText(o["parameters"]);
            rec.offloadActivations = scalarText(o["activations"]);
        }

        const YAML::Node b = section(n, "batch");
        rec.microBatch = read.number(b["micro_batch"], "batch.micro_batch");
        rec.globalBatchSeqs = read.number(b["global_batch_seqs"], "batch.global_batch_seqs");
        rec.globalBatchTokens = read.number(b["global_batch_tokens"], "batch.global_batch_tokens");
        rec.gradAccumSteps = read.number(b["grad_accum_steps"], "batch.grad_accum_steps");

        rec.activationRecompute = scalarText(n["activation_recompute"]);
        rec.precision = scalarText(n["precision"]);
        rec.flopsAccounting = scalarText(n["flops_accounting"]);
        rec.sourceRef = scalarText(section(n, "source")["ref"]);
        rec.notes = scalarText(n["notes"]);
        rec.parallelismNotes = scalarText(p["notes"]);

        const YAML::Node res = section(n, "result");
        rec.tflopsPerGpu = read.number(res["tflops_per_gpu"], "result.tflops_per_gpu");
        rec.mfu = read.number(res["mfu"], "result.mfu");
        rec.hfu = read.number(res["hfu"], "result.hfu");
        rec.pctOfPeak = read.number(res["pct_of_peak"], "result.pct_of_peak");
        rec.stepTime = read.number(res["step_time_s"], "result.step_time_s");
        rec.tokensPerS = read.number(res["tokens_per_s"], "result.tokens_per_s");
        rec.tokensPerSPerGpu = read.number(res["tokens_per_s_per_gpu"], "result.tokens_per_s_per_gpu");
        rec.samplesPerS = read.number(res["samples_per_s"], "result.samples_per_s");
        rec.memoryGib = read.number(res["memory_gib"], "result.memory_gib");

        const YAML::Node d = section(n, "derived");
        rec.derivedTokensPerSPerGpu = read.number(d["tokens_per_s_per_gpu"], "derived.tokens_per_s_per_gpu");
        if (!rec.derivedTokensPerSPerGpu)
            rec.derivedTokensPerSPerGpu = read.number(d["tokens_per_s_per_gpu_from_gpu_hours"], "derived.tokens_per_s_per_gpu_from_gpu_hours");
        rec.derivedStepTime = read.number(d["step_time_s"], "derived.step_time_s");
        rec.derivedSamplesPerS = read.number(d["samples_per_s"], "derived.samples_per_s");
        out.push_back(std::move(rec));
    }
    return out;
}

} // namespace dtsim
