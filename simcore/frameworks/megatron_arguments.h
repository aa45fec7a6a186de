#pragma once
// Megatron-LM's argument names (resources/frameworks/megatron-arguments.txt, built in):
// whether a flag exists, and whether it takes a value.
#include "framework_keys.h"

#include <string>

namespace dtsim {

enum class ArgumentKind { Unknown, Value, Switch };
ArgumentKind megatronArgument(const std::string& flag);

} // namespace dtsim
