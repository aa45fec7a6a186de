// A launch script -> the flags it passes, with their lines. Scripts build their
// arguments in shell variables and arrays, choose cases with `if`, and split them over
// sourced files, so this runs a small part of the shell: assignments (scalars, arrays,
// `+=`), `${VAR:-default}`, `if`/`elif`/`else` on string tests, and `#SBATCH` lines.
// What it cannot know (a positional $1, a command's output, arithmetic) stays as the
// text `${NAME}`, so a flag with such a value is reported, never given a guess.
#include "config_document.h"
#include "shell_state.h"

#include "../input_error.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace dtsim {

namespace {

struct ShellWord {
    std::string raw;
    int line = 0;
};

struct ShellStatement {
    std::vector<ShellWord> words;
    int line = 0;
    bool sbatchDirective = false;
};

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Words and statements, as the shell splits them: quotes, ${...}, $(...) and backticks
// keep their spaces; `\` at a line's end continues it; `#` starts a comment; an array
// assignment's parentheses hold newlines.
std::vector<ShellStatement> splitStatements(const std::string& s, const std::string& file)
{
    std::vector<ShellStatement> out;
    ShellStatement cur;
    std::string word;
    int wordLine = 0, line = 1, parens = 0;
    bool inWord = false;
    auto endWord = [&] {
        if (inWord)
            cur.words.push_back({ word, wordLine });
        word.clear();
        inWord = false;
    };
    auto endStatement = [&] {
        endWord();
        if (!cur.words.empty())
            out.push_back(cur);
        cur = {};
    };
    auto startWord = [&] {
        if (!inWord) {
            inWord = true;
            wordLine = line;
            if (cur.words.empty())
                cur.line = line;
        }
    };
    std::size_t i = 0;
    const std::size_t n = s.size();
    // Copies a quoted or bracketed span into the word, counting lines.
    auto copyUntil = [&](char open, char close, bool nests) {
        int depth = 1;
        word += s[i++];
        while (i < n && depth > 0) {
            const char c = s[i];
            if (c == '\\' && open != '\'' && i + 1 < n) {
                if (s[i + 1] == '\n') { ++line; i += 2; continue; }
                word += c;
                word += s[i + 1];
                i += 2;
                continue;
            }
            if (c == '\n')
                ++line;
            if (nests && c == open && open != close)
                ++depth;
            else if (c == close)
                --depth;
            word += c;
            ++i;
        }
        if (depth > 0)
            throw InputError(file, wordLine, "", std::string("a ") + (open == '"' || open == '\'' ? "quote" : "bracket") + " opened here is never closed");
    };
    while (i < n) {
        const char c = s[i];
        if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {
            ++line;
            i += 2;
            continue;
        }
        if (c == '\n') {
            ++line;
            ++i;
            if (parens > 0) {
                endWord();
                continue;
            }
            endStatement();
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            endWord();
            ++i;
            continue;
        }
        if (c == ';' || c == '&' || c == '|') {
            if (parens > 0) { endWord(); ++i; continue; }
            endStatement();
            while (i < n && (s[i] == ';' || s[i] == '&' || s[i] == '|'))
                ++i;
            continue;
        }
        if (c == '#' && !inWord) {
            const bool lineStart = cur.words.empty() && (i == 0 || s[i - 1] == '\n');
            if (lineStart && s.compare(i, 7, "#SBATCH") == 0) {
                cur.sbatchDirective = true;
                i += 7;
                continue;
            }
            while (i < n && s[i] != '\n')
                ++i;
            continue;
        }
        if (c == '(' && !inWord && parens == 0 && cur.words.empty()) {
            ++i; // a subshell: its words are read as a statement
            continue;
        }
        if (c == '(' && inWord && !word.empty() && word.back() == '=') {
            word += '(';
            endWord();
            ++parens;
            ++i;
            continue;
        }
        if (c == ')' && parens > 0) {
            endWord();
            cur.words.push_back({ ")", line });
            --parens;
            ++i;
            continue;
        }
        startWord();
        if (c == '"') { copyUntil('"', '"', false); continue; }
        if (c == '\'') { copyUntil('\'', '\'', false); continue; }
        if (c == '`') { copyUntil('`', '`', false); continue; }
        if (c == '$' && i + 1 < n && (s[i + 1] == '{' || s[i + 1] == '(')) {
            word += '$';
            ++i;
            copyUntil(s[i], s[i] == '{' ? '}' : ')', true);
            continue;
        }
        if (c == '\\' && i + 1 < n) {
            word += s.substr(i, 2);
            i += 2;
            continue;
        }
        word += c;
        ++i;
    }
    endStatement();
    return out;
}

class ShellRunner {
public:
    ShellRunner(ShellState& state, ConfigDocument& doc) : state(state), doc(doc) {}

    void run(const std::vector<ShellStatement>& statements)
    {
        for (const ShellStatement& st : statements)
            execute(st);
    }

private:
    struct Branch {
        bool active;  // this branch runs
        bool taken;   // some branch of this if already ran
        bool outerActive;
    };

    bool active() const { return branches.empty() || branches.back().active; }

    std::string lookup(const std::string& name, const std::string& fallback, bool hasFallback)
    {
        auto it = state.variables.find(name);
        if (it != state.variables.end() && !it->second.empty())
            return it->second;
        if (hasFallback)
            return expand(fallback);
        return "${" + name + "}";
    }

    // Quote removal and parameter expansion of one word (or piece of one).
    std::string expand(const std::string& w)
    {
        std::string out;
        bool single = false, dbl = false;
        for (std::size_t i = 0; i < w.size(); ++i) {
            const char c = w[i];
            if (single) {
                if (c == '\'') single = false; else out += c;
                continue;
            }
            if (c == '\'' && !dbl) { single = true; continue; }
            if (c == '"') { dbl = !dbl; continue; }
            if (c == '\\' && i + 1 < w.size()) { out += w[++i]; continue; }
            if (c == '`') { // command output: unknown
                const auto end = w.find('`', i + 1);
                out += "${command}";
                i = end == std::string::npos ? w.size() : end;
                continue;
            }
            if (c != '$' || i + 1 >= w.size()) { out += c; continue; }
            const char d = w[i + 1];
            if (d == '(') { // $(...) or $((...)): unknown
                int depth = 0;
                std::size_t j = i + 1;
                for (; j < w.size(); ++j) {
                    if (w[j] == '(') ++depth;
                    else if (w[j] == ')' && --depth == 0) break;
                }
                out += "${command}";
                i = j;
                continue;
            }
            if (d == '{') {
                int depth = 0;
                std::size_t j = i + 1;
                for (; j < w.size(); ++j) {
                    if (w[j] == '{') ++depth;
                    else if (w[j] == '}' && --depth == 0) break;
                }
                std::string inner = w.substr(i + 2, j - i - 2);
                i = j;
                std::string name, fallback;
                bool hasFallback = false;
                std::size_t k = 0;
                while (k < inner.size() && isNameChar(inner[k]))
                    ++k;
                name = inner.substr(0, k);
                std::string rest = inner.substr(k);
                if (rest.rfind("[@]", 0) == 0 || rest.rfind("[*]", 0) == 0)
                    rest = rest.substr(3);
                if (rest.rfind(":-", 0) == 0 || rest.rfind(":=", 0) == 0)
                    fallback = rest.substr(2), hasFallback = true;
                else if (rest.rfind("-", 0) == 0 || rest.rfind("=", 0) == 0)
                    fallback = rest.substr(1), hasFallback = true;
                out += lookup(name, fallback, hasFallback);
                continue;
            }
            std::size_t k = i + 1;
            if (std::isdigit(static_cast<unsigned char>(d)))
                k = i + 2;
            else
                while (k < w.size() && isNameChar(w[k]))
                    ++k;
            if (k == i + 1) { out += c; continue; }
            out += lookup(w.substr(i + 1, k - i - 1), "", false);
            i = k - 1;
        }
        return out;
    }

    // A word's whitespace-separated pieces (quotes and brackets kept whole), each with
    // its own line, each expanded and split again: the tokens a program would receive,
    // as far as flags go.
    std::vector<std::pair<std::string, int>> tokens(const ShellWord& word)
    {
        std::vector<std::pair<std::string, int>> out;
        std::string piece;
        int line = word.line, pieceLine = word.line, depth = 0;
        bool single = false;
        auto flush = [&] {
            if (piece.empty())
                return;
            std::string value = expand(piece);
            std::size_t p = 0;
            while (p < value.size()) {
                while (p < value.size() && std::isspace(static_cast<unsigned char>(value[p])))
                    ++p;
                std::size_t e = p;
                while (e < value.size() && !std::isspace(static_cast<unsigned char>(value[e])))
                    ++e;
                if (e > p)
                    out.emplace_back(value.substr(p, e - p), pieceLine);
                p = e;
            }
            piece.clear();
        };
        for (std::size_t i = 0; i < word.raw.size(); ++i) {
            const char c = word.raw[i];
            if (c == '\'' && depth == 0)
                single = !single;
            if (!single && (c == '{' || c == '(') && i > 0 && word.raw[i - 1] == '$')
                ++depth;
            else if (!single && depth > 0 && (c == '}' || c == ')'))
                --depth;
            if (c == '\n')
                ++line;
            if (std::isspace(static_cast<unsigned char>(c)) && depth == 0 && !single) {
                // Keep the double quotes balanced in each piece.
                const bool openQuote = std::count(piece.begin(), piece.end(), '"') % 2 == 1;
                if (openQuote)
                    piece += '"';
                flush();
                if (openQuote)
                    piece = "\"";
                pieceLine = line;
                continue;
            }
            if (piece.empty() || piece == "\"")
                pieceLine = line;
            piece += c;
        }
        flush();
        return out;
    }

    void scan(const std::vector<std::pair<std::string, int>>& toks)
    {
        for (std::size_t i = 0; i < toks.size(); ++i) {
            const std::string& t = toks[i].first;
            if (t.size() < 3 || t.rfind("--", 0) != 0)
                continue;
            std::string key = t, value;
            bool hasValue = false;
            if (const auto eq = t.find('='); eq != std::string::npos) {
                key = t.substr(0, eq);
                value = t.substr(eq + 1);
                hasValue = true;
            } else if (i + 1 < toks.size() && toks[i + 1].first.rfind("--", 0) != 0) {
                value = toks[i + 1].first; // the importer decides whether the flag takes it
                hasValue = true;
            }
            ConfigValue v { key, hasValue ? value : "", hasValue ? ConfigValue::Kind::Text : ConfigValue::Kind::Empty, toks[i].second, {} };
            bool seen = false;
            for (const ConfigValue& old : doc.values)
                seen = seen || (old.key == v.key && old.text == v.text && old.kind == v.kind);
            if (!seen)
                doc.values.push_back(v);
        }
    }

    bool evalTest(std::vector<std::string> w, int line)
    {
        if (!w.empty() && (w.front() == "[" || w.front() == "[["))
            w.erase(w.begin());
        if (!w.empty() && (w.back() == "]" || w.back() == "]]"))
            w.pop_back();
        bool negate = false;
        if (!w.empty() && w.front() == "!")
            negate = true, w.erase(w.begin());
        bool result = false, known = true;
        auto unknown = [](const std::string& s) { return s.find("${") != std::string::npos; };
        if (w.size() == 3 && (w[1] == "==" || w[1] == "=" || w[1] == "!=")) {
            known = !unknown(w[0]) && !unknown(w[2]);
            result = (w[0] == w[2]) == (w[1] != "!=");
        } else if (w.size() == 2 && (w[0] == "-z" || w[0] == "-n")) {
            known = !unknown(w[1]);
            result = w[1].empty() == (w[0] == "-z");
        } else if (w.size() == 1) {
            known = !unknown(w[0]);
            result = !w[0].empty();
        } else
            known = false;
        if (!known) {
            doc.values.push_back({ "(condition)", "", ConfigValue::Kind::Empty, line, {} });
            return false;
        }
        return result != negate;
    }

    // `[ a == b ] || [[ c == d ]]`: the tests of one if-line, joined left to right.
    bool evalCondition(const ShellStatement& st, std::size_t from)
    {
        bool value = false;
        std::string join = "||";
        std::vector<std::string> test;
        auto finish = [&] {
            if (test.empty())
                return;
            const bool t = evalTest(test, st.line);
            value = join == "||" ? (value || t) : (value && t);
            test.clear();
        };
        for (std::size_t i = from; i < st.words.size(); ++i) {
            const std::string& raw = st.words[i].raw;
            if (raw == "then")
                break;
            if (raw == "||" || raw == "&&") {
                finish();
                join = raw;
                continue;
            }
            test.push_back(expand(raw));
        }
        finish();
        return value;
    }

    void assign(const ShellStatement& st, std::size_t at)
    {
        const std::string& raw = st.words[at].raw;
        const auto eq = raw.find('=');
        const bool append = eq > 0 && raw[eq - 1] == '+';
        const std::string name = raw.substr(0, append ? eq - 1 : eq);
        std::string value;
        std::vector<std::pair<std::string, int>> toks;
        if (raw.size() == eq + 2 && raw.back() == '(') { // an array: its items up to ")"
            for (std::size_t i = at + 1; i < st.words.size() && st.words[i].raw != ")"; ++i) {
                const auto t = tokens(st.words[i]);
                toks.insert(toks.end(), t.begin(), t.end());
                value += (value.empty() ? "" : " ") + expand(st.words[i].raw);
            }
        } else {
            const ShellWord w { raw.substr(eq + 1), st.words[at].line };
            toks = tokens(w);
            value = expand(w.raw);
        }
        scan(toks);
        if (state.fixed.count(name))
            return; // set on the command line
        std::string& slot = state.variables[name];
        slot = append && !slot.empty() ? slot + " " + value : value;
    }

    static bool isAssignment(const std::string& w)
    {
        const auto eq = w.find('=');
        if (eq == std::string::npos || eq == 0)
            return false;
        const std::size_t end = w[eq - 1] == '+' ? eq - 1 : eq;
        if (end == 0 || std::isdigit(static_cast<unsigned char>(w[0])))
            return false;
        for (std::size_t i = 0; i < end; ++i)
            if (!isNameChar(w[i]))
                return false;
        return true;
    }

    void execute(const ShellStatement& st)
    {
        std::size_t at = 0;
        while (at < st.words.size() && (st.words[at].raw == "then" || st.words[at].raw == "do"))
            ++at;
        if (at >= st.words.size())
            return;
        const std::string& first = st.words[at].raw;
        if (first == "if") {
            const bool outer = active();
            const bool cond = outer && evalCondition(st, at + 1);
            branches.push_back({ cond, cond, outer });
            return;
        }
        if (first == "elif" && !branches.empty()) {
            Branch& b = branches.back();
            const bool cond = b.outerActive && !b.taken && evalCondition(st, at + 1);
            b.active = cond;
            b.taken = b.taken || cond;
            return;
        }
        if (first == "else" && !branches.empty()) {
            Branch& b = branches.back();
            b.active = b.outerActive && !b.taken;
            b.taken = true;
            if (at + 1 < st.words.size()) {
                ShellStatement rest { { st.words.begin() + long(at) + 1, st.words.end() }, st.line, false };
                execute(rest);
            }
            return;
        }
        if (first == "fi") {
            if (!branches.empty())
                branches.pop_back();
            return;
        }
        if (!active())
            return;
        if (st.sbatchDirective) {
            std::vector<std::pair<std::string, int>> toks;
            for (const ShellWord& w : st.words)
                for (const auto& t : tokens(w))
                    toks.push_back(t);
            scan(toks);
            return;
        }
        if (first == "export" || first == "local" || first == "declare" || first == "readonly")
            ++at;
        if (at < st.words.size() && isAssignment(st.words[at].raw)) {
            assign(st, at);
            return;
        }
        // A command: its flags count when it launches training (a Python program, a
        // launcher, a batch job).
        bool launches = false;
        for (std::size_t i = at; i < st.words.size(); ++i) {
            const std::string w = expand(st.words[i].raw);
            launches = launches || w == "torchrun" || w.rfind("python", 0) == 0 || w == "srun" || w == "sbatch" || w == "deepspeed"
                || w == "mpirun" || (w.size() > 3 && w.substr(w.size() - 3) == ".py");
        }
        if (!launches)
            return;
        std::vector<std::pair<std::string, int>> toks;
        for (std::size_t i = at; i < st.words.size(); ++i)
            for (const auto& t : tokens(st.words[i]))
                toks.push_back(t);
        scan(toks);
    }

    ShellState& state;
    ConfigDocument& doc;
    std::vector<Branch> branches;
};

} // namespace

ConfigDocument readShellDocument(const std::string& path, const std::string& text, ShellState& state)
{
    ConfigDocument doc;
    doc.file = path;
    doc.format = ConfigFormat::Megatron;
    ShellRunner shell(state, doc);
    shell.run(splitStatements(text, path));
    return doc;
}

} // namespace dtsim
