// A Message in the store (schema 5): the English text stays in the `message` column, which
// every reader, old or new, shows; the id and the arguments are kept beside it so the studio
// can word stored lines in its user's language. The arguments are one TEXT, each ended by
// the unit separator 0x1F (formatted numbers, sizes and paths never contain it).
#pragma once
#include <string>
#include <vector>

namespace ts::store {

std::string encodeMessageArgs(const std::vector<std::string>& args);
std::vector<std::string> decodeMessageArgs(const std::string& column);

}  // namespace ts::store
