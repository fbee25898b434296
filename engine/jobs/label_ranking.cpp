#include "jobs/label_ranking.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace ts {

bool moreSuspect(const LabelScore& a, const LabelScore& b)
{
    if (a.selfConfidence != b.selfConfidence) return a.selfConfidence < b.selfConfidence;
    if (a.margin != b.margin) return a.margin < b.margin;
    return a.sample < b.sample;
}

std::vector<LabelScore> rankLabels(const std::vector<float>& probabilities, std::int64_t classes,
                                   const std::vector<std::int64_t>& labels, const std::vector<std::int64_t>& samples)
{
    const std::size_t n = labels.size(), k = std::size_t(classes);
    if (classes < 2 || samples.size() != n || probabilities.size() != n * k)
        throw std::invalid_argument("rankLabels: " + std::to_string(n) + " labels, " + std::to_string(samples.size()) +
                                    " samples and " + std::to_string(probabilities.size()) + " probabilities for " +
                                    std::to_string(classes) + " classes do not match");
    // Thresholds: each class's mean self-confidence. A class nobody carries gets none (> 1).
    std::vector<double> sum(k, 0.0), count(k, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t y = labels[i];
        if (y < 0 || y >= classes)
            throw std::invalid_argument("rankLabels: sample " + std::to_string(samples[i]) + " has label " + std::to_string(y) +
                                        " outside 0.." + std::to_string(classes - 1));
        sum[std::size_t(y)] += probabilities[i * k + std::size_t(y)];
        count[std::size_t(y)] += 1;
    }
    std::vector<double> threshold(k, 2.0);
    for (std::size_t j = 0; j < k; ++j)
        if (count[j] > 0) threshold[j] = sum[j] / count[j];

    std::vector<LabelScore> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float* p = probabilities.data() + i * k;
        const auto y = std::size_t(labels[i]);
        std::size_t top = 0, other = y == 0 ? 1 : 0;
        bool suspect = false;
        for (std::size_t j = 0; j < k; ++j) {
            if (p[j] > p[top]) top = j;
            if (j != y && p[j] > p[other]) other = j;
            if (j != y && p[j] >= threshold[j] && p[j] > p[y]) suspect = true;
        }
        LabelScore& s = out[i];
        s.sample = samples[i];
        s.label = labels[i];
        s.predicted = std::int64_t(top);
        s.confidence = p[top];
        s.selfConfidence = p[y];
        s.margin = p[y] - p[other];
        s.suspect = suspect;
    }
    std::sort(out.begin(), out.end(), moreSuspect);
    return out;
}

std::int64_t hitsInTop(const std::vector<LabelScore>& ranked, const std::vector<std::int64_t>& flipped, std::int64_t n)
{
    const std::unordered_set<std::int64_t> planted(flipped.begin(), flipped.end());
    std::int64_t hits = 0;
    for (std::int64_t i = 0; i < n && i < std::int64_t(ranked.size()); ++i) hits += planted.count(ranked[std::size_t(i)].sample);
    return hits;
}

}  // namespace ts
