#pragma once
// resources/models/catalogue.yaml: public models' dimensions, each with its source, so
// that a what-if can start from a real model (`--set model=llama-3.1-8b`, the parameter
// panel's model list, torchtitan's model flavors).
#include <string>
#include <vector>

namespace dtsim {

struct CatalogueModel {
    std::string id;   // "llama-3.1-8b"
    std::string name; // "Llama 3.1 8B"
    int year = 0;
    double parameters = 0;       // published total
    double activeParameters = 0; // published per token
    int seqLen = 0;              // pre-training sequence length
    std::string source;
    std::string notes;           // what dtsim cannot express of it
    std::string modelYaml;       // the scenario `model` section, flow style, with its name
};

std::vector<CatalogueModel> loadModelCatalogue(const std::string& path);

const CatalogueModel* findCatalogueModel(const std::vector<CatalogueModel>& catalogue, const std::string& id);

// `--set model=ID`: the override's value becomes the catalogue model's section. Other
// overrides pass unchanged; an unknown id is an InputError listing the catalogue.
struct Override;
void expandCatalogueModels(std::vector<Override>& overrides, const std::vector<CatalogueModel>& catalogue);

} // namespace dtsim
