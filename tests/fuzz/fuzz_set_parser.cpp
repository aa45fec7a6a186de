// libFuzzer target: arbitrary `--set path=value` arguments (one per line) applied to a
// shipped preset.
#include "fuzz_common.h"

#include "simcore/loader/read_file.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* bytes, std::size_t size)
{
    static const std::string base = dtsim::readTextFile(std::string(DTSIM_SOURCE_DATA_DIR) + "/presets/mixtral-8x7b-h100.yaml", "preset");
    const std::string input(reinterpret_cast<const char*>(bytes), size);
    std::vector<dtsim::Override> overrides;
    std::size_t start = 0;
    while (start <= input.size() && overrides.size() < 16) {
        const std::size_t end = std::min(input.find('\n', start), input.size());
        try {
            overrides.push_back(dtsim::parseOverride(input.substr(start, end - start)));
        } catch (const dtsim::InputError&) {
        }
        start = end + 1;
    }
    dtsim::fuzz::exercise(base, overrides);
    return 0;
}
