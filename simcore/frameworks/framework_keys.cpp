#include "framework_keys.h"

#include <map>
#include <set>
#include <sstream>

namespace dtsim {

bool tableHasKey(const char* table, const std::string& key)
{
    static std::map<const char*, std::set<std::string>> parsed;
    auto it = parsed.find(table);
    if (it == parsed.end()) {
        std::set<std::string> keys;
        std::istringstream in(table);
        std::string line;
        while (std::getline(in, line))
            if (!line.empty() && line[0] != '#')
                keys.insert(line.substr(0, line.find(' ')));
        it = parsed.emplace(table, std::move(keys)).first;
    }
    // List entries: "a.b[2].c" is checked as "a.b[].c", and "a.b[2]" as "a.b".
    std::string k;
    for (std::size_t i = 0; i < key.size(); ++i) {
        if (key[i] == '[') {
            const auto close = key.find(']', i);
            k += "[]";
            i = close == std::string::npos ? key.size() : close;
            continue;
        }
        k += key[i];
    }
    if (it->second.count(k))
        return true;
    if (k.size() > 2 && k.compare(k.size() - 2, 2, "[]") == 0 && it->second.count(k.substr(0, k.size() - 2)))
        return true;
    for (std::size_t dot = k.rfind('.'); dot != std::string::npos; dot = dot == 0 ? std::string::npos : k.rfind('.', dot - 1))
        if (it->second.count(k.substr(0, dot) + ".*"))
            return true;
    return false;
}

} // namespace dtsim
