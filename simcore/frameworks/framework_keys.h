#pragma once
// The keys each framework accepts (resources/frameworks/*.txt, built in): a key outside
// them is refused as unknown; a key inside them that dtsim does not map is listed.
#include <string>

namespace dtsim {

const char* megatronArgumentTable();   // megatron-arguments.txt
const char* torchtitanKeyTable();      // torchtitan-keys.txt
const char* deepspeedKeyTable();       // deepspeed-keys.txt
const char* nemoKeyTable();            // nemo-keys.txt

// Whether `key` (dotted; list entries as key[i]) is a key of the table's text. A table
// line "a.b.*" accepts every key under a.b.
bool tableHasKey(const char* table, const std::string& key);

} // namespace dtsim
