// What a text dataset holds, counted for the Datasets page (issue 40): token counts per id
// (the vocabulary table), text lengths in tokens (the length histogram) and how much of the
// vocabulary the training split covers. Everything is counted from the token ids the dataset
// gives (Dataset::get), so the page shows what training sees; a text classification
// dataset's texts are also encoded whole, to tell how long a text was before its cut.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "data/dataset.h"

namespace ts {

class Tokenizer;

// The tokenizer of a text dataset (format text or text_folder); null for other data.
const Tokenizer* textTokenizer(const Dataset& data);

// Sample `index`'s token ids as get() writes them, padding (`paddingId`, -1: none) left out.
std::vector<std::int64_t> sampleTokens(const Dataset& data, std::int64_t index, std::int64_t paddingId = -1);

// Called now and then with how many samples are done; returning false stops the count.
using CountProgress = std::function<bool(std::int64_t done)>;

struct TokenCounts {
    std::vector<std::int64_t> perId;  // per token id, padding never counted
    std::int64_t tokens = 0;          // tokens counted (padding left out)
    std::int64_t samples = 0;         // samples read
    bool stopped = false;             // progress said stop: the counts are partial
};

// The tokens of samples `indices` of `data`, for a vocabulary of `vocabulary` ids (ids outside
// it are not counted).
TokenCounts countTokens(const Dataset& data, std::span<const std::int64_t> indices, std::int64_t vocabulary,
                        std::int64_t paddingId = -1, const CountProgress& progress = {});

// How long each of `indices`' texts is in tokens: a text classification dataset's texts as
// encoded whole (before the cut to its context: longer than context() means cut); a language
// model's (format text) lines, the tokens between newline tokens within the given blocks read
// in order (a gap between indices ends a line). Empty for other data.
std::vector<std::int64_t> textLengths(const Dataset& data, std::span<const std::int64_t> indices,
                                      const CountProgress& progress = {});

// Lengths counted into bins of `width` tokens: bin k holds lengths (k*width, (k+1)*width] (bin 0
// also 0), up to `limit`; longer lengths are counted in `over`.
struct LengthBins {
    std::int64_t width = 1, limit = 0;
    std::vector<std::int64_t> counts;
    std::int64_t over = 0;

    std::int64_t first(std::size_t bin) const { return bin == 0 ? 0 : std::int64_t(bin) * width + 1; }
    std::int64_t last(std::size_t bin) const { return std::min(limit, std::int64_t(bin + 1) * width); }
};
// A round bin width (1, 2 or 5 times a power of ten) giving at most `maxBins` bins up to `limit`.
std::int64_t lengthBinWidth(std::int64_t limit, int maxBins = 16);
LengthBins binLengths(std::span<const std::int64_t> lengths, std::int64_t limit, std::int64_t width);

// How many of the most frequent ids it takes to make up `fraction` of the counted tokens
// (0 when none were counted).
std::int64_t idsCovering(const std::vector<std::int64_t>& perId, double fraction);

}  // namespace ts
