#!/usr/bin/env python3
"""Lists every production function body longer than the limit (issue 43: 150 lines).

Usage: function_length.py [--limit N] [ROOT | FILE...]

Scans the C++ sources (*.cpp, *.h) under simcore/, widgets/ and app/ of ROOT (default:
the repository this script is in), or the files given, and prints

    file:line: function is N lines (limit 150)

for each function longer than the limit, `line` being the line of its name and N the
lines from its opening brace to its closing one. Exits 1 when there is any, else 0.

It reads C++ the way a brace counter can, no more. Comments, string literals (raw
strings included), character literals and preprocessor lines are blanked first, so no
brace inside them counts. Then, outside any function, each `{` is classified by the text
before it (back to the previous `;`, `{` or `}`):
  - namespace, class, struct, union, enum or extern "C": a scope, whose contents are
    classified the same way;
  - a parameter list's `)`, optionally followed by const, noexcept, override, final,
    mutable, `&`, `&&`, attributes or a trailing `-> type`: a function body;
  - a constructor's member-initializer list (`) : a(x), b{y}`): a function body (a
    `{` inside the list is a member's initializer, not the body);
  - anything else (an initializer list): neither, and its contents are classified.
Everything inside a function body counts as part of it, lambdas and local classes too.
"""
import os
import re
import sys

LIMIT = 150
SOURCE_DIRS = ("simcore", "widgets", "app")
SOURCE_EXTENSIONS = (".cpp", ".h")

IDENTIFIER_CHAR = re.compile(r"[A-Za-z0-9_]")
LITERAL_PREFIXES = ("u8", "u", "U", "L")


def _blank(text):
    """`text` with every character but the line breaks turned into a space."""
    return re.sub(r"[^\n]", " ", text)


def _word_before(src, i):
    """The identifier or number that ends just before position `i`."""
    j = i
    while j > 0 and IDENTIFIER_CHAR.match(src[j - 1]):
        j -= 1
    return src[j:i]


def _skip_quoted(src, i, quote):
    """The position just past the literal opening with `quote` at `i`."""
    n = len(src)
    j = i + 1
    while j < n and src[j] != quote:
        if src[j] == "\\":
            j += 1
        elif src[j] == "\n":
            break  # an unterminated literal ends at the line's end (as a compiler would complain)
        j += 1
    return min(j + 1, n)


def strip_code(src):
    """`src` with comments, literals and preprocessor lines blanked; line breaks kept."""
    out = []
    i, n = 0, len(src)
    line_start = True  # only blanks since the last line break
    while i < n:
        c = src[i]
        if c == "\n":
            out.append(c)
            i += 1
            line_start = True
            continue
        if line_start and c == "#":
            # A directive, continued over lines that end with a backslash.
            j = i
            while True:
                k = src.find("\n", j)
                if k < 0:
                    k = n
                    break
                if src[k - 1] != "\\":
                    break
                j = k + 1
            out.append(_blank(src[i:k]))
            i = k
            continue
        if not c.isspace():
            line_start = False
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(_blank(src[i:j]))
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(_blank(src[i:j]))
            i = j
        elif c == "R" and src.startswith('R"', i) and _word_before(src, i) in ("",) + LITERAL_PREFIXES:
            # A raw string: R"delim( ... )delim", with no escapes inside.
            m = re.match(r'R"([^()\\\s]{0,16})\(', src[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            j = src.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            out.append(_blank(src[i:j]))
            i = j
        elif c == '"':
            j = _skip_quoted(src, i, '"')
            out.append(_blank(src[i:j]))
            i = j
        elif c == "'":
            word = _word_before(src, i)
            if word and word[0].isdigit():
                out.append(" ")  # a digit separator: 200'000'000
                i += 1
                continue
            j = _skip_quoted(src, i, "'")
            out.append(_blank(src[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^;{}()]*$|\bextern\s*$")
# What may follow a function's parameter list before its body.
QUALIFIERS = r"(?:\s|const\b|volatile\b|noexcept\b(?:\s*\([^()]*\))?|override\b|final\b|mutable\b|&&?|\[\[[^\]]*\]\]|->[^{;]*)*"
FUNCTION = re.compile(r"\)" + QUALIFIERS + r"$")
CONTROL = re.compile(r"^\s*(?:else\s+)?(?:if|for|while|switch|catch)\s*\(")
# `) :` (not `::`) opens a member-initializer list.
CONSTRUCTOR_INIT = re.compile(r"\)\s*(?:noexcept\b\s*)?:(?!:)")


def _matching_open(text, close):
    """Position of the `(` matching the `)` at `close`, or -1."""
    depth = 0
    for k in range(close, -1, -1):
        if text[k] == ")":
            depth += 1
        elif text[k] == "(":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _classify(header):
    """'scope', 'function', 'init' (a member's brace initializer) or 'other'."""
    if SCOPE.search(header):
        return "scope"
    init = CONSTRUCTOR_INIT.search(header)
    if init:
        tail = header.rstrip()
        # The body follows the last initializer's `)` or `}`; after a member's name, the
        # brace is that member's initializer.
        return "function" if tail.endswith((")", "}")) else "init"
    if FUNCTION.search(header) and not CONTROL.search(header):
        return "function"
    return "other"


def _name_position(code, header_start, header_end):
    """Where the function's name starts: before the parameter list's `(`."""
    header = code[header_start:header_end]
    # The parameter list's `)`: the first one followed only by qualifiers, or by `:`.
    found = CONSTRUCTOR_INIT.search(header) or FUNCTION.search(header)
    if not found:
        return header_end
    open_paren = _matching_open(header, found.start())
    if open_paren < 0:
        return header_end
    k = open_paren
    while k > 0 and header[k - 1].isspace():
        k -= 1
    while k > 0 and (IDENTIFIER_CHAR.match(header[k - 1]) or header[k - 1] in ":~<>=!+-*/%^&|[]"):
        k -= 1
    return header_start + k


def long_functions(path, limit):
    """(line, length) of each function in `path` longer than `limit` lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    found = []
    stack = []  # (kind, line of the brace, line of the name)
    header_start = 0
    line = 1
    in_function = 0  # open braces at or inside a function body
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            if in_function:
                in_function += 1
                stack.append(("inner", line, 0))
                header_start = i + 1
                continue
            kind = _classify(code[header_start:i])
            name_line = line
            if kind == "function":
                name_line = code.count("\n", 0, _name_position(code, header_start, i)) + 1
                in_function = 1
            stack.append((kind, line, name_line))
            if kind != "init":
                header_start = i + 1
        elif c == "}":
            if not stack:
                continue
            kind, opened, name_line = stack.pop()
            if in_function:
                in_function -= 1
            if kind == "function":
                length = line - opened + 1
                if length > limit:
                    found.append((name_line, length))
            if kind != "init":
                header_start = i + 1
        elif c == ";":
            header_start = i + 1
    return found


def source_files(root):
    for top in SOURCE_DIRS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_EXTENSIONS):
                    yield os.path.join(folder, name)


def main(argv):
    args = list(argv[1:])
    limit = LIMIT
    if len(args) >= 2 and args[0] == "--limit":
        limit = int(args[1])
        args = args[2:]
    if len(args) == 1 and os.path.isdir(args[0]):
        root, files = args[0], None
    elif args:
        root, files = ".", args
    else:
        root, files = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), None
    if files is None:
        files = list(source_files(root))
        if not files:
            print(f"no C++ sources under {root}/{{{','.join(SOURCE_DIRS)}}}", file=sys.stderr)
            return 2
    bad = 0
    for path in files:
        shown = os.path.relpath(path, root)
        for name_line, length in long_functions(path, limit):
            print(f"{shown}:{name_line}: function is {length} lines (limit {limit})")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
