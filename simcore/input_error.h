#pragma once
// A problem in user input, located: "file:line: field: reason". Thrown by the loaders,
// caught by the CLI (exit code 2) and the GUI (inline error).
#include <stdexcept>
#include <string>

namespace dtsim {

class InputError : public std::runtime_error {
public:
    InputError(std::string where, int line, std::string field, std::string reason)
        : std::runtime_error(format(where, line, field, reason))
        , m_where(std::move(where))
        , m_line(line)
        , m_field(std::move(field))
        , m_reason(std::move(reason))
    {
    }

    const std::string& where() const { return m_where; } // file path, or "--set"
    int line() const { return m_line; }                  // 1-based; 0 when unknown
    const std::string& field() const { return m_field; }
    const std::string& reason() const { return m_reason; }

    static std::string format(const std::string& where, int line, const std::string& field,
        const std::string& reason)
    {
        std::string s = where;
        if (line > 0)
            s += ":" + std::to_string(line);
        s += ": ";
        if (!field.empty())
            s += field + ": ";
        return s + reason;
    }

private:
    std::string m_where;
    int m_line;
    std::string m_field;
    std::string m_reason;
};

} // namespace dtsim
