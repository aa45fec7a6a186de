// A published row's hardware in words to dtsim's: which catalogue accelerator, and the
// per-GPU scale-out bandwidth its interconnect text states (run_to_scenario.h).
#include "run_to_scenario.h"

#include "../units.h"
#include "framework_stack.h"
#include "text_match.h"

#include <regex>

namespace dtsim {

using text::has;
using text::lower;

std::string acceleratorId(const std::string& description)
{
    const std::string d = lower(description);
    if (has(d, "v5e"))
        return "tpu-v5e";
    if (has(d, "v5p"))
        return "tpu-v5p";
    if (has(d, "tpu v4") || has(d, "tpuv4") || has(d, "tpu-v4"))
        return "tpu-v4";
    if (has(d, "h800"))
        return "h800";
    if (has(d, "gb300"))
        return "gb300";
    if (has(d, "b300"))
        return "b300";
    if (has(d, "gb200"))
        return "gb200";
    if (has(d, "b200"))
        return "b200";
    if (has(d, "h200"))
        return "h200";
    if (has(d, "h100"))
        return has(d, "pcie") ? "h100-pcie" : has(d, "hbm2e") ? "h100-sxm-hbm2e" : "h100-sxm";
    if (has(d, "a100")) {
        // The 80 GB part shipped from November 2020 (NVIDIA's A100 80GB announcement,
        // 2020-11-16): an A100 of unstated size in a text dated 2020 or before is the
        // 40 GB one, HBM2 at 1.56 TB/s rather than 2.04.
        const std::vector<int> years = yearsNamedIn(d);
        const bool before80 = !years.empty() && *std::max_element(years.begin(), years.end()) <= 2020;
        if (has(d, "40gb") || has(d, "40 gb") || (before80 && !has(d, "80gb") && !has(d, "80 gb")))
            return "a100-40gb";
        return "a100-80gb";
    }
    if (has(d, "v100"))
        return "v100";
    if (has(d, "l40s"))
        return "l40s";
    if (has(d, "gtx 580") || has(d, "gtx580"))
        return "gtx580";
    if (has(d, "k80"))
        return "k80";
    if (has(d, "mi300x"))
        return "mi300x";
    return {};
}

double perGpuNetworkBandwidth(const std::string& interconnect, int gpusPerNode)
{
    const std::string d = lower(interconnect);
    const double gpn = std::max(1, gpusPerNode);
    std::smatch m;
    static const std::regex linksPerNode(R"((\d+) ?x ?(\d+(?:\.\d+)?) ?(?:gb/s|gbps)[^,;]*per node)");
    static const std::regex nodeTotal(R"((\d+(?:\.\d+)?) ?(?:gb/s|gbps) ?(?:node-node|inter-node|per node))");
    static const std::regex hcas(R"((\d+) ?x ?connectx-6)");
    static const std::regex opa(R"((\d+) opa links per node)");
    static const std::regex hcaPerGpu(R"((\d+(?:\.\d+)?) ?(?:gb/s|gbps)[^;]*\((\d+) hcas per node)");
    const double gbit = 1e9 / 8.0;
    // "... per GPU": the rate stated nearest before those words.
    if (const auto at = d.find("per gpu"); at != std::string::npos) {
        static const std::regex rate(R"((\d+(?:\.\d+)?) ?(?:gb/s|gbps))");
        const std::string before = d.substr(0, at);
        double last = 0;
        for (auto it = std::sregex_iterator(before.begin(), before.end(), rate); it != std::sregex_iterator(); ++it)
            last = std::stod((*it)[1]);
        if (last > 0)
            return last * gbit;
    }
    if (std::regex_search(d, m, linksPerNode))
        return std::stod(m[1]) * std::stod(m[2]) * gbit / gpn;
    if (std::regex_search(d, m, hcaPerGpu))
        return std::stod(m[1]) * std::stod(m[2]) * gbit / gpn;
    if (std::regex_search(d, m, nodeTotal))
        return std::stod(m[1]) * gbit / gpn;
    if (std::regex_search(d, m, hcas))
        return std::stod(m[1]) * 200.0 * gbit / gpn; // ConnectX-6 HDR: 200 Gb/s per HCA
    if (std::regex_search(d, m, opa))
        return std::stod(m[1]) * 100.0 * gbit / gpn; // Omni-Path: 100 Gb/s per link
    return 0.0;
}

} // namespace dtsim
