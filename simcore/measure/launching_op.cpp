#include "launching_op.h"

#include "kineto_trace.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace dtsim {

namespace {

double product(const std::vector<double>& d)
{
    double p = 1;
    for (double x : d)
        p *= x;
    return p;
}

// The operators whose kernels are matrix products, by their aten names (PyTorch's
// native_functions.yaml): the plain and fused products, the scaled (FP8) ones and the
// grouped (MoE) ones.
bool gemmOp(const std::string& n)
{
    static const char* names[] = { "aten::mm", "aten::addmm", "aten::_addmm_activation", "aten::bmm", "aten::baddbmm",
        "aten::addbmm", "aten::_scaled_mm", "aten::_grouped_mm", "aten::_scaled_grouped_mm", "aten::mv", "aten::addmv",
        "aten::_int_mm" };
    return std::find(std::begin(names), std::end(names), n) != std::end(names);
}

// The fused attention operators of scaled_dot_product_attention and its back ends
// (flash, memory-efficient, cuDNN), and the flash-attn package's.
bool attentionOp(const std::string& n) { return nameHas(n, "attention") || nameHas(n, "flash_attn"); }

// Flash and memory-efficient back ends take [batch, seq, heads, dim]; the SDPA front end
// and cuDNN's op [batch, heads, seq, dim] (PyTorch's sdp_utils and aten/native/transformers).
bool sequenceMajor(const std::string& n)
{
    return nameHas(n, "_flash_attention_") || nameHas(n, "_efficient_attention_") || nameHas(n, "flash_attn");
}

bool isFloatText(const std::string& s)
{
    if (s.empty())
        return false;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return end && *end == '\0' && (s.find('.') != std::string::npos || s.find('e') != std::string::npos);
}

// is_causal follows dropout_p in every SDPA signature (forward and backward, each back
// end): the first True/False after the first floating-point scalar.
bool causal(const OpInputs& in)
{
    bool afterDropout = false;
    for (const std::string& c : in.concrete) {
        if (!afterDropout) {
            afterDropout = isFloatText(c);
            continue;
        }
        if (c == "True" || c == "False")
            return c == "True";
    }
    return false;
}

double gemmFlops(const std::string& n, const std::vector<std::vector<double>>& d)
{
    auto two = [&](std::size_t a, std::size_t b) -> double {
        if (d.size() <= b || d[a].empty() || d[b].empty())
            return 0;
        const std::vector<double>& x = d[a];
        const std::vector<double>& y = d[b];
        if (x.size() == 2 && y.size() == 2) // [m,k] x [k,n]
            return 2 * x[0] * x[1] * y[1];
        if (x.size() == 3 && y.size() == 3) // [b,m,k] x [b,k,n]
            return 2 * x[0] * x[1] * x[2] * y[2];
        if (x.size() == 2 && y.size() == 3) // grouped: [tokens,k] x [groups,k,n], each row in one group
            return 2 * x[0] * x[1] * y[2];
        if (x.size() == 2 && y.size() == 1) // matrix-vector
            return 2 * x[0] * x[1];
        return 0;
    };
    // addmm, baddbmm, addbmm and addmv take the added tensor first.
    const bool added = n == "aten::addmm" || n == "aten::_addmm_activation" || n == "aten::baddbmm" || n == "aten::addbmm"
        || n == "aten::addmv";
    return added ? two(1, 2) : two(0, 1);
}

double attentionFlops(const std::string& n, const OpInputs& in, bool backward)
{
    // Forward: query, key, value first; backward: the output's gradient, then them.
    const std::size_t q = backward ? 1 : 0;
    if (in.dims.size() < q + 3)
        return 0;
    const std::vector<double>& Q = in.dims[q];
    const std::vector<double>& K = in.dims[q + 1];
    const std::vector<double>& V = in.dims[q + 2];
    if (Q.size() != 4 || K.size() != 4 || V.size() != 4)
        return 0;
    const double kvLength = sequenceMajor(n) ? K[1] : K[2];
    const double queries = product(Q) / Q[3]; // batch x heads x query length
    // Q.K^T over head_dim and A.V over the value width; the causal mask halves both.
    double forward = 2.0 * queries * kvLength * (Q[3] + V[3]) * (causal(in) ? 0.5 : 1.0);
    // Backward recomputes Q.K^T, and computes dV, dP, dQ and dK: five products of the
    // forward's two (FlashAttention-2, Dao 2023, Sec. 3.2): 2.5 times its FLOPs.
    return backward ? 2.5 * forward : forward;
}

} // namespace

double dtypeBytes(const std::string& type)
{
    std::string t;
    for (char c : type)
        t += char(std::tolower(static_cast<unsigned char>(c)));
    if (t.rfind("c10::", 0) == 0)
        t = t.substr(5);
    if (t == "double" || t == "long" || t == "long int" || t == "int64" || t == "float64" || t == "complexfloat")
        return 8;
    if (t == "float" || t == "int" || t == "float32" || t == "int32")
        return 4;
    if (t == "half" || t == "bfloat16" || t == "short" || t == "float16" || t == "int16" || t == "short int")
        return 2;
    if (t == "byte" || t == "char" || t == "bool" || t == "int8" || t == "uint8" || t == "unsigned char" || t == "signed char"
        || t.rfind("float8", 0) == 0)
        return 1;
    return 0; // unknown, or not a tensor ("Scalar", "TensorList", "")
}

std::optional<KernelCategory> categoryOfOp(const std::string& n)
{
    if (n.rfind("aten::", 0) != 0 && !nameHas(n, "flash_attn"))
        return std::nullopt; // annotations, c10d:: collectives (their kernels say nccl), ranges
    if (gemmOp(n))
        return KernelCategory::Gemm;
    if (attentionOp(n))
        return KernelCategory::Attention;
    if (nameHas(n, "convolution"))
        return KernelCategory::Convolution;
    // Fused optimizers (torch.optim's fused=True and foreach paths) launch multi-tensor kernels.
    if (nameHas(n, "_fused_adam") || nameHas(n, "_fused_sgd") || nameHas(n, "_foreach_"))
        return KernelCategory::Optimizer;
    return KernelCategory::ElementwiseNorm; // every other aten op is memory-bound traffic
}

OpCost costOfOp(const std::string& n, const OpInputs& in)
{
    OpCost c;
    for (std::size_t i = 0; i < in.dims.size() && i < in.types.size(); ++i)
        if (!in.dims[i].empty())
            c.inputBytes += product(in.dims[i]) * dtypeBytes(in.types[i]);
    if (gemmOp(n)) {
        c.flops = gemmFlops(n, in.dims);
    } else if (attentionOp(n)) {
        c.attentionBackward = nameHas(n, "backward");
        c.flops = attentionFlops(n, in, c.attentionBackward);
    }
    if (!std::isfinite(c.flops) || c.flops < 0)
        c.flops = 0;
    if (!std::isfinite(c.inputBytes) || c.inputBytes < 0)
        c.inputBytes = 0;
    return c;
}

} // namespace dtsim
