#include "calibration_loader.h"

#include "convergence_reader.h"

#include "read_file.h"
#include "sourced_value.h"

namespace dtsim {

namespace {

GenerationCalibration readGemm(const YamlReader& r, const YAML::Node& n, const std::string& field, bool named)
{
    r.expectMap(n, field);
    if (named)
        r.checkKeys(n, field, { "generation", "peak_fraction", "half_dim", "attention_fraction", "native_attention_fraction", "memory_fraction", "reserved_memory",
                               "convolution_fraction", "attention_half_seq" });
    else
        r.checkKeys(n, field, { "peak_fraction", "half_dim", "attention_fraction", "native_attention_fraction", "memory_fraction", "reserved_memory" });
    GenerationCalibration g;
    if (named) {
        if (!n["generation"])
            r.fail(n, field + ".generation", "is required");
        g.generation = r.string(n["generation"], field + ".generation");
    }
    auto frac = [&](const char* key) {
        if (!n[key])
            r.fail(n, field + "." + key, "is required");
        const double v = sourcedQuantity(r, n[key], field + "." + key, Dimension::Count, Bound::Positive);
        if (v > 1.0)
            r.fail(n[key], field + "." + key, "a fraction must be at most 1");
        return v;
    };
    g.peakFraction = frac("peak_fraction");
    g.attentionFraction = frac("attention_fraction");
    g.nativeAttentionFraction = n["native_attention_fraction"] ? frac("native_attention_fraction") : g.attentionFraction;
    g.memoryFraction = frac("memory_fraction");
    // Absent: the attention kernels' length ramp is the shared attention_half_seq.
    if (n["attention_half_seq"])
        g.attentionHalfSeq = sourcedQuantity(r, n["attention_half_seq"], field + ".attention_half_seq", Dimension::Count, Bound::NonNegative);
    // Absent: convolutions run as fast as GEMMs of their implicit-GEMM shape.
    g.convolutionFraction = n["convolution_fraction"] ? frac("convolution_fraction") : 1.0;
    if (!n["half_dim"])
        r.fail(n, field + ".half_dim", "is required");
    g.halfDim = sourcedQuantity(r, n["half_dim"], field + ".half_dim", Dimension::Count, Bound::NonNegative);
    if (!n["reserved_memory"])
        r.fail(n, field + ".reserved_memory", "is required");
    g.reservedMemoryBytes = sourcedQuantity(r, n["reserved_memory"], field + ".reserved_memory", Dimension::Bytes, Bound::NonNegative);
    return g;
}

// narrow_gemms: {n: N, k: K, n_and_k: [N, K], source: ...}: the weight shapes below
// which a recipe's GEMMs gain nothing over 16-bit (any of the three may be left out).
void readNarrowGemms(const YamlReader& r, const YAML::Node& n, const std::string& field, RecipeCalibration& rc)
{
    r.expectMap(n, field);
    r.checkKeys(n, field, { "n", "k", "n_and_k", "source" });
    const YAML::Node source = n["source"];
    if (!source || !source.IsScalar() || source.Scalar().empty())
        r.fail(n, field + ".source", "every value needs a source");
    if (n["n"])
        rc.narrowN = r.quantity(n["n"], field + ".n", Dimension::Count, Bound::Positive);
    if (n["k"])
        rc.narrowK = r.quantity(n["k"], field + ".k", Dimension::Count, Bound::Positive);
    if (const YAML::Node box = n["n_and_k"]) {
        if (!box.IsSequence() || box.size() != 2)
            r.fail(box, field + ".n_and_k", "must be [N, K]");
        rc.narrowBoxN = r.quantity(box[0], field + ".n_and_k[0]", Dimension::Count, Bound::Positive);
        rc.narrowBoxK = r.quantity(box[1], field + ".n_and_k[1]", Dimension::Count, Bound::Positive);
    }
}

// scaling_recipes: {tensorwise: {speedup, gemm_share, cast_bytes}, rowwise: ...}. Tensorwise
// is required; a recipe the file leaves out runs as tensorwise does.
void readRecipes(const YamlReader& r, const YAML::Node& n, Calibration& c)
{
    const std::string field = "scaling_recipes";
    r.expectMap(n, field);
    static_assert(kScalingRecipeCount == 5, "list every recipe here");
    r.checkKeys(n, field, { "tensorwise", "rowwise", "blockwise", "mxfp8", "nvfp4" });
    if (!n["tensorwise"])
        r.fail(n, field + ".tensorwise", "is required");
    for (ScalingRecipe recipe : kAllScalingRecipes) {
        const std::string name(scalingRecipeName(recipe));
        const YAML::Node e = n[name];
        if (!e) {
            c.recipes[scalingRecipeIndex(recipe)] = c.forRecipe(ScalingRecipe::Tensorwise);
            continue;
        }
        const std::string at = field + "." + name;
        r.expectMap(e, at);
        r.checkKeys(e, at, { "speedup", "gemm_share", "cast_bytes", "narrow_gemms" });
        for (const char* key : { "speedup", "gemm_share", "cast_bytes" })
            if (!e[key])
                r.fail(e, at + "." + key, "is required");
        RecipeCalibration& rc = c.recipes[scalingRecipeIndex(recipe)];
        rc.speedup = sourcedQuantity(r, e["speedup"], at + ".speedup", Dimension::Count, Bound::Positive);
        rc.gemmShare = sourcedQuantity(r, e["gemm_share"], at + ".gemm_share", Dimension::Count, Bound::NonNegative);
        if (rc.gemmShare > 1.0)
            r.fail(e["gemm_share"], at + ".gemm_share", "a fraction must be at most 1");
        rc.castBytes = sourcedQuantity(r, e["cast_bytes"], at + ".cast_bytes", Dimension::Count, Bound::NonNegative);
        if (const YAML::Node narrow = e["narrow_gemms"])
            readNarrowGemms(r, narrow, at + ".narrow_gemms", rc);
    }
}

} // namespace

Calibration loadCalibration(const std::string& path)
{
    YamlReader r(path);
    const YAML::Node root = r.parse(readTextFile(path, "calibration file"));
    r.expectMap(root, "");
    r.checkKeys(root, "", { "version", "gemm", "fallback", "attention_backward_factor", "attention_half_head_dim", "attention_half_seq", "scaling_recipes", "gemm_alignment",
                              "kernel_overhead", "host_launch_overhead", "scale_up_bus_efficiency",
                              "scale_out_bus_efficiency", "overlap_efficiency", "overlap_slowdown", "overlap_slowdown_scale_out", "grad_bucket_bytes",
                              "layer_table_bucket_bytes", "step_overhead", "captured_step_overhead", "allocator_overhead",
                              "optimizer_bytes_per_param", "cpu_optimizer_efficiency", "offload_gradient_buffer_bytes", "convergence" });
    if (r.integer(r.required(root, "", "version"), "version", 1, 1) != 1)
        r.fail(root, "version", "unsupported version");
    Calibration c;
    const YAML::Node gemm = r.required(root, "", "gemm");
    if (!gemm.IsSequence())
        r.fail(gemm, "gemm", "expected a list of per-generation entries");
    for (std::size_t i = 0; i < gemm.size(); ++i)
        c.generations.push_back(readGemm(r, gemm[i], "gemm[" + std::to_string(i) + "]", true));
    c.fallback = readGemm(r, r.required(root, "", "fallback"), "fallback", false);

    auto value = [&](const char* key, Dimension dim, Bound b) {
        return sourcedQuantity(r, r.required(root, "", key), key, dim, b);
    };
    c.attentionBackwardFactor = value("attention_backward_factor", Dimension::Count, Bound::Positive);
    c.attentionHalfHeadDim = value("attention_half_head_dim", Dimension::Count, Bound::NonNegative);
    if (const YAML::Node n = r.child(root, "", "attention_half_seq"))
        c.attentionHalfSeq = sourcedQuantity(r, n, "attention_half_seq", Dimension::Count, Bound::NonNegative);
    readRecipes(r, r.required(root, "", "scaling_recipes"), c);
    if (const YAML::Node a = r.child(root, "", "gemm_alignment")) {
        r.expectMap(a, "gemm_alignment");
        r.checkKeys(a, "gemm_alignment", { "aligned_8_bytes", "unaligned" });
        auto share = [&](const char* key) {
            const double v = sourcedQuantity(r, r.required(a, "gemm_alignment", key), std::string("gemm_alignment.") + key, Dimension::Count,
                Bound::Positive);
            if (v > 1)
                r.fail(a[key], std::string("gemm_alignment.") + key, "a share of the aligned rate must be at most 1");
            return v;
        };
        c.gemmAligned8Bytes = share("aligned_8_bytes");
        c.gemmUnaligned = share("unaligned");
    }
    c.kernelOverhead = value("kernel_overhead", Dimension::Seconds, Bound::NonNegative);
    if (const YAML::Node n = r.child(root, "", "host_launch_overhead"))
        c.hostLaunchOverhead = sourcedQuantity(r, n, "host_launch_overhead", Dimension::Seconds, Bound::NonNegative);
    c.scaleUpBusEfficiency = value("scale_up_bus_efficiency", Dimension::Count, Bound::Positive);
    c.scaleOutBusEfficiency = value("scale_out_bus_efficiency", Dimension::Count, Bound::Positive);
    c.overlapEfficiency = value("overlap_efficiency", Dimension::Count, Bound::NonNegative);
    c.overlapSlowdown = value("overlap_slowdown", Dimension::Count, Bound::NonNegative);
    c.overlapSlowdownScaleOut = c.overlapSlowdown;
    if (const YAML::Node n = r.child(root, "", "overlap_slowdown_scale_out"))
        c.overlapSlowdownScaleOut = sourcedQuantity(r, n, "overlap_slowdown_scale_out", Dimension::Count, Bound::NonNegative);
    c.gradBucketBytes = value("grad_bucket_bytes", Dimension::Bytes, Bound::Positive);
    if (const YAML::Node n = r.child(root, "", "layer_table_bucket_bytes"))
        c.layerTableBucketBytes = sourcedQuantity(r, n, "layer_table_bucket_bytes", Dimension::Bytes, Bound::Positive);
    c.stepOverhead = value("step_overhead", Dimension::Seconds, Bound::NonNegative);
    c.capturedStepOverhead = c.stepOverhead;
    if (const YAML::Node n = r.child(root, "", "captured_step_overhead"))
        c.capturedStepOverhead = sourcedQuantity(r, n, "captured_step_overhead", Dimension::Seconds, Bound::NonNegative);
    c.allocatorOverhead = value("allocator_overhead", Dimension::Count, Bound::NonNegative);
    c.optimizerBytesPerParam = value("optimizer_bytes_per_param", Dimension::Count, Bound::Positive);
    if (const YAML::Node n = r.child(root, "", "cpu_optimizer_efficiency"))
        c.cpuOptimizerEfficiency = sourcedQuantity(r, n, "cpu_optimizer_efficiency", Dimension::Count, Bound::Positive);
    if (const YAML::Node n = r.child(root, "", "offload_gradient_buffer_bytes"))
        c.offloadGradientBufferBytes = sourcedQuantity(r, n, "offload_gradient_buffer_bytes", Dimension::Bytes, Bound::NonNegative);
    if (const YAML::Node n = r.child(root, "", "convergence"))
        readConvergence(r, n, c.convergence);
    return c;
}

} // namespace dtsim
