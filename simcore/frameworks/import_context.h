#pragma once
// What each format's importer shares: reading a value as the kind its key needs, and
// recording a setting, a note or a refusal with the value's file, line and key.
#include "framework_import.h"
#include "../input_error.h"

#include <functional>
#include <map>
#include <string>

namespace dtsim {

class ImportContext {
public:
    ImportContext(const ConfigDocument& doc, FrameworkImport& out) : doc(doc), m_out(out) {}

    ImportOrigin origin(const ConfigValue& v) const { return { v.file.empty() ? doc.file : v.file, v.line, v.key }; }
    void set(const ConfigValue& v, const std::string& field, const std::string& value, bool soft = false)
    {
        m_out.settings.push_back({ field, value, origin(v), soft });
    }
    // A framework default that the file relies on by leaving the key out.
    void setDefault(const std::string& field, const std::string& value, const std::string& because)
    {
        m_out.settings.push_back({ field, value, { doc.file, 0, because }, true });
    }
    void note(const ConfigValue& v, const std::string& reason) { m_out.notes.push_back({ origin(v), reason }); }
    [[noreturn]] void refuse(const ConfigValue& v, const std::string& why) const;
    [[noreturn]] void unknown(const ConfigValue& v, const std::string& what) const;

    long long integer(const ConfigValue& v, long long min = 1) const;
    double number(const ConfigValue& v) const;
    bool flag(const ConfigValue& v) const; // true/false (a bare switch is true)
    std::string text(const ConfigValue& v) const;

    const ConfigDocument& doc;
    FrameworkImport& out() const { return m_out; }
    // Runs `map` on one value; a value it neither sets nor notes gets `otherwise` as its
    // note, so nothing of a file is dropped without a word.
    template <typename Map>
    void traced(const ConfigValue& v, const std::string& otherwise, Map&& map)
    {
        const std::size_t before = traces();
        map();
        if (traces() == before)
            note(v, otherwise);
    }

private:
    std::size_t traces() const { return m_out.settings.size() + m_out.notes.size(); }

    FrameworkImport& m_out;
};

// Keys a format knows but dtsim does not model, by the reason (shared text per group).
struct IgnoredKeys {
    std::map<std::string, std::string> reasons; // key -> reason
    void add(const std::string& reason, std::initializer_list<const char*> keys)
    {
        for (const char* k : keys)
            reasons[k] = reason;
    }
    const std::string* find(const std::string& key) const
    {
        auto it = reasons.find(key);
        return it == reasons.end() ? nullptr : &it->second;
    }
};

std::string lowerText(std::string s);

void importHuggingFace(ImportContext& c);
void importMegatron(ImportContext& c);
void importTorchtitan(ImportContext& c);
void importDeepSpeed(ImportContext& c);
void importNeMo(ImportContext& c);
void importNeMoResolved(ImportContext& c); // after OmegaConf interpolation

} // namespace dtsim
