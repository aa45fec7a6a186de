#include "families.h"

#include "family_parts.h"

namespace dtsim {

using namespace family;

std::vector<std::string> builtinLayerTableNames()
{
    return { "alexnet-2012", "resnet-18", "resnet-34", "resnet-50", "resnet-101", "resnet-152", "vgg-16", "vit-b-16", "vit-l-16",
        "bert-base", "bert-large", "bert-large-256", "t5-base", "t5-large", "dit-xl-2", "dlrm-mlperf" };
}

std::optional<LayerTable> builtinLayerTable(const std::string& name)
{
    if (name == "alexnet-2012")
        return alexnet2012();
    if (name == "vgg-16")
        return vgg16();
    if (name == "dlrm-mlperf")
        return dlrmMlperf();
    if (name == "vit-b-16")
        return vit("B", 12, 768, 12);
    if (name == "vit-l-16")
        return vit("L", 24, 1024, 16);
    if (name == "bert-base")
        return bert("Base", 12, 768, 12, 512);
    if (name == "bert-large")
        return bert("Large", 24, 1024, 16, 512);
    // At the mean length of MLPerf's Wikipedia set, for stacks that drop the padding
    // (unpadded or packed sequences): 512 / 2.012, the speed-up bound NVIDIA's packing
    // README prints (mlcommons/training_results_v3.0, NVIDIA bert packed_data/README.md),
    // is 254.5 tokens a sequence.
    if (name == "bert-large-256")
        return bert("Large", 24, 1024, 16, 256);
    if (name == "t5-base")
        return t5("Base", 12, 768, 3072, 12);
    if (name == "t5-large")
        return t5("Large", 24, 1024, 4096, 16);
    if (name == "dit-xl-2")
        return dit("XL", 28, 1152, 16, 2);
    for (int depth : { 18, 34, 50, 101, 152 })
        if (name == "resnet-" + std::to_string(depth))
            return resnet(depth);
    return std::nullopt;
}


} // namespace dtsim
