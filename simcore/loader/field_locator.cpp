#include "field_locator.h"

namespace dtsim {

int FieldLocator::lineOf(const std::string& field) const
{
    std::string f = field;
    while (true) {
        if (auto it = m_lines.find(f); it != m_lines.end())
            return it->second;
        const auto cut = f.find_last_of(".[");
        if (cut == std::string::npos || cut == 0)
            return 0;
        f.resize(cut);
    }
}

const std::string* FieldLocator::overrideOf(const std::string& field) const
{
    for (const auto& [path, where] : m_overrides)
        if (field == path || field.rfind(path + ".", 0) == 0 || field.rfind(path + "[", 0) == 0)
            return &where;
    return nullptr;
}

InputError FieldLocator::error(const std::string& field, const std::string& reason, int line) const
{
    if (const std::string* where = overrideOf(field))
        return InputError(*where, 0, field, reason);
    // A section's error may come from a --set inside it ("parallel: dp*tp*... " after
    // --set parallel.dp=3): name those too.
    std::string inside;
    for (const auto& [path, where] : m_overrides)
        if (path.rfind(field + ".", 0) == 0 || path.rfind(field + "[", 0) == 0)
            inside += (inside.empty() ? " (with " : ", ") + where;
    return InputError(m_file, line > 0 ? line : lineOf(field), field, reason + (inside.empty() ? "" : inside + ")"));
}

} // namespace dtsim
