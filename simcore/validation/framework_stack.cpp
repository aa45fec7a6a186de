#include "framework_stack.h"

#include "text_match.h"

#include <algorithm>
#include <regex>

namespace dtsim {

using text::has;
using text::lower;

namespace {

bool namesAny(const std::string& f, std::initializer_list<const char*> names)
{
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return has(f, n); });
}

std::vector<int> numbersAfter(const std::string& t, const std::regex& pattern, int offset = 0)
{
    std::vector<int> out;
    for (std::sregex_iterator it(t.begin(), t.end(), pattern), end; it != end; ++it)
        out.push_back(offset + std::stoi((*it)[1].str()));
    return out;
}

bool anyIn(const std::vector<int>& v, int from, int to)
{
    return std::any_of(v.begin(), v.end(), [&](int x) { return x >= from && x <= to; });
}

} // namespace

std::vector<int> yearsNamedIn(const std::string& t)
{
    static const std::regex year(R"(\b20([1-9]\d)\b)");
    return numbersAfter(t, year, 2000);
}

bool FrameworkStack::namesYearIn(int from, int to) const { return anyIn(years, from, to); }
bool FrameworkStack::namesVersionIn(int from, int to) const { return anyIn(versions, from, to); }

FrameworkStack parseFrameworkStack(const std::string& framework)
{
    FrameworkStack s;
    s.text = lower(framework);
    const std::string& f = s.text;
    s.megatron = has(f, "megatron");
    s.megatronLm = has(f, "megatron-lm");
    s.megatronCore = has(f, "core");
    s.gptNeox = has(f, "gpt-neox");
    s.deepSpeedFork = has(f, "megatron-deepspeed") || s.gptNeox;
    s.metaseq = has(f, "metaseq");
    s.megatronBridge = has(f, "megatron-bridge");
    s.nemoOrBridge = has(f, "nemo") || s.megatronBridge;
    s.torchtitan = has(f, "torchtitan");
    s.pytorchNative = namesAny(f, { "composer", "llm-foundry", "fms-fsdp", "pytorch fsdp", "fairscale", "torchtitan" });
    s.t5x = has(f, "t5x");
    s.xla = namesAny(f, { "jax", "xla", "maxtext", "paxml", "t5x", "pathways" });

    s.years = yearsNamedIn(f);
    static const std::regex version(R"(\bv(\d+)(?:\.\d+)*\b)");
    s.versions = numbersAfter(f, version);
    static const std::regex lmMajor(R"(megatron-lm v(\d+)\b)");
    if (const std::vector<int> v = numbersAfter(f, lmMajor); !v.empty())
        s.megatronLmMajor = v.front();
    static const std::regex lmYear(R"(megatron-lm \(?20(\d\d)\b)");
    if (const std::vector<int> y = numbersAfter(f, lmYear, 2000); !y.empty())
        s.megatronLmYear = y.front();
    static const std::regex container(R"(nemo (\d\d)\.(\d\d)\b)");
    if (std::smatch c; std::regex_search(f, c, container))
        s.nemoContainer = std::stoi(c[1].str()) * 100 + std::stoi(c[2].str());
    return s;
}

} // namespace dtsim
