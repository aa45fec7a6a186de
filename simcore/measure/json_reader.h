#pragma once
// A streaming JSON reader: tokens one at a time, never the whole document in memory,
// so a 200 MB profiler trace is read in bounded memory. It checks the grammar (commas,
// colons, nesting) and reports problems with the file and line.
#include "compressed_file.h"

#include <string>
#include <vector>

namespace dtsim {

class JsonReader {
public:
    // Longer strings are refused: a kernel name or a call stack is kilobytes, and a
    // string of gigabytes in a small gzip file would exhaust memory.
    static constexpr std::size_t kMaxStringBytes = std::size_t(16) << 20;

    enum class Token { BeginObject, EndObject, BeginArray, EndArray, Key, String, Number, True, False, Null, End };

    explicit JsonReader(CompressedFile& file);

    Token next();
    const std::string& text() const { return m_text; } // of a Key or String
    double number() const { return m_number; }
    int line() const { return m_line; }
    std::size_t depth() const { return m_stack.size(); }
    // Skips the rest of the value that `first` began (nothing more for a scalar).
    void skip(Token first);
    [[noreturn]] void fail(const std::string& field, const std::string& why) const;
    const CompressedFile& file() const { return m_file; }

private:
    struct Frame {
        bool object;
        bool hasItem = false; // a comma must come before the next item
    };
    int peek();
    int get();
    void skipSpace();
    void expect(char c, const char* what);
    void readString();
    void readNumber();
    void readLiteral(const char* word);
    Token value(int c);
    void valueDone();
    void readEncoding();

    CompressedFile& m_file;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0, m_end = 0;
    bool m_eof = false;
    int m_line = 1;
    std::vector<Frame> m_stack;
    bool m_afterKey = false, m_topDone = false, m_started = false;
    std::string m_text;
    double m_number = 0;
};

const char* jsonTokenName(JsonReader::Token t);

// Scalar values in a JSON file, read token by token (bench: against nlohmann-json).
std::size_t countJsonValues(const std::string& path);

} // namespace dtsim
