#pragma once
// The shell variables that carry from one launch script to the next (a script that
// sets TP and sources another that passes --tensor-model-parallel-size ${TP}).
#include <map>
#include <set>
#include <string>

namespace dtsim {

struct ShellState {
    std::map<std::string, std::string> variables;
    std::set<std::string> fixed; // given on the command line (--var NAME=VALUE): kept
};

} // namespace dtsim
