#include "split_counts.h"

#include <algorithm>
#include <cmath>

#include "data/subset_dataset.h"

namespace ts::ui {

std::vector<std::int64_t> classCounts(const std::vector<std::int64_t>& labels, std::int64_t classes)
{
    std::vector<std::int64_t> counts(std::size_t(std::max<std::int64_t>(classes, 0)), 0);
    for (std::int64_t y : labels)
        if (y >= 0 && y < classes) ++counts[std::size_t(y)];
    return counts;
}

std::vector<SplitClassCounts> splitClassCounts(const DatasetFiles& files, const DatasetSpec& spec)
{
    std::vector<SplitClassCounts> out;
    if (!files.train) return out;
    if (!(spec.validationFraction >= 0.0 && spec.validationFraction < 1.0))
        throw DataError(files.path, -1, "dataset.validation_fraction " + std::to_string(spec.validationFraction) +
                                            " is outside [0, 1)");
    const std::int64_t classes = files.train->numClasses();
    const std::vector<std::int64_t>& labels = files.train->labels();
    // The same choice as openDataset: grouped when the reader produced groups.
    const SplitIndices split = files.groups.empty()
                                   ? splitIndices(files.train->size(), spec.validationFraction, spec.splitSeed)
                                   : splitGroups(files.groups, spec.validationFraction, spec.splitSeed);
    auto countOf = [&](const std::vector<std::int64_t>& indices, const char* name) {
        SplitClassCounts s;
        s.split = name;
        s.counts.assign(std::size_t(std::max<std::int64_t>(classes, 0)), 0);
        for (std::int64_t i : indices) {
            const std::int64_t y = labels[std::size_t(i)];
            if (y >= 0 && y < classes) ++s.counts[std::size_t(y)];
        }
        s.total = std::int64_t(indices.size());
        return s;
    };
    out.push_back(countOf(split.train, "train"));
    if (!split.validation.empty()) out.push_back(countOf(split.validation, "validation"));
    if (files.test && files.test->size() > 0) {
        SplitClassCounts t;
        t.split = "test";
        t.counts = classCounts(files.test->labels(), classes);
        t.total = files.test->size();
        out.push_back(std::move(t));
    }
    return out;
}

double imbalanceRatio(const std::vector<std::int64_t>& counts)
{
    if (counts.empty()) return std::numeric_limits<double>::quiet_NaN();
    const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
    if (*hi <= 0) return std::numeric_limits<double>::quiet_NaN();
    if (*lo <= 0) return std::numeric_limits<double>::infinity();
    return double(*hi) / double(*lo);
}

}  // namespace ts::ui
