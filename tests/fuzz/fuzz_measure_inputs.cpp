// libFuzzer target: arbitrary bytes as the files a user measures with (issue 38): an
// nccl-tests log, a layer table, a calibration overlay; a lecture script (issue 41); and a
// framework configuration in each of the five formats dtsim-cli import reads, and NeMo's
// key=value overrides (issue 42).
// The first byte picks which. A
// file is refused with an InputError or read to values that can be: a fit with finite,
// positive times, a table whose costs are finite, an overlay whose links are not free.
// Never a crash, a hang or unbounded memory.
#include "fuzz_common.h"

#include "simcore/calibration_overlay.h"
#include "simcore/layers/layer_table.h"
#include "simcore/loader/calibration_overlay_loader.h"
#include "simcore/loader/layer_table_loader.h"
#include "simcore/frameworks/framework_export.h"
#include "simcore/frameworks/import_scenario.h"
#include "simcore/loader/lecture_loader.h"
#include "simcore/measure/nccl_tests.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void require(bool ok, const char* what)
{
    if (!ok) {
        std::fprintf(stderr, "%s\n", what);
        std::abort();
    }
}

void ncclLog(const std::string& text)
{
    using namespace dtsim;
    const NcclTestsLog log = parseNcclTestsLog("fuzz_all_reduce_perf.log", text);
    require(log.factor > 0 && log.factor <= 2.01, "a bus factor outside (0, 2]");
    const NcclFit fit = fitNcclTests(log);
    for (const BandwidthSegment& s : fit.segments)
        require(std::isfinite(s.latency) && s.latency >= 0 && s.busBandwidth > 0 && (s.latency > 0 || std::isfinite(s.busBandwidth)),
            "a fitted segment that is free or not finite");
    const MeasuredCollective m = measuredCollective(log, fit, MeasuredTier::ScaleUp);
    for (double bytes : { 1.0, 1e6, 1e12 }) {
        const MeasuredLink l = measuredLink(m, bytes);
        require(std::isfinite(l.alpha) && l.alpha >= 0 && l.beta > 0, "a measured link that is not finite");
    }
}

void layerTable(const std::string& text)
{
    using namespace dtsim;
    const auto resolved = resolveLayerTable(loadLayerTableText(text, "fuzz-table.yaml"));
    const LayerTableCost& c = resolved->cost;
    require(std::isfinite(c.forwardFlops) && c.forwardFlops >= 0 && std::isfinite(c.parameters) && c.parameters >= 0
            && std::isfinite(c.activationElements) && c.activationElements >= 0,
        "a table cost that is negative or not finite");
}

void overlay(const std::string& text)
{
    using namespace dtsim;
    static const std::string path = fuzz::scratchPath("overlay");
    fuzz::writeScratch(path, text.data(), text.size());
    const CalibrationOverlay o = loadCalibrationOverlay(path);
    require(o.computeScale >= kMinComputeScale && o.computeScale <= kMaxComputeScale, "a compute scale outside its range");
    for (const MeasuredCollective& m : o.collectives)
        for (double bytes : { 1.0, 1e6, 1e12 }) {
            const MeasuredLink l = measuredLink(m, bytes);
            require(std::isfinite(l.alpha) && l.alpha >= 0 && l.beta > 0, "a measured link that is free or not finite");
            require(l.alpha > 0 || l.beta < 1e300, "a collective that costs nothing");
        }
    // What the writer writes, the reader reads back the same.
    const std::string written = calibrationOverlayText(o);
    fuzz::writeScratch(path, written.data(), written.size());
    loadCalibrationOverlay(path);
}

void lecture(const std::string& text)
{
    using namespace dtsim;
    static const std::string path = fuzz::scratchPath("lecture");
    fuzz::writeScratch(path, text.data(), text.size());
    const LectureScript script = loadLectureScript(path, { "frontier", "scaling", "reliability" });
    require(!script.steps.empty(), "a lecture with no step");
    for (const LectureStep& step : script.steps)
        require(!step.preset.empty() && !step.caption.empty(), "a step without its preset or caption");
}

// A framework configuration (issue 42) in one of the five formats: imported onto the
// default base, then exported to every framework and the export imported again.
void frameworkConfig(const std::string& text, int which)
{
    using namespace dtsim;
    static const char* suffix[] = { ".json", ".sh", ".toml", ".json", ".yaml", ".txt" };
    static const ConfigFormat format[] = { ConfigFormat::HuggingFace, ConfigFormat::Megatron, ConfigFormat::Torchtitan,
        ConfigFormat::DeepSpeed, ConfigFormat::NeMo, ConfigFormat::NeMo };
    const std::string path = fuzz::scratchPath("framework") + suffix[which];
    fuzz::writeScratch(path, text.data(), text.size());
    ImportOptions o;
    o.format = format[which];
    o.shellVariables = { "MODEL_SIZE=18B" };
    const FrameworkImport imp = importFrameworkFiles({ path }, o);
    ImportInputs in;
    in.baseText = defaultImportBase();
    in.baseOrigin = "base";
    in.hardware = &fuzz::data().catalog;
    in.topologies = &fuzz::data().topologies;
    const Scenario s = importedScenario(imp, in);
    for (ExportTarget t : { ExportTarget::Megatron, ExportTarget::Torchtitan, ExportTarget::DeepSpeed, ExportTarget::NeMo }) {
        const FrameworkExport out = exportScenario(s, t);
        const std::string back = fuzz::scratchPath("export") + exportFileSuffix(t);
        fuzz::writeScratch(back, out.text.data(), out.text.size());
        in.baseText = defaultImportBase();
        importedScenario(importFrameworkFiles({ back }, {}), in);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* bytes, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string text(reinterpret_cast<const char*>(bytes) + 1, size - 1);
    dtsim::fuzz::refusalsOnly([&] {
        switch (bytes[0] % 10) {
        case 0: ncclLog(text); break;
        case 1: layerTable(text); break;
        case 2: overlay(text); break;
        case 3: lecture(text); break;
        default: frameworkConfig(text, bytes[0] % 10 - 4); break; // the last: NeMo overrides (key=value)
        }
    });
    return 0;
}
