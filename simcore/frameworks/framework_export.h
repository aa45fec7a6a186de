#pragma once
// A scenario -> a framework's launch configuration: Megatron-LM arguments (a torchrun
// line), a torchtitan TOML, a DeepSpeed JSON, NeMo recipe overrides (YAML). What the
// framework cannot express is listed, never dropped: as comments where the format has
// them, and always in `unexpressed`.
#include "../scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace dtsim {

enum class ExportTarget { Megatron, Torchtitan, DeepSpeed, NeMo };

struct FrameworkExport {
    std::string text;
    std::vector<std::string> unexpressed; // "parallel.schedule gpipe: Megatron-LM has no GPipe schedule"
};

std::optional<ExportTarget> exportTargetNamed(const std::string& name); // megatron, torchtitan, deepspeed, nemo
const char* exportTargetName(ExportTarget t);
const char* exportFileSuffix(ExportTarget t); // ".sh", ".toml", ".json", ".yaml"

// `catalogueId`: the scenario's model as a catalogue id when it is one (torchtitan
// names models by flavor), else empty.
FrameworkExport exportScenario(const Scenario& s, ExportTarget target, const std::string& catalogueId = {});

} // namespace dtsim
