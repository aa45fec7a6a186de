#pragma once
// A published run's framework text ("Megatron-LM (2021)", "NeMo 24.05", "torchtitan")
// read once into its stack family and release, so that every framework fact
// (framework_facts.cpp) asks the same parsed question instead of matching its own copy
// of the names and year patterns.
#include <string>
#include <vector>

namespace dtsim {

struct FrameworkStack {
    std::string text; // the framework field, lower case

    // Family.
    bool megatron = false;         // any Megatron: -LM, -Core, -DeepSpeed, -Bridge
    bool megatronLm = false;       // Megatron-LM itself
    bool megatronCore = false;     // names Megatron-Core
    bool deepSpeedFork = false;    // Megatron-DeepSpeed or GPT-NeoX (forks of 2021 Megatron on DeepSpeed)
    bool gptNeox = false;
    bool metaseq = false;          // Meta's OPT stack (a 2021 Megatron fork on FairScale)
    bool nemoOrBridge = false;     // NeMo or Megatron-Bridge (Megatron-Core's recipes)
    bool megatronBridge = false;
    bool pytorchNative = false;    // Composer / LLM Foundry, FMS-FSDP, PyTorch FSDP, FairScale, torchtitan
    bool torchtitan = false;
    bool xla = false;              // JAX / XLA: MaxText, PaxML, T5X, Pathways
    bool t5x = false;

    // Release.
    std::vector<int> years;        // every year (2010-2099) the text names
    std::vector<int> versions;     // every "vN" or "vN.M" major version it names
    int megatronLmMajor = 0;       // "megatron-lm v1" -> 1 (0: not stated)
    int megatronLmYear = 0;        // "megatron-lm (2020)" -> 2020 (0: not stated)
    int nemoContainer = 0;         // "nemo 26.04.01" -> 2604, year and month (0: not stated)

    bool namesYearIn(int from, int to) const;
    bool namesVersionIn(int from, int to) const;
    // Megatron-LM v1 and the stacks forked from 2021 Megatron (Megatron-DeepSpeed,
    // GPT-NeoX, metaseq): before Korthikanti et al. 2022 (partial recomputation,
    // sequence parallelism).
    bool predatesMegatron2022() const { return megatronLmMajor == 1 || deepSpeedFork || metaseq; }
};

FrameworkStack parseFrameworkStack(const std::string& framework);

// The years (2010-2099) a text names.
std::vector<int> yearsNamedIn(const std::string& text);

} // namespace dtsim
