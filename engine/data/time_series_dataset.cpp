#include "data/time_series_dataset.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "data/csv_dataset.h"
#include "tensor/quote_text.h"

namespace fs = std::filesystem;

namespace ts {
namespace {

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool number(const std::string& field, double& value)
{
    const std::string s = trimmed(field);
    const char* begin = s.data() + (!s.empty() && s[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size() && std::isfinite(value);
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// A time cell: a number, or a date YYYY-MM-DD (as days).
bool timeValue(const std::string& field, double& value)
{
    if (number(field, value)) return true;
    const std::string s = trimmed(field);
    int y = 0, m = 0, d = 0, used = 0;
    if (std::sscanf(s.c_str(), "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 || used != static_cast<int>(s.size()) || m < 1 ||
        m > 12 || d < 1 || d > 31)
        return false;
    value = static_cast<double>(daysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)));
    return true;
}

std::string num(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

[[noreturn]] void fail(const std::string& path, std::int64_t line, const std::string& message)
{
    throw DataError(path, line, path + ":" + std::to_string(line) + ": " + message);
}

// The time column must step evenly forward: a window is `length` equal steps.
void checkTime(const std::string& path, const std::vector<CsvRecord>& rows, std::size_t column, const std::string& name)
{
    std::vector<double> t(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (!timeValue(rows[i].fields[column], t[i]))
            fail(path, rows[i].line, "time column " + quoteText(name) + " holds " + quoteText(trimmed(rows[i].fields[column])) +
                                         ", neither a number nor a date (YYYY-MM-DD)");
    const auto from = [&](std::size_t i) {
        return quoteText(trimmed(rows[i].fields[column])) + " (line " + std::to_string(rows[i].line) + ")";
    };
    // Order first: rows out of order also make uneven steps, but sorting is the way out.
    for (std::size_t i = 1; i < rows.size(); ++i)
        if (t[i] <= t[i - 1])
            fail(path, rows[i].line, "time column " + quoteText(name) + " is not increasing: " +
                                         quoteText(trimmed(rows[i].fields[column])) + " follows " + from(i - 1) +
                                         "; sort the file by " + quoteText(name) + " and remove repeated times");
    const double step = rows.size() > 1 ? t[1] - t[0] : 1.0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const std::string to = quoteText(trimmed(rows[i].fields[column]));
        const double gap = t[i] - t[i - 1];
        if (std::abs(gap - step) > 1e-9 * std::max(1.0, std::abs(step))) {
            const double missing = gap / step - 1;
            const bool whole = std::abs(missing - std::round(missing)) < 1e-6 && missing >= 1;
            fail(path, rows[i].line, "time column " + quoteText(name) + " has a gap: " + to + " follows " + from(i - 1) +
                                         ", a step of " + num(gap) + " where the series steps by " + num(step) +
                                         (whole ? " (" + num(std::round(missing)) + (missing < 1.5 ? " row" : " rows") + " missing)"
                                                : std::string()) +
                                         "; fill the gap with a row per step (interpolated values) or start the series after it");
        }
    }
}

struct Column {
    std::string name;
    std::size_t index = 0;
};

std::vector<Column> columns(const std::vector<std::string>& header, const std::vector<std::string>& names, const std::string& role,
                            const std::string& path)
{
    std::vector<Column> out;
    for (const auto& n : names) out.push_back({n, csvColumnIndex(header, n, role, path)});
    return out;
}

// A window's cells must be numbers: the first empty or non-numeric one, by its row and column.
void readCells(const std::string& path, const std::vector<CsvRecord>& rows, const std::vector<Column>& cols,
               const std::vector<bool>& used, const std::string& use, std::vector<double>& out)
{
    out.assign(rows.size() * cols.size(), std::nan(""));
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const std::string cell = trimmed(rows[r].fields[cols[c].index]);
            if (number(cell, out[r * cols.size() + c]) || !used[r]) continue;
            const std::string where = "column " + std::to_string(cols[c].index + 1) + " (" + quoteText(cols[c].name) + ")";
            if (cell.empty())
                fail(path, rows[r].line, where + " is empty, inside a window's " + use +
                                             "; fill the missing value (e.g. interpolate it) or cut the series before it");
            fail(path, rows[r].line, where + " holds " + quoteText(cell) + ", not a number, inside a window's " + use +
                                         "; a forecast's columns must hold numbers");
        }
}

// Mean and population standard deviation of each column over rows [0, end) (a constant
// column's deviation is taken as 1, so normalising only centres it).
void periodStatistics(const std::vector<double>& cells, std::size_t columns, std::size_t end, std::vector<double>& mean,
                      std::vector<double>& stddev)
{
    mean.assign(columns, 0.0);
    stddev.assign(columns, 1.0);
    for (std::size_t c = 0; c < columns; ++c) {
        double sum = 0, squares = 0;
        std::size_t n = 0;
        for (std::size_t r = 0; r < end; ++r)
            if (const double v = cells[r * columns + c]; !std::isnan(v)) sum += v, ++n;
        if (n == 0) continue;
        mean[c] = sum / double(n);
        for (std::size_t r = 0; r < end; ++r)
            if (const double v = cells[r * columns + c]; !std::isnan(v)) squares += (v - mean[c]) * (v - mean[c]);
        if (const double sd = std::sqrt(squares / double(n)); sd > 0) stddev[c] = sd;
    }
}

std::vector<float> normalised(const std::vector<double>& cells, const std::vector<double>& mean, const std::vector<double>& stddev)
{
    std::vector<float> out(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i)
        out[i] = static_cast<float>((cells[i] - mean[i % mean.size()]) / stddev[i % mean.size()]);
    return out;
}

}  // namespace

TimeSeriesDataset::TimeSeriesDataset(std::shared_ptr<const TimeSeriesRows> rows, std::vector<std::int64_t> starts, std::string name)
    : rows_(std::move(rows)), starts_(std::move(starts)), labels_(starts_.size(), 0), name_(std::move(name))
{
}

Shape TimeSeriesDataset::sampleShape() const { return Shape{rows_->length, static_cast<std::int64_t>(rows_->featureNames.size())}; }

Shape TimeSeriesDataset::targetShape() const { return Shape{rows_->horizon, static_cast<std::int64_t>(rows_->targetNames.size())}; }

std::int64_t TimeSeriesDataset::get(std::int64_t index, float* out) const
{
    const std::size_t f = rows_->featureNames.size(), start = static_cast<std::size_t>(starts_[std::size_t(index)]);
    std::copy_n(rows_->features.begin() + std::ptrdiff_t(start * f), std::size_t(rows_->length) * f, out);
    return 0;
}

void TimeSeriesDataset::getValues(std::int64_t index, float* out) const
{
    const std::size_t t = rows_->targetNames.size();
    const std::size_t first = static_cast<std::size_t>(starts_[std::size_t(index)] + rows_->length);
    std::copy_n(rows_->targets.begin() + std::ptrdiff_t(first * t), std::size_t(rows_->horizon) * t, out);
}

std::string TimeSeriesDataset::description() const
{
    return name_ + " (" + std::to_string(size()) + " windows x " + sampleShape().str() + " -> " + targetShape().str() + ")";
}

std::string TimeSeriesDataset::sampleSource(std::int64_t index) const
{
    return rows_->path + ":" + std::to_string(rows_->lines[std::size_t(starts_[std::size_t(index)])]);
}

TimeSeriesSplits readTimeSeries(const std::string& path, const DatasetSpec& spec)
{
    const SequenceSpec& q = spec.sequence;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, -1, path + ": cannot open the file");
    std::stringstream text;
    text << in.rdbuf();
    std::vector<CsvRecord> records = parseCsv(text.str(), path);
    if (records.empty()) throw DataError(path, -1, path + ": the file is empty; a time series needs a header row and its rows");
    const std::vector<std::string> header = csvHeader(records.front());
    std::vector<CsvRecord> rows(records.begin() + 1, records.end());
    std::erase_if(rows, [](const CsvRecord& r) { return r.fields.size() == 1 && trimmed(r.fields[0]).empty(); });
    for (const CsvRecord& r : rows)
        if (r.fields.size() != header.size())
            fail(path, r.line, std::to_string(r.fields.size()) + " fields where the header has " + std::to_string(header.size()));

    const std::vector<Column> targets = columns(header, q.target, "target", path);
    const std::vector<Column> features = columns(header, q.features.empty() ? q.target : q.features, "feature", path);
    if (!q.time.empty()) checkTime(path, rows, csvColumnIndex(header, q.time, "time", path), q.time);

    const auto n = static_cast<std::int64_t>(rows.size()), span = q.length + q.horizon;
    if (span > n)
        fail(path, rows.empty() ? 1 : rows.back().line,
             "the series has " + std::to_string(n) + " rows, fewer than sequence.length + horizon = " + std::to_string(q.length) +
                 " + " + std::to_string(q.horizon) + " that one window needs; shorten length or horizon");
    // Periods by time: [0, trainEnd) training, [trainEnd, validationEnd) validation, the rest test.
    const auto rowAt = [n](double share) { return static_cast<std::int64_t>(std::floor(double(n) * share + 1e-9)); };  // 0.7 * 30 is 21
    const std::int64_t trainEnd = rowAt(1.0 - spec.validationFraction - q.testFraction), validationEnd = rowAt(1.0 - q.testFraction);
    std::vector<std::int64_t> starts[3];
    std::vector<bool> inputRow(rows.size()), targetRow(rows.size());
    for (std::int64_t s = 0; s + span <= n; s += q.stride) {
        const std::int64_t end = s + span;
        const int split = end <= trainEnd ? 0 : s >= trainEnd && end <= validationEnd ? 1 : s >= validationEnd ? 2 : -1;
        if (split < 0) continue;  // straddles a boundary: it would see the next period
        starts[split].push_back(s);
        for (std::int64_t r = s; r < end; ++r) (r < s + q.length ? inputRow : targetRow)[std::size_t(r)] = true;
    }
    const auto needWindow = [&](int split, double fraction, std::int64_t rowCount, const std::string& name, const std::string& option) {
        if (fraction > 0 && starts[split].empty())
            fail(path, rows.back().line, "the " + name + " period holds " + std::to_string(rowCount) + " rows, no whole window of " +
                                             std::to_string(span) + " (length + horizon); raise " + option +
                                             " or shorten sequence.length");
    };
    needWindow(0, 1.0, trainEnd, "training", "the training share (lower validation_fraction and sequence.test_fraction)");
    needWindow(1, spec.validationFraction, validationEnd - trainEnd, "validation", "dataset.validation_fraction");
    needWindow(2, q.testFraction, n - validationEnd, "test", "sequence.test_fraction");

    std::vector<double> featureCells, targetCells;
    readCells(path, rows, features, inputRow, "input rows", featureCells);
    readCells(path, rows, targets, targetRow, "target rows", targetCells);

    TimeSeriesSplits out;
    TimeSeriesScaling& k = out.scaling;
    periodStatistics(featureCells, features.size(), std::size_t(trainEnd), k.featureMean, k.featureStddev);
    periodStatistics(targetCells, targets.size(), std::size_t(trainEnd), k.targetMean, k.targetStddev);
    auto series = std::make_shared<TimeSeriesRows>();
    series->path = path;
    series->length = q.length;
    series->horizon = q.horizon;
    for (const Column& c : features) series->featureNames.push_back(c.name);
    for (const Column& c : targets) series->targetNames.push_back(c.name);
    series->features = normalised(featureCells, k.featureMean, k.featureStddev);
    series->targets = normalised(targetCells, k.targetMean, k.targetStddev);
    for (const CsvRecord& r : rows) series->lines.push_back(r.line);

    const std::string name = fs::path(path).filename().string();
    out.train = std::make_shared<TimeSeriesDataset>(series, std::move(starts[0]), name + " train");
    if (!starts[1].empty()) out.validation = std::make_shared<TimeSeriesDataset>(series, std::move(starts[1]), name + " validation");
    if (!starts[2].empty()) out.test = std::make_shared<TimeSeriesDataset>(series, std::move(starts[2]), name + " test");
    return out;
}

DatasetSplits openTimeSeries(const std::string& path, const DatasetSpec& spec)
{
    // The reader normalises with the training period; image transforms have no meaning here.
    if (spec.normalizeFromStatistics || !spec.normalizeMean.empty())
        throw DataError(path, -1, "dataset.normalize: a time series (dataset.sequence) is normalised with its training "
                                  "period's mean and deviation already; leave normalize out");
    if (spec.horizontalFlip || spec.randomCropPadding > 0 || spec.randomResizedCrop > 0)
        throw DataError(path, -1, "dataset.augment: flips and crops are for images, not a time series' windows; leave augment out");
    TimeSeriesSplits series = readTimeSeries(path, spec);
    DatasetSplits splits;
    splits.train = series.train;
    splits.validation = series.validation;
    splits.test = series.test;
    const auto indices = [](std::int64_t from, std::int64_t count) {
        std::vector<std::int64_t> v(static_cast<std::size_t>(count));
        for (std::int64_t i = 0; i < count; ++i) v[std::size_t(i)] = from + i;
        return v;
    };
    // One file split of training and validation windows in time order; the test windows apart.
    splits.trainFileIndex = indices(0, splits.train->size());
    splits.validationFileIndex = indices(splits.train->size(), splits.validation ? splits.validation->size() : 0);
    splits.testFileIndex = indices(0, splits.test ? splits.test->size() : 0);
    DatasetStatistics& s = splits.trainStatistics;
    s.mean = series.scaling.featureMean;
    s.stddev = series.scaling.featureStddev;
    s.targetMean = series.scaling.targetMean;
    s.targetStddev = series.scaling.targetStddev;
    std::error_code ec;
    splits.fingerprint = fs::path(path).filename().string() + " " + std::to_string(fs::file_size(path, ec)) +
                         "\nsamples training " + std::to_string(splits.train->size()) + "\nsamples validation " +
                         std::to_string(splits.validation ? splits.validation->size() : 0) + "\nsamples test " +
                         std::to_string(splits.test ? splits.test->size() : 0) + "\nclasses training none\n";
    return splits;
}

}  // namespace ts
