// CSV tables: a header row, one sample per row. The label column is named; the features are
// the named columns, or (none named) every column but the label and group whose first data
// row holds a number. Labels become class indices in the order of their sorted distinct
// values (numerically when they are all integers, so 0..9 stay 0..9; else as strings).
// Regression reads target columns instead of a label: their numbers are the targets
// (TargetKind::Values, shape [targets]), in the file's units.
// Quoted fields ("a, b", "say ""hi""", line breaks inside quotes) are read per RFC 4180; a quote
// inside an unquoted field is a character (5" screen), as Python's csv and spreadsheets read it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"

namespace ts {

class CsvDataset : public Dataset {
public:
    // Throws DataError "file:line: ..." for a missing column (listing those that exist), a
    // feature or target that is not a number (naming its column), a row with the wrong number
    // of fields. With targetColumns, labelColumn must be empty (a table is one task).
    CsvDataset(const std::string& path, const std::string& labelColumn, const std::vector<std::string>& featureColumns,
               const std::string& groupColumn, const std::vector<std::string>& targetColumns = {});

    std::int64_t size() const override { return static_cast<std::int64_t>(labels_.size()); }
    Shape sampleShape() const override { return Shape{static_cast<std::int64_t>(featureNames_.size())}; }
    std::int64_t numClasses() const override { return static_cast<std::int64_t>(classNames_.size()); }
    std::vector<std::string> classNames() const override { return classNames_; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;

    std::string sampleSource(std::int64_t index) const override { return path_ + ":" + std::to_string(lines_[std::size_t(index)]); }

    TargetKind targetKind() const override { return targetNames_.empty() ? TargetKind::Classes : TargetKind::Values; }
    Shape targetShape() const override
    {
        return targetNames_.empty() ? Shape{} : Shape{static_cast<std::int64_t>(targetNames_.size())};
    }
    std::vector<std::string> targetNames() const override { return targetNames_; }
    void getValues(std::int64_t index, float* out) const override;

    const std::vector<std::string>& featureNames() const { return featureNames_; }
    // Group id per row (index into the sorted distinct group values); empty without a group column.
    const std::vector<std::int64_t>& groups() const { return groups_; }

private:
    std::string path_;
    std::vector<float> features_;  // rows x features, row-major
    std::vector<float> targets_;   // rows x targets (regression), row-major
    std::vector<std::int64_t> labels_, groups_, lines_;  // lines_: each row's line in the file
    std::vector<std::string> classNames_, featureNames_, targetNames_;
};

// One CSV record and the line it starts on (1-based; the header is line 1).
struct CsvRecord {
    std::vector<std::string> fields;
    std::int64_t line = 0;
};
// Splits CSV text into records; throws DataError for an unterminated quote.
std::vector<CsvRecord> parseCsv(const std::string& text, const std::string& path);
// The distinct values, trimmed and sorted (numerically when all are integers, "1" and "01" then
// one), and each value's index into them: labels become classes, groups group ids.
std::vector<std::int64_t> indexCsvValues(const std::vector<std::string>& values, std::vector<std::string>& distinct);
// A header record's column names, trimmed of spaces and tabs.
std::vector<std::string> csvHeader(const CsvRecord& record);
// The index of column `name` in `header`; throws DataError "file:1: no <role> column 'name'; the
// columns are ..." (the first 20) when it is not there.
std::size_t csvColumnIndex(const std::vector<std::string>& header, const std::string& name, const std::string& role,
                           const std::string& path);

}  // namespace ts
