// A CSV time series cut into forecast windows (dataset.sequence): each sample is `length`
// consecutive rows of the feature columns ([length, features] f32), its targets the next
// `horizon` rows of the target columns ([horizon, targets], TargetKind::Values). The split is by
// time: training windows lie in the series' first part, validation after them, test last (the
// last validation_fraction and test_fraction of the rows); a window straddling a boundary is
// dropped, nothing is shuffled across. Every column is normalised with the mean and standard
// deviation of the training period's rows, targets included: a prediction p is in the data's
// units as p * targetStddev + targetMean (TimeSeriesScaling, DatasetStatistics).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace ts {

// The mean and (population) standard deviation of each column over the training period.
struct TimeSeriesScaling {
    std::vector<double> featureMean, featureStddev;  // per feature column
    std::vector<double> targetMean, targetStddev;    // per target column
};

// The rows read, normalised; shared by the windows of every split.
struct TimeSeriesRows {
    std::string path;
    std::int64_t length = 0, horizon = 0;
    std::vector<std::string> featureNames, targetNames;
    std::vector<float> features, targets;  // rows x columns, row-major, normalised
    std::vector<std::int64_t> lines;       // each row's line in the file
};

class TimeSeriesDataset : public Dataset {
public:
    // `starts`: the first row of each window, in time order.
    TimeSeriesDataset(std::shared_ptr<const TimeSeriesRows> rows, std::vector<std::int64_t> starts, std::string name);

    std::int64_t size() const override { return static_cast<std::int64_t>(starts_.size()); }
    Shape sampleShape() const override;
    std::int64_t numClasses() const override { return 0; }
    std::vector<std::string> classNames() const override { return {}; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;
    std::string sampleSource(std::int64_t index) const override;  // "co2.csv:54": the window's first row

    TargetKind targetKind() const override { return TargetKind::Values; }
    Shape targetShape() const override;
    std::vector<std::string> targetNames() const override { return rows_->targetNames; }
    void getValues(std::int64_t index, float* out) const override;  // normalised (see the file's comment)

    const std::vector<std::int64_t>& starts() const { return starts_; }

private:
    std::shared_ptr<const TimeSeriesRows> rows_;
    std::vector<std::int64_t> starts_, labels_;
    std::string name_;
};

struct TimeSeriesSplits {
    std::shared_ptr<TimeSeriesDataset> train, validation, test;  // validation, test: null for a 0 fraction
    TimeSeriesScaling scaling;
};

// Reads `path` as spec.sequence says. Throws DataError "file:line: ..." naming the column for a
// time column that goes back or has a gap (sort the file, fill the gap), a missing or
// non-numeric value inside a window, a target or feature column not in the header, a series
// shorter than length + horizon, a split too short to hold one window.
TimeSeriesSplits readTimeSeries(const std::string& path, const DatasetSpec& spec);

// The splits openDataset returns for a sequence dataset: trainStatistics holds the scaling
// (mean/stddev per feature column, targetMean/targetStddev per target).
DatasetSplits openTimeSeries(const std::string& path, const DatasetSpec& spec);

}  // namespace ts
