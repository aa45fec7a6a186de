// libFuzzer target: arbitrary bytes as a profiler trace (plain JSON or gzip), read and
// summarized. A file is refused with an InputError or summarized to finite,
// non-negative times; never a crash, a hang or unbounded memory.
#include "fuzz_common.h"

#include "simcore/measure/profile_summary.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void requireTimes(const dtsim::GpuTimes& g)
{
    for (double v : { g.span, g.busy, g.compute, g.communication, g.overlapped })
        if (!std::isfinite(v) || v < -1e-12) {
            std::fprintf(stderr, "a time that is negative or not finite: %g\n", v);
            std::abort();
        }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* bytes, std::size_t size)
{
    using namespace dtsim;
    static const std::string path = fuzz::scratchPath("trace");
    fuzz::writeScratch(path, bytes, size);
    fuzz::refusalsOnly([&] {
        const ProfileSummary s = summarizeProfile(readKinetoTrace(path));
        requireTimes(s.whole);
        for (const StepFigures& st : s.steps)
            requireTimes(st.gpu);
    });
    return 0;
}
