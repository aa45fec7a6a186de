#include "model_catalogue_loader.h"

#include "../input_error.h"
#include "read_file.h"
#include "scenario_override.h"

#include <yaml-cpp/yaml.h>

namespace dtsim {

std::vector<CatalogueModel> loadModelCatalogue(const std::string& path)
{
    YAML::Node root;
    try {
        root = YAML::Load(readTextFile(path, "model catalogue"));
    } catch (const YAML::Exception& e) {
        throw InputError(path, e.mark.line + 1, "", "not valid YAML: " + e.msg);
    }
    if (!root["models"] || !root["models"].IsSequence())
        throw InputError(path, 1, "models", "the catalogue holds a list `models:`");
    std::vector<CatalogueModel> out;
    for (const YAML::Node& m : root["models"]) {
        const int line = m.Mark().line + 1;
        auto need = [&](const char* key) {
            if (!m[key])
                throw InputError(path, line, key, "every catalogue model has an id, name, parameters, source and model section");
            return m[key];
        };
        CatalogueModel c;
        try {
            c.id = need("id").as<std::string>();
            c.name = need("name").as<std::string>();
            c.year = m["year"] ? m["year"].as<int>() : 0;
            c.parameters = need("parameters").as<double>();
            c.activeParameters = m["active_parameters"] ? m["active_parameters"].as<double>() : c.parameters;
            c.seqLen = m["seq_len"] ? m["seq_len"].as<int>() : 0;
            c.source = need("source").as<std::string>();
            c.notes = m["notes"] ? m["notes"].as<std::string>() : "";
        } catch (const YAML::Exception& e) {
            throw InputError(path, e.mark.line + 1, c.id, "bad value: " + e.msg);
        }
        if (findCatalogueModel(out, c.id))
            throw InputError(path, line, "id", "\"" + c.id + "\" appears twice");
        YAML::Node model = YAML::Clone(need("model"));
        if (!model.IsMap())
            throw InputError(path, line, "model", "a mapping of scenario model fields");
        model["name"] = c.name;
        YAML::Emitter e;
        e << YAML::Flow << model;
        c.modelYaml = e.c_str();
        out.push_back(std::move(c));
    }
    return out;
}

const CatalogueModel* findCatalogueModel(const std::vector<CatalogueModel>& catalogue, const std::string& id)
{
    for (const CatalogueModel& m : catalogue)
        if (m.id == id)
            return &m;
    return nullptr;
}

void expandCatalogueModels(std::vector<Override>& overrides, const std::vector<CatalogueModel>& catalogue)
{
    for (Override& o : overrides) {
        if (o.path != "model" || o.value.empty() || o.value.front() == '{')
            continue;
        const CatalogueModel* m = findCatalogueModel(catalogue, o.value);
        if (!m) {
            std::string ids;
            for (const CatalogueModel& c : catalogue)
                ids += (ids.empty() ? "" : ", ") + c.id;
            throw InputError("--set model=" + o.value, 0, "model", "not in the model catalogue (" + ids + ")");
        }
        o.value = m->modelYaml;
    }
}

} // namespace dtsim
