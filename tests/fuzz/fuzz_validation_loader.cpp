// libFuzzer target: arbitrary bytes as a published-runs file, loaded and validated. A
// file is refused with an InputError or validated to finite statistics; rows the engine
// cannot express are skipped with a reason, never turned into NaN.
#include "fuzz_common.h"

#include "simcore/loader/published_runs_loader.h"
#include "simcore/validation/validation.h"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* bytes, std::size_t size)
{
    using namespace dtsim;
    fuzz::refusalsOnly([&] {
        const std::vector<RunRecord> runs = loadPublishedRunsText(std::string(reinterpret_cast<const char*>(bytes), size), "runs.yaml");
        const ValidationResult v = validateRuns(runs, fuzz::data().catalog, fuzz::data().calibration);
        for (const ErrorStats* st : { &v.good, &v.all })
            if (!std::isfinite(st->median) || !std::isfinite(st->p90) || !std::isfinite(st->max)) {
                std::fprintf(stderr, "validation statistics are not finite\n");
                std::abort();
            }
        for (const ValidationRow& row : v.rows)
            if (!row.skipped && (!std::isfinite(row.relError) || !std::isfinite(row.predicted))) {
                std::fprintf(stderr, "row %s: a prediction that is not finite\n", row.id.c_str());
                std::abort();
            }
    });
    return 0;
}
