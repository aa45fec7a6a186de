// libFuzzer target: arbitrary bytes as a scenario file.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* bytes, std::size_t size)
{
    dtsim::fuzz::exercise(std::string(reinterpret_cast<const char*>(bytes), size), {});
    return 0;
}
