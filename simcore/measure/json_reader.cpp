#include "json_reader.h"

#include "../input_error.h"

#include <charconv>
#include <cstdio>
#include <cstring>

namespace dtsim {

const char* jsonTokenName(JsonReader::Token t)
{
    switch (t) {
    case JsonReader::Token::BeginObject: return "an object";
    case JsonReader::Token::BeginArray: return "a list";
    case JsonReader::Token::String: return "a string";
    case JsonReader::Token::Number: return "a number";
    case JsonReader::Token::True:
    case JsonReader::Token::False: return "true or false";
    case JsonReader::Token::Null: return "null";
    case JsonReader::Token::End: return "the end of the file";
    default: return "a closing bracket";
    }
}

JsonReader::JsonReader(CompressedFile& file) : m_file(file), m_buffer(1 << 20) { }

void JsonReader::fail(const std::string& field, const std::string& why) const
{
    throw InputError(m_file.path(), m_line, field, why);
}

int JsonReader::peek()
{
    if (m_pos == m_end) {
        if (m_eof)
            return -1;
        m_end = m_file.read(m_buffer.data(), m_buffer.size());
        m_pos = 0;
        if (m_end == 0) {
            m_eof = true;
            return -1;
        }
    }
    return static_cast<unsigned char>(m_buffer[m_pos]);
}

int JsonReader::get()
{
    const int c = peek();
    if (c >= 0) {
        ++m_pos;
        if (c == '\n')
            ++m_line;
    }
    return c;
}

void JsonReader::skipSpace()
{
    for (int c = peek(); c == ' ' || c == '\t' || c == '\n' || c == '\r'; c = peek())
        get();
}

void JsonReader::expect(char c, const char* what)
{
    skipSpace();
    if (get() != c)
        fail("", std::string("not JSON: expected ") + what);
}

void JsonReader::readString()
{
    m_text.clear();
    for (;;) {
        int c = get();
        if (c < 0)
            fail("", "not JSON: a string is not closed");
        if (c == '"')
            return;
        if (c < 0x20)
            fail("", "not JSON: a control character inside a string");
        if (m_text.size() >= kMaxStringBytes)
            fail("", "a string longer than " + std::to_string(kMaxStringBytes / (1 << 20)) + " MiB: no profiler trace writes one "
                "(kernel names and call stacks are kilobytes)");
        if (c != '\\') {
            m_text.push_back(char(c));
            continue;
        }
        c = get();
        switch (c) {
        case '"': case '\\': case '/': m_text.push_back(char(c)); break;
        case 'b': m_text.push_back('\b'); break;
        case 'f': m_text.push_back('\f'); break;
        case 'n': m_text.push_back('\n'); break;
        case 'r': m_text.push_back('\r'); break;
        case 't': m_text.push_back('\t'); break;
        case 'u': {
            auto hex4 = [&] {
                unsigned v = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = get();
                    const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                    if (d < 0)
                        fail("", "not JSON: a \\u escape needs four hex digits");
                    v = v * 16 + unsigned(d);
                }
                return v;
            };
            unsigned cp = hex4();
            if (cp >= 0xD800 && cp < 0xDC00) { // a surrogate pair
                if (get() != '\\' || get() != 'u')
                    fail("", "not JSON: an unpaired surrogate in a \\u escape");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4() - 0xDC00);
            }
            // UTF-8
            if (cp < 0x80) {
                m_text.push_back(char(cp));
            } else if (cp < 0x800) {
                m_text.push_back(char(0xC0 | (cp >> 6)));
                m_text.push_back(char(0x80 | (cp & 0x3F)));
            } else if (cp < 0x10000) {
                m_text.push_back(char(0xE0 | (cp >> 12)));
                m_text.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
                m_text.push_back(char(0x80 | (cp & 0x3F)));
            } else {
                m_text.push_back(char(0xF0 | (cp >> 18)));
                m_text.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
                m_text.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
                m_text.push_back(char(0x80 | (cp & 0x3F)));
            }
            break;
        }
        default: fail("", "not JSON: an unknown escape in a string");
        }
    }
}

void JsonReader::readNumber()
{
    char digits[64];
    std::size_t n = 0;
    for (int c = peek(); (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; c = peek()) {
        if (n + 1 >= sizeof digits)
            fail("", "not JSON: a number is too long");
        digits[n++] = char(get());
    }
    const auto [end, ec] = std::from_chars(digits, digits + n, m_number);
    if (ec != std::errc() || end != digits + n)
        fail("", "not JSON: \"" + std::string(digits, n) + "\" is not a number");
}

void JsonReader::readLiteral(const char* word)
{
    for (const char* w = word; *w; ++w)
        if (get() != *w)
            fail("", std::string("not JSON: expected ") + word);
}

void JsonReader::valueDone()
{
    m_afterKey = false;
    if (m_stack.empty())
        m_topDone = true;
    else
        m_stack.back().hasItem = true;
}

JsonReader::Token JsonReader::value(int c)
{
    switch (c) {
    case '{':
        get();
        m_afterKey = false;
        m_stack.push_back({ true });
        return Token::BeginObject;
    case '[':
        get();
        m_afterKey = false;
        m_stack.push_back({ false });
        return Token::BeginArray;
    case '"':
        get();
        readString();
        valueDone();
        return Token::String;
    case 't': readLiteral("true"); valueDone(); return Token::True;
    case 'f': readLiteral("false"); valueDone(); return Token::False;
    case 'n': readLiteral("null"); valueDone(); return Token::Null;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            readNumber();
            valueDone();
            return Token::Number;
        }
        if (c < 0)
            fail("", "not JSON: the file ends early");
        // A byte outside printable ASCII is shown by its value, not written raw.
        char shown[16];
        std::snprintf(shown, sizeof shown, c >= 0x20 && c < 0x7F ? "'%c'" : "byte 0x%02X", c);
        fail("", std::string("not JSON: unexpected ") + shown);
    }
}

// The first bytes say how the text is encoded: a UTF-8 byte-order mark is skipped (some
// editors write one), UTF-16 or UTF-32 is refused with what to do about it.
void JsonReader::readEncoding()
{
    m_started = true;
    const int first = peek();
    if (first == 0xEF) {
        get();
        if (get() != 0xBB || get() != 0xBF)
            fail("", "not JSON: the file starts with a byte that is neither JSON nor a UTF-8 byte-order mark");
        return;
    }
    if (first == 0xFE || first == 0xFF || first == 0)
        fail("", "the file is UTF-16 or UTF-32 text; dtsim reads JSON in UTF-8, as PyTorch's profiler writes it (convert it, for "
                 "example with iconv -f UTF-16 -t UTF-8)");
    if (first >= 0 && first < 0x20 && first != ' ' && first != '\t' && first != '\n' && first != '\r')
        fail("", "not JSON: the file starts with a control byte (binary data?)");
}

JsonReader::Token JsonReader::next()
{
    if (!m_started)
        readEncoding();
    skipSpace();
    int c = peek();
    if (m_stack.empty()) {
        if (m_topDone) {
            if (c >= 0)
                fail("", "not JSON: text after the end of the document");
            return Token::End;
        }
        return value(c);
    }
    Frame& f = m_stack.back();
    if (f.object && !m_afterKey) {
        if (c == '}') {
            get();
            m_stack.pop_back();
            valueDone();
            return Token::EndObject;
        }
        if (f.hasItem) {
            expect(',', "',' or '}'");
            skipSpace();
        }
        if (get() != '"')
            fail("", "not JSON: expected a key in quotes");
        readString();
        expect(':', "':' after a key");
        m_afterKey = true;
        return Token::Key;
    }
    if (!f.object) {
        if (c == ']') {
            get();
            m_stack.pop_back();
            valueDone();
            return Token::EndArray;
        }
        if (f.hasItem) {
            expect(',', "',' or ']'");
            skipSpace();
            c = peek();
        }
    } else {
        skipSpace();
        c = peek();
    }
    return value(c);
}

void JsonReader::skip(Token first)
{
    if (first != Token::BeginObject && first != Token::BeginArray)
        return;
    const std::size_t level = m_stack.size() - 1;
    while (m_stack.size() > level)
        if (next() == Token::End)
            fail("", "not JSON: the file ends early");
}

std::size_t countJsonValues(const std::string& path)
{
    CompressedFile file(path);
    JsonReader r(file);
    std::size_t n = 0;
    for (JsonReader::Token t = r.next(); t != JsonReader::Token::End; t = r.next())
        n += t == JsonReader::Token::String || t == JsonReader::Token::Number || t == JsonReader::Token::True
            || t == JsonReader::Token::False || t == JsonReader::Token::Null;
    return n;
}

} // namespace dtsim
