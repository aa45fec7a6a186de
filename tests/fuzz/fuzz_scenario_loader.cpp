// libFuzzer target: arbitrary bytes as a scenario file, loaded and simulated; and then
// saved over after a few edits (a batch, a deadline, a network tier, the ZeRO stage), as
// the window saves: the patched text (scenario_patch.h does offset arithmetic on the
// user's text) must read back to exactly the edited scenario.
#include "fuzz_common.h"

#include "simcore/loader/scenario_patch.h"

namespace {

void saveOver(const std::string& text)
{
    using namespace dtsim;
    fuzz::refusalsOnly([&] {
        const Scenario loaded = loadScenarioText(text, "fuzz.yaml", fuzz::data().catalog, {}, fuzz::data().topologies);
        Scenario edited = loaded;
        edited.training.globalBatch = std::max(1, edited.training.globalBatch / 2);
        edited.training.deadline = 45 * 86400.0;
        if (edited.cluster.tierCount > 0)
            edited.cluster.tiers[0].oversubscription = 3;
        edited.plan.zeroStage = edited.plan.zeroStage == 1 ? 2 : 1;
        const std::optional<std::string> patched = patchScenarioText(text, loaded, edited, fuzz::data().catalog, fuzz::data().topologies);
        if (!patched)
            return; // the window then writes the whole scenario (tst_loader round-trips that)
        bool same = false;
        try {
            same = loadScenarioText(*patched, "saved.yaml", fuzz::data().catalog, {}, fuzz::data().topologies) == edited;
        } catch (const InputError& e) {
            std::fprintf(stderr, "a patched file does not load: %s\n", e.what());
        }
        if (!same) {
            std::fprintf(stderr, "a patched file reads back to another scenario\n");
            std::abort();
        }
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* bytes, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(bytes), size);
    dtsim::fuzz::exercise(text, {});
    saveOver(text);
    return 0;
}
