// "Did you mean" for misspelt names (ops, keys, choices): one rule everywhere.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ts {

// Levenshtein distance, ignoring case.
std::size_t editDistance(const std::string& a, const std::string& b);
// " (did you mean 'ReLU'?)" for the nearest candidate within a third of the word (at least
// two edits), or "" when nothing is that close.
std::string didYouMean(const std::string& given, const std::vector<std::string>& candidates);

}  // namespace ts
