// JSON -> located values, through nlohmann-json's SAX interface. The parser reads its
// input through an iterator that publishes how far it has read, so each key gets the
// line it ends on (nlohmann-json 3.11 gives positions only to errors).
#include "config_document.h"

#include "../input_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace dtsim {

namespace {

// A character iterator that records the furthest position read in shared state.
struct TrackedIterator {
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    const char* at = nullptr;
    const char** furthest = nullptr;

    reference operator*() const { return *at; }
    TrackedIterator& operator++()
    {
        ++at;
        if (at > *furthest)
            *furthest = at;
        return *this;
    }
    TrackedIterator operator++(int)
    {
        TrackedIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const TrackedIterator& o) const { return at == o.at; }
};

class LineIndex {
public:
    explicit LineIndex(const std::string& text)
    {
        starts.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n')
                starts.push_back(i + 1);
    }
    int lineOf(std::size_t offset) const
    {
        return int(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
    }

private:
    std::vector<std::size_t> starts;
};

class LocatedValues : public nlohmann::json_sax<nlohmann::json> {
public:
    LocatedValues(ConfigDocument& doc, const std::string& text, const char** furthest)
        : doc(doc), base(text.data()), furthest(furthest), lines(text)
    {
    }

    bool null() override { return leaf("null", ConfigValue::Kind::Null); }
    bool boolean(bool v) override { return leaf(v ? "true" : "false", ConfigValue::Kind::Bool); }
    bool number_integer(number_integer_t v) override { return leaf(std::to_string(v), ConfigValue::Kind::Number); }
    bool number_unsigned(number_unsigned_t v) override { return leaf(std::to_string(v), ConfigValue::Kind::Number); }
    bool number_float(number_float_t, const string_t& s) override { return leaf(s, ConfigValue::Kind::Number); }
    bool string(string_t& s) override { return leaf(s, ConfigValue::Kind::Text); }
    bool binary(binary_t&) override { return leaf("", ConfigValue::Kind::Text); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override
    {
        Frame& f = frames.back();
        f.key = k;
        f.keyLine = lineNow(0);
        const std::string path = childPath();
        for (const std::string& seen : f.keys)
            if (seen == k)
                throw InputError(doc.file, f.keyLine, path, "the key appears twice in one object (JSON readers keep only one of them)");
        f.keys.push_back(k);
        return true;
    }
    bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) override
    {
        std::string why = e.what();
        if (const auto at = why.find("syntax error while parsing"); at != std::string::npos)
            why = why.substr(at);
        throw InputError(doc.file, lines.lineOf(position > 0 ? position - 1 : 0), "",
            "not valid JSON near \"" + token.substr(0, 40) + "\": " + why);
    }

private:
    struct Frame {
        std::string path;
        bool array = false;
        int index = 0;
        std::string key;
        int keyLine = 0;
        int children = 0;
        int line = 0;
        std::vector<std::string> keys;
    };

    int lineNow(int back) const
    {
        const std::size_t offset = std::size_t(*furthest - base);
        return lines.lineOf(offset > std::size_t(back) ? offset - back : 0);
    }
    std::string childPath()
    {
        if (frames.empty())
            return {};
        const Frame& f = frames.back();
        if (f.array)
            return f.path + "[" + std::to_string(f.index) + "]";
        return f.path.empty() ? f.key : f.path + "." + f.key;
    }
    int childLine() const
    {
        if (frames.empty())
            return 1;
        const Frame& f = frames.back();
        return f.array ? lineNow(2) : f.keyLine;
    }
    void advance()
    {
        if (frames.empty())
            return;
        ++frames.back().children;
        if (frames.back().array)
            ++frames.back().index;
    }
    bool leaf(std::string text, ConfigValue::Kind kind)
    {
        if (frames.empty())
            throw InputError(doc.file, 1, "", "a configuration file holds a JSON object, not a single value");
        doc.values.push_back({ childPath(), std::move(text), kind, childLine(), {} });
        advance();
        return true;
    }
    bool open(bool array)
    {
        Frame f;
        f.path = childPath();
        f.line = childLine();
        f.array = array;
        if (frames.empty() && array)
            throw InputError(doc.file, 1, "", "a configuration file holds a JSON object, not a list");
        advance();
        frames.push_back(std::move(f));
        return true;
    }
    bool close()
    {
        const Frame f = frames.back();
        frames.pop_back();
        if (f.children == 0 && !frames.empty())
            doc.values.push_back({ f.path, "", ConfigValue::Kind::Empty, f.line, {} });
        return true;
    }

    ConfigDocument& doc;
    const char* base;
    const char** furthest;
    LineIndex lines;
    std::vector<Frame> frames;
};

} // namespace

std::size_t countJsonValuesStreamed(const std::string& path)
{
    struct Count : nlohmann::json_sax<nlohmann::json> {
        std::size_t n = 0;
        bool null() override { return ++n; }
        bool boolean(bool) override { return ++n; }
        bool number_integer(number_integer_t) override { return ++n; }
        bool number_unsigned(number_unsigned_t) override { return ++n; }
        bool number_float(number_float_t, const string_t&) override { return ++n; }
        bool string(string_t&) override { return ++n; }
        bool binary(binary_t&) override { return ++n; }
        bool start_object(std::size_t) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool key(string_t&) override { return true; }
        bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
    } sax;
    std::ifstream in(path, std::ios::binary);
    nlohmann::json::sax_parse(in, &sax);
    return sax.n;
}

ConfigDocument readJsonDocument(const std::string& path, const std::string& text, ConfigFormat format)
{
    ConfigDocument doc;
    doc.file = path;
    doc.format = format;
    const char* furthest = text.data();
    TrackedIterator first { text.data(), &furthest };
    TrackedIterator last { text.data() + text.size(), &furthest };
    LocatedValues sax(doc, text, &furthest);
    nlohmann::json::sax_parse(first, last, &sax);
    return doc;
}

} // namespace dtsim
