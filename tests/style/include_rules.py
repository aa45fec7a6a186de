#!/usr/bin/env python3
"""The include rules of simcore/ (simcore/README.md, "What simcore may include"), checked.

Usage: include_rules.py [--simcore-only] [--cmake-rooms FILE] [--stamp FILE] [--graph] [ROOT]

simcore is built as one static library per room (simcore/CMakeLists.txt). ROOMS below
says which files each room holds, which rooms' headers it may include (the rooms it
links) and which outside libraries' headers it may include. The compiler cannot hold a
room to that: simcore includes its own headers by relative path ("../step.h"), which the
compiler resolves from the including file whatever the include path, and yaml-cpp, zlib,
nlohmann-json and toml++ all live in /usr/include, which every compile sees. So this
script does, for every file under simcore/ (ROOT defaults to the repository this script
is in):

  - the file belongs to a room (FILES);
  - a quoted include names a file under simcore/, by a path relative to the including
    file: never Qt, widgets/, app/ or anything else outside simcore/;
  - that file is in the same room or in a room this one uses;
  - an angled include is the C++ standard library (<vector>, <cmath>: lower-case, no
    '.h', no '/') or a header of a library the room may use (LIBRARIES);
  - a header included from another room does not bring, through its own includes, a
    library that the including room may not use (the libraries are linked PRIVATE).

Unless --simcore-only, the last rule also holds for the files of app/, widgets/ and
tests/: a simcore header they include must not bring yaml-cpp, zlib, nlohmann-json or
toml++ (their own direct includes of those are theirs to link).

With --cmake-rooms, the JSON that simcore/CMakeLists.txt writes at configure time
(build/simcore/rooms.json), it also checks that CMake builds the same rooms: each room's
.cpp files are the ones FILES gives it, each room links exactly the rooms it uses (PUBLIC
where its headers include theirs) and the libraries it may use (PRIVATE, but for
Threads). The rooms' uses must form a DAG. The build runs it so (the target simcore_include_rules, which every room depends
on), so that a broken rule fails the build; ctest runs it as `include_rules`.

Prints "file:line: reason" for each broken rule and exits 1, else exits 0 (writing the
--stamp file). --graph prints which room includes which (with an example include) and
exits.
"""
import fnmatch
import json
import os
import re
import sys

# Which room a file under simcore/ belongs to: the first pattern that matches its path.
# A pattern without '/' matches only the files directly in simcore/.
FILES = [
    ("layers/layer_step.*", "engine"),  # the step of a layer table: one cycle with step.cpp
    ("layers/*", "core"),  # the layer tables themselves (model.h holds one)
    ("step*", "engine"),
    ("memory.*", "engine"),
    ("recompute_plan.*", "engine"),
    ("eager_autocast.*", "engine"),
    ("offload.*", "engine"),
    ("report.h", "engine"),
    ("explain.*", "engine"),
    ("report_check.*", "analysis"),
    ("scenario_limits.*", "fields"),
    ("fields/*", "fields"),
    ("timeline/*", "timeline"),
    ("reliability/*", "reliability"),
    ("planner/*", "planner"),
    ("cost/*", "planner"),
    ("sched/*", "sched"),
    ("analysis/*", "analysis"),
    ("io/*", "io"),
    ("loader/*", "loader"),
    ("measure/*", "measure"),
    ("validation/*", "validation"),
    ("study/*", "study"),
    ("frameworks/*", "frameworks"),
    ("*", "core"),
]

# room: (the rooms whose headers it may include, the libraries whose headers it may include)
# Each room is the CMake target simcore_<room>, linking those rooms (PUBLIC where its
# headers include theirs) and those libraries (PRIVATE). Keep simcore/README.md's table
# the same.
ROOMS = {
    "core": ([], ["threads"]),
    "engine": (["core"], []),
    "timeline": (["core", "engine"], []),
    "reliability": (["core", "engine"], []),
    "planner": (["core", "engine", "reliability"], []),
    "sched": (["core", "engine", "reliability"], []),
    "analysis": (["core", "engine", "planner", "reliability", "timeline"], []),
    "fields": (["core", "sched"], []),
    "io": ([], ["posix"]),
    "loader": (["core", "fields", "planner", "reliability"], ["yaml-cpp"]),
    "measure": (["core", "engine", "loader"], ["zlib"]),
    "validation": (["analysis", "core", "engine", "fields", "loader", "measure"], []),
    "study": (["analysis", "core", "engine", "fields", "loader", "planner", "validation"], []),
    "frameworks": (["core", "loader"], ["yaml-cpp", "nlohmann-json", "toml++"]),
}

# library: (how its headers are included, its CMake target or None)
LIBRARIES = {
    "yaml-cpp": (["yaml-cpp/"], "yaml-cpp"),
    "zlib": (["zlib.h"], "ZLIB::ZLIB"),
    "nlohmann-json": (["nlohmann/"], "nlohmann_json::nlohmann_json"),
    "toml++": (["toml++/"], "tomlplusplus::tomlplusplus"),
    "posix": (["fcntl.h", "unistd.h", "sys/"], None),
    "threads": ([], "Threads::Threads"),  # <thread> is the standard library's; core's parallel_for.h uses it
}

CONSUMER_DIRS = ("app", "widgets", "tests")
SOURCE_EXTENSIONS = (".h", ".cpp", ".cpp.in")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
STANDARD = re.compile(r"^[a-z_0-9]+$")


def room_of(path):
    """The room of `path` (relative to simcore/, with '/'), or None."""
    for pattern, room in FILES:
        if "/" not in pattern and "/" in path:
            continue
        if fnmatch.fnmatchcase(path, pattern):
            return room
    return None


def library_of(name):
    """The library an angled include belongs to, "std", "qt" or None (unknown)."""
    if STANDARD.match(name):
        return "std"
    for library, (prefixes, _) in LIBRARIES.items():
        if any(name == p or (p.endswith("/") and name.startswith(p)) for p in prefixes):
            return library
    if name.startswith("Q") or name.lower().startswith("qt"):
        return "qt"
    return None


def source_files(top):
    """Every source file under `top`, as a path relative to it with '/'."""
    out = []
    for directory, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.startswith("build"))
        for name in sorted(names):
            if name.endswith(SOURCE_EXTENSIONS):
                out.append(os.path.relpath(os.path.join(directory, name), top).replace(os.sep, "/"))
    return out


def includes_of(path):
    """(line, '<' or '"', name) for each #include of the file."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                out.append((number, m.group(1), m.group(2)))
    return out


class Tree:
    """The files of simcore/ and what each includes."""

    def __init__(self, root):
        self.root = root
        self.simcore = os.path.join(root, "simcore")
        self.files = source_files(self.simcore)
        self.includes = {f: includes_of(os.path.join(self.simcore, f)) for f in self.files}

    def resolve(self, including, name):
        """A quoted include of simcore/`including`: the simcore path it names, or the reason it is refused."""
        target = os.path.normpath(os.path.join(os.path.dirname(including), name)).replace(os.sep, "/")
        if target.startswith("../") or target == "..":
            return None, f'"{name}" is outside simcore/ (simcore never includes Qt, widgets/, app/ or anything outside simcore/)'
        if not os.path.isfile(os.path.join(self.simcore, target)):
            return None, f'"{name}" is not a file of simcore/ (simcore includes its own headers by a path relative to the including file)'
        return target, None

    def libraries_brought(self, header, memo):
        """{library: the header that includes it} for everything `header` includes, through simcore's own headers."""
        if header in memo:
            return memo[header]
        memo[header] = {}
        found = {}
        for _, kind, name in self.includes.get(header, []):
            if kind == "<":
                library = library_of(name)
                if library not in ("std", None):
                    found.setdefault(library, f"{header} includes <{name}>")
            else:
                target, _ = self.resolve(header, name)
                if target:
                    for library, how in self.libraries_brought(target, memo).items():
                        found.setdefault(library, how)
        memo[header] = found
        return found


def check_simcore(tree, problems):
    memo = {}
    for f in tree.files:
        room = room_of(f)
        where = f"simcore/{f}"
        if room not in ROOMS:
            problems.append(f"{where}:1: belongs to no room (add it to FILES in tests/style/include_rules.py)")
            continue
        uses, libraries = ROOMS[room]
        for line, kind, name in tree.includes[f]:
            at = f"{where}:{line}"
            if kind == "<":
                library = library_of(name)
                if library == "std" or library in libraries:
                    continue
                if library == "qt":
                    problems.append(f"{at}: <{name}>: simcore never includes Qt")
                elif library is None:
                    problems.append(f"{at}: <{name}> is no library a room may use (LIBRARIES in tests/style/include_rules.py)")
                else:
                    problems.append(f"{at}: <{name}>: {library} is not for the {room} room (only {rooms_using(library)})")
                continue
            target, reason = tree.resolve(f, name)
            if reason:
                problems.append(f"{at}: {reason}")
                continue
            other = room_of(target)
            if other == room:
                continue
            if other not in uses:
                problems.append(f'{at}: "{name}" is in the {other} room, which the {room} room does not use '
                                f"(it uses {', '.join(uses) or 'no other room'})")
                continue
            for library, how in tree.libraries_brought(target, memo).items():
                if library not in libraries and LIBRARIES[library][0]:
                    problems.append(f'{at}: "{name}" brings {library}, which the {room} room may not use ({how})')


def check_consumers(tree, problems):
    memo = {}
    for top in CONSUMER_DIRS:
        for f in source_files(os.path.join(tree.root, top)):
            path = os.path.join(tree.root, top, f)
            for line, kind, name in includes_of(path):
                if kind != '"' or not name.startswith("simcore/"):
                    continue
                header = name[len("simcore/"):]
                if header not in tree.includes:
                    continue
                for library, how in tree.libraries_brought(header, memo).items():
                    if LIBRARIES[library][0] and library != "posix":
                        problems.append(f'{top}/{f}:{line}: "{name}" brings {library}, which the '
                                        f"{room_of(header)} room links privately ({how})")


def rooms_using(library):
    return ", ".join(r for r, (_, libraries) in ROOMS.items() if library in libraries) or "none"


def cycle_in(graph):
    """A cycle of `graph` (node -> successors) as a list of nodes, or None."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        path.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path)
                if found:
                    return found
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def check_cmake(tree, rooms_file, problems):
    with open(rooms_file, encoding="utf-8") as f:
        cmake = json.load(f)
    where = "simcore/CMakeLists.txt"
    for room in sorted(set(ROOMS) - set(cmake)):
        problems.append(f"{where}: no target simcore_{room}")
    for room in sorted(set(cmake) - set(ROOMS)):
        problems.append(f"{where}: simcore_{room} is no room of tests/style/include_rules.py")
    exposed = {}  # (room, other room): the first include of the other room's header by a header of the room
    for f in tree.files:
        if not f.endswith(".h"):
            continue
        for _, kind, name in tree.includes[f]:
            target, _ = tree.resolve(f, name) if kind == '"' else (None, None)
            if target and room_of(target) != room_of(f):
                exposed.setdefault((room_of(f), room_of(target)), f"simcore/{f} includes {target}")
    compiled = {}
    targets = {target: library for library, (_, target) in LIBRARIES.items() if target}
    for room, target in sorted(cmake.items()):
        if room not in ROOMS:
            continue
        uses, libraries = ROOMS[room]
        for source in target["SOURCES"]:
            path = os.path.relpath(os.path.normpath(os.path.join(tree.simcore, source)), tree.simcore).replace(os.sep, "/")
            if path.startswith("../"):
                continue  # generated in the build tree
            compiled.setdefault(path, []).append(room)
            if room_of(path) != room:
                problems.append(f"{where}: simcore_{room} compiles {path}, which belongs to the {room_of(path)} room")
        linked_rooms, linked_libraries = set(), set()
        interface = set(target["INTERFACE_LINK_LIBRARIES"])
        for item in target["LINK_LIBRARIES"]:
            if item.startswith("simcore_"):
                linked_rooms.add(item[len("simcore_"):])
                header = exposed.get((room, item[len("simcore_"):]))
                if header and item not in interface:
                    problems.append(f"{where}: simcore_{room} links {item} PRIVATE, but its header {header}: link it PUBLIC")
            elif item in targets:
                library = targets[item]
                linked_libraries.add(library)
                if LIBRARIES[library][0] and item in interface:
                    problems.append(f"{where}: simcore_{room} links {item} PUBLIC (libraries are linked PRIVATE)")
            else:
                problems.append(f"{where}: simcore_{room} links {item}, which tests/style/include_rules.py does not know")
        for other in sorted(set(uses) - linked_rooms):
            problems.append(f"{where}: simcore_{room} does not link simcore_{other}, which it uses")
        for other in sorted(linked_rooms - set(uses)):
            problems.append(f"{where}: simcore_{room} links simcore_{other}, which the table does not let it use")
        for library in sorted(set(libraries) - linked_libraries):
            if LIBRARIES[library][1]:
                problems.append(f"{where}: simcore_{room} does not link {LIBRARIES[library][1]} ({library})")
        for library in sorted(linked_libraries - set(libraries)):
            problems.append(f"{where}: simcore_{room} links {LIBRARIES[library][1]}, which is not for the {room} room")
    for f in tree.files:
        if f.endswith(".cpp") and f not in compiled:
            problems.append(f"{where}: simcore/{f} is compiled by no room")
        elif len(compiled.get(f, [])) > 1:
            problems.append(f"{where}: simcore/{f} is compiled by {', '.join(compiled[f])}")


def print_graph(tree):
    edges = {}
    for f in tree.files:
        for _, kind, name in tree.includes[f]:
            if kind != '"':
                continue
            target, _ = tree.resolve(f, name)
            if target and room_of(target) != room_of(f):
                key = (room_of(f), room_of(target))
                edges.setdefault(key, []).append(f"{f} -> {target}")
    for (a, b), examples in sorted(edges.items()):
        from_headers = [e for e in examples if e.split(" -> ")[0].endswith(".h")]
        how = "PUBLIC: from a header" if from_headers else "PRIVATE: from .cpp files only"
        print(f"{a} -> {b} ({len(examples)} includes, {how}; e.g. {(from_headers or examples)[0]})")
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
    cycle = cycle_in(graph)
    print("cycle: " + " -> ".join(cycle) if cycle else "no cycle")


def main(argv):
    args = list(argv)
    simcore_only = "--simcore-only" in args
    graph = "--graph" in args
    args = [a for a in args if a not in ("--simcore-only", "--graph")]
    options = {}
    for name in ("--cmake-rooms", "--stamp"):
        if name in args:
            i = args.index(name)
            options[name] = args[i + 1]
            del args[i:i + 2]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tree = Tree(root)
    if graph:
        print_graph(tree)
        return 0
    problems = []
    cycle = cycle_in({room: uses for room, (uses, _) in ROOMS.items()})
    if cycle:
        problems.append("tests/style/include_rules.py: the rooms' uses form a cycle: " + " -> ".join(cycle))
    check_simcore(tree, problems)
    if not simcore_only:
        check_consumers(tree, problems)
    if "--cmake-rooms" in options:
        check_cmake(tree, options["--cmake-rooms"], problems)
    for p in problems:
        print(p)
    if problems:
        print(f"include rules: {len(problems)} broken (simcore/README.md, \"What simcore may include\")", file=sys.stderr)
        return 1
    if "--stamp" in options:
        with open(options["--stamp"], "w", encoding="utf-8") as f:
            f.write("simcore's include rules hold\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
