#include "published_runs_loader.h"

#include "read_file.h"
#include "yaml_reader.h"

#include <charconv>
#include <regex>

namespace dtsim {

namespace {

// Tolerant reads: the schema allows null anywhere, and numbers may be quoted.
std::optional<double> number(const YAML::Node& n)
{
    if (!n || !n.IsScalar() || n.Scalar().empty() || n.Scalar() == "null" || n.Scalar() == "~")
        return std::nullopt;
    const std::string& s = n.Scalar();
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<int> integer(const YAML::Node& n)
{
    auto v = number(n);
    if (!v && n && n.IsScalar()) {
        // Text such as "VP=12" or "12 (per README)": the first whole number in it.
        static const std::regex firstInt(R"((\d+))");
        std::smatch m;
        const std::string& s = n.Scalar();
        if (std::regex_search(s, m, firstInt))
            v = std::stod(m[1]);
    }
    if (!v || *v < 0 || *v > 2e9 || double(int(*v)) != *v)
        return std::nullopt;
    return int(*v);
}

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

std::string text(const YAML::Node& n)
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
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "published-runs file"));
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
        if (!n["id"] || !n["id"].IsScalar())
            r.fail(n, where + ".id", "every run needs an id");
        rec.id = n["id"].Scalar();
        rec.quality = text(n["quality"]);
        rec.framework = text(n["framework"]);
        rec.model = text(n["model"]);

        const YAML::Node a = section(n, "architecture");
        rec.architectureType = text(a["type"]);
        rec.layers = integer(a["layers"]);
        rec.hidden = integer(a["hidden_size"]);
        rec.heads = integer(a["attention_heads"]);
        rec.kvHeads = integer(a["kv_heads"]);
        rec.headDim = integer(a["head_dim"]);
        rec.ffnHidden = integer(a["ffn_hidden_size"]);
        rec.vocab = integer(a["vocab_size"]);
        rec.seqLen = integer(a["seq_len"]);
        const YAML::Node moe = section(a, "moe");
        rec.experts = integer(moe["experts"]);
        rec.topK = integer(moe["top_k"]);
        rec.expertFfnHidden = integer(moe["expert_ffn_hidden_size"]);
        if (!rec.expertFfnHidden)
            rec.expertFfnHidden = integer(moe["expert_ffn"]);
        rec.sharedExperts = integer(moe["shared_experts"]);
        rec.denseLayers = integer(moe["dense_layers"]);
        rec.architectureNotes = text(a["notes"]) + "; " + text(moe["notes"]);

        const YAML::Node h = section(n, "hardware");
        rec.accelerator = text(h["accelerator"]);
        rec.gpuClass = text(h["gpu_class"]);
        rec.interconnect = text(h["interconnect"]);
        rec.numGpus = integer(h["num_gpus"]);
        rec.gpusPerNode = integer(h["gpus_per_node"]);
        const YAML::Node peak = section(h, "peak_dense_tflops");
        rec.peakBf16Tflops = number(peak["bf16_fp16"]);
        rec.peakFp8Tflops = number(peak["fp8"]);

        const YAML::Node p = section(n, "parallelism");
        rec.tp = integer(p["tp"]);
        rec.pp = integer(p["pp"]);
        rec.dp = integer(p["dp"]);
        rec.cp = integer(p["cp"]);
        rec.ep = integer(p["ep"]);
        rec.virtualPipeline = integer(p["virtual_pipeline"]);
        rec.virtualPipelineText = text(p["virtual_pipeline"]);
        rec.sequenceParallel = flag(p["sequence_parallel"]);
        rec.zeroOrFsdp = text(p["zero_or_fsdp"]);
        rec.pipelineSchedule = text(p["pipeline_schedule"]);

        const YAML::Node b = section(n, "batch");
        rec.microBatch = number(b["micro_batch"]);
        rec.globalBatchSeqs = number(b["global_batch_seqs"]);
        rec.globalBatchTokens = number(b["global_batch_tokens"]);
        rec.gradAccumSteps = number(b["grad_accum_steps"]);

        rec.activationRecompute = text(n["activation_recompute"]);
        rec.precision = text(n["precision"]);
        rec.flopsAccounting = text(n["flops_accounting"]);
        rec.sourceRef = text(section(n, "source")["ref"]);
        rec.notes = text(n["notes"]);
        rec.parallelismNotes = text(p["notes"]);

        const YAML::Node res = section(n, "result");
        rec.tflopsPerGpu = number(res["tflops_per_gpu"]);
        rec.mfu = number(res["mfu"]);
        rec.hfu = number(res["hfu"]);
        rec.pctOfPeak = number(res["pct_of_peak"]);
        rec.stepTime = number(res["step_time_s"]);
        rec.tokensPerS = number(res["tokens_per_s"]);
        rec.tokensPerSPerGpu = number(res["tokens_per_s_per_gpu"]);
        rec.samplesPerS = number(res["samples_per_s"]);

        const YAML::Node d = section(n, "derived");
        rec.derivedTokensPerSPerGpu = number(d["tokens_per_s_per_gpu"]);
        if (!rec.derivedTokensPerSPerGpu)
            rec.derivedTokensPerSPerGpu = number(d["tokens_per_s_per_gpu_from_gpu_hours"]);
        rec.derivedStepTime = number(d["step_time_s"]);
        out.push_back(std::move(rec));
    }
    return out;
}

} // namespace dtsim
