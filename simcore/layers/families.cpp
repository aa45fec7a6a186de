#include "families.h"

#include "family_parts.h"

namespace dtsim {

using namespace family;

namespace {

struct Builtin {
    const char* name;
    LayerTable (*make)();
};

// Every built-in table, once: the names the loader accepts and what each builds.
const Builtin kBuiltins[] = {
    { "alexnet-2012", [] { return alexnet2012(); } },
    { "resnet-18", [] { return resnet(18); } },
    { "resnet-18-cifar", [] { return resnet18Cifar(); } },
    { "resnet-34", [] { return resnet(34); } },
    { "resnet-50", [] { return resnet(50); } },
    { "resnet-101", [] { return resnet(101); } },
    { "resnet-152", [] { return resnet(152); } },
    { "vgg-16", [] { return vgg16(); } },
    { "vit-b-16", [] { return vit("B", 12, 768, 12); } },
    { "vit-l-16", [] { return vit("L", 24, 1024, 16); } },
    { "bert-base", [] { return bert("Base", 12, 768, 12, 512); } },
    { "bert-large", [] { return bert("Large", 24, 1024, 16, 512); } },
    // At the mean length of MLPerf's Wikipedia set, for stacks that drop the padding
    // (unpadded or packed sequences): 512 / 2.012, the speed-up bound NVIDIA's packing
    // README prints (mlcommons/training_results_v3.0, NVIDIA bert packed_data/README.md),
    // is 254.5 tokens a sequence.
    { "bert-large-256", [] { return bert("Large", 24, 1024, 16, 256); } },
    { "t5-base", [] { return t5("Base", 12, 768, 3072, 12); } },
    { "t5-large", [] { return t5("Large", 24, 1024, 4096, 16); } },
    { "dit-xl-2", [] { return dit("XL", 28, 1152, 16, 2); } },
    { "dlrm-mlperf", [] { return dlrmMlperf(); } },
};

} // namespace

std::vector<std::string> builtinLayerTableNames()
{
    std::vector<std::string> names;
    for (const Builtin& b : kBuiltins)
        names.push_back(b.name);
    return names;
}

std::optional<LayerTable> builtinLayerTable(const std::string& name)
{
    for (const Builtin& b : kBuiltins)
        if (name == b.name)
            return b.make();
    return std::nullopt;
}

} // namespace dtsim
