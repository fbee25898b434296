#include "graph/suggest.h"

#include <algorithm>
#include <cctype>

#include "tensor/quote_text.h"

namespace ts {

std::size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

std::string didYouMean(const std::string& given, const std::vector<std::string>& candidates)
{
    std::size_t best = std::max<std::size_t>(2, given.size() / 3) + 1;
    std::string closest;
    for (const auto& c : candidates) {
        // The distance is at least the difference in length: a 10 MB value costs nothing here.
        if ((given.size() > c.size() ? given.size() - c.size() : c.size() - given.size()) >= best) continue;
        if (const std::size_t d = editDistance(given, c); d < best) best = d, closest = c;
    }
    return closest.empty() ? "" : " (did you mean " + quoteText(closest) + "?)";
}

}  // namespace ts
