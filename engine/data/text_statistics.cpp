#include "data/text_statistics.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "data/text_classification_dataset.h"
#include "data/text_dataset.h"
#include "data/tokenizer.h"

namespace ts {

namespace {

constexpr std::int64_t kProgressEvery = 256;  // samples between progress calls

bool keepGoing(const CountProgress& progress, std::int64_t done)
{
    return !progress || done % kProgressEvery != 0 || progress(done);
}

}  // namespace

const Tokenizer* textTokenizer(const Dataset& data)
{
    if (const auto* lm = dynamic_cast<const TextDataset*>(&data)) return &lm->tokenizer();
    if (const auto* texts = dynamic_cast<const TextClassificationDataset*>(&data)) return &texts->tokenizer();
    return nullptr;
}

std::vector<std::int64_t> sampleTokens(const Dataset& data, std::int64_t index, std::int64_t paddingId)
{
    std::vector<float> values(std::size_t(data.sampleShape().numel()));
    data.get(index, values.data());
    std::vector<std::int64_t> ids;
    ids.reserve(values.size());
    for (float v : values) {
        const auto id = std::int64_t(std::llround(v));  // ids are exact as floats below 2^24
        if (id != paddingId) ids.push_back(id);
    }
    return ids;
}

TokenCounts countTokens(const Dataset& data, std::span<const std::int64_t> indices, std::int64_t vocabulary,
                        std::int64_t paddingId, const CountProgress& progress)
{
    TokenCounts out;
    out.perId.assign(std::size_t(std::max<std::int64_t>(vocabulary, 0)), 0);
    std::vector<float> values(std::size_t(data.sampleShape().numel()));
    for (const std::int64_t index : indices) {
        if (!keepGoing(progress, out.samples)) {
            out.stopped = true;
            break;
        }
        data.get(index, values.data());
        for (float v : values) {
            const auto id = std::int64_t(std::llround(v));
            if (id == paddingId || id < 0 || id >= vocabulary) continue;
            ++out.perId[std::size_t(id)];
            ++out.tokens;
        }
        ++out.samples;
    }
    return out;
}

std::vector<std::int64_t> textLengths(const Dataset& data, std::span<const std::int64_t> indices, const CountProgress& progress)
{
    std::vector<std::int64_t> lengths;
    std::int64_t done = 0;
    if (const auto* texts = dynamic_cast<const TextClassificationDataset*>(&data)) {
        lengths.reserve(indices.size());
        for (const std::int64_t index : indices) {
            if (!keepGoing(progress, done++)) break;
            lengths.push_back(std::int64_t(texts->tokenizer().encode(texts->text(index)).size()));
        }
        return lengths;
    }
    const auto* lm = dynamic_cast<const TextDataset*>(&data);
    if (!lm) return lengths;
    // A token ends a line when its text holds a line break (a piece of several characters may).
    const Tokenizer& tokenizer = lm->tokenizer();
    std::vector<char> endsLine(std::size_t(tokenizer.size()));
    for (std::int64_t id = 0; id < tokenizer.size(); ++id) endsLine[std::size_t(id)] = tokenizer.piece(id).find('\n') != std::string::npos;
    std::vector<float> values(std::size_t(data.sampleShape().numel()));
    std::int64_t line = 0, previous = -2;
    for (const std::int64_t index : indices) {
        if (!keepGoing(progress, done++)) break;
        if (index != previous + 1 && line > 0) lengths.push_back(std::exchange(line, 0));  // the text jumps: a line ends
        previous = index;
        data.get(index, values.data());
        for (float v : values) {
            const auto id = std::int64_t(std::llround(v));
            if (id >= 0 && id < tokenizer.size() && endsLine[std::size_t(id)])
                lengths.push_back(std::exchange(line, 0));
            else
                ++line;
        }
    }
    if (line > 0) lengths.push_back(line);
    return lengths;
}

std::int64_t lengthBinWidth(std::int64_t limit, int maxBins)
{
    // 1, 2 or 5 times a power of ten, or a power of two that divides the limit (a context of
    // 128 in bins of 8), whichever is smallest.
    maxBins = std::max(maxBins, 1);
    const auto fits = [&](std::int64_t w) { return (limit + w - 1) / w <= maxBins; };
    std::int64_t best = 0;
    for (std::int64_t scale = 1; best == 0; scale *= 10)
        for (const std::int64_t step : {1, 2, 5})
            if (best == 0 && fits(step * scale)) best = step * scale;
    for (std::int64_t w = 1; w < best; w *= 2)
        if (limit % w == 0 && fits(w)) return w;
    return best;
}

LengthBins binLengths(std::span<const std::int64_t> lengths, std::int64_t limit, std::int64_t width)
{
    LengthBins out;
    out.width = std::max<std::int64_t>(width, 1);
    out.limit = std::max<std::int64_t>(limit, 1);
    out.counts.assign(std::size_t((out.limit + out.width - 1) / out.width), 0);
    for (const std::int64_t n : lengths) {
        if (n > out.limit)
            ++out.over;
        else
            ++out.counts[std::size_t(n == 0 ? 0 : (n - 1) / out.width)];
    }
    return out;
}

std::int64_t idsCovering(const std::vector<std::int64_t>& perId, double fraction)
{
    std::vector<std::int64_t> sorted = perId;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    std::int64_t total = 0;
    for (const std::int64_t n : sorted) total += n;
    if (total == 0) return 0;
    std::int64_t sum = 0, ids = 0;
    for (const std::int64_t n : sorted) {
        if (double(sum) >= fraction * double(total)) break;
        sum += n;
        ++ids;
    }
    return ids;
}

}  // namespace ts
