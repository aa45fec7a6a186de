#pragma once
// Where the fields of a loaded file came from: the line of each key, and which fields
// (or sections) a command-line --set wrote. The loader's own errors use it, and so do
// checks made after loading (an engine limit, an unknown cost region), so that every
// message points at the same place: "file:line: field: reason" or "--set a.b=c: ...".
#include "../input_error.h"

#include <map>
#include <string>

namespace dtsim {

class FieldLocator {
public:
    explicit FieldLocator(std::string file = {}) : m_file(std::move(file)) {}

    const std::string& file() const { return m_file; }

    void recordLine(const std::string& field, int line) { m_lines[field] = line; }
    // The key's own line, or else its nearest recorded parent's; 0 when unknown.
    int lineOf(const std::string& field) const;
    bool hasLine(const std::string& field) const { return m_lines.count(field) > 0; }

    // `field` (and everything under it) was written by `where`, e.g. "--set a.b=1".
    void markOverride(const std::string& field, const std::string& where) { m_overrides[field] = where; }
    // The --set that wrote `field` or a section holding it; nullptr when the file did.
    const std::string* overrideOf(const std::string& field) const;

    // The error for `field`, located: at the --set that wrote it, else at `line` (when
    // positive), else at the field's recorded line.
    InputError error(const std::string& field, const std::string& reason, int line = 0) const;
    [[noreturn]] void fail(const std::string& field, const std::string& reason) const { throw error(field, reason); }

private:
    std::string m_file;
    std::map<std::string, int> m_lines;
    std::map<std::string, std::string> m_overrides;
};

} // namespace dtsim
