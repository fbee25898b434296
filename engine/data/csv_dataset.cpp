#include "data/csv_dataset.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>

#include "data/data_files.h"
#include "tensor/quote_text.h"

namespace ts {
namespace {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool parseNumber(const std::string& field, double& value)
{
    const std::string s = trim(field);
    if (s.empty())
        return false;
    const char* begin = s.data() + (s[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
    // "nan" and "inf" parse, but would poison the statistics and the loss: refused.
    return ec == std::errc() && end == s.data() + s.size() && std::isfinite(value);
}

bool parseInteger(const std::string& field, long long& value)
{
    const std::string s = trim(field);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::vector<std::int64_t> indexCsvValues(const std::vector<std::string>& values, std::vector<std::string>& distinct)
{
    std::vector<std::string> trimmed;
    for (const auto& v : values)
        trimmed.push_back(trim(v));
    distinct = trimmed;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    long long a = 0, b = 0;
    const bool integers = std::all_of(distinct.begin(), distinct.end(), [&](const std::string& s) { return parseInteger(s, a); });
    if (integers) {
        std::sort(distinct.begin(), distinct.end(), [&](const std::string& x, const std::string& y) {
            parseInteger(x, a);
            parseInteger(y, b);
            return a < b;
        });
        // "1" and "01" are one class when the labels are numbers.
        distinct.erase(std::unique(distinct.begin(), distinct.end(), [&](const std::string& x, const std::string& y) {
                           parseInteger(x, a);
                           parseInteger(y, b);
                           return a == b;
                       }), distinct.end());
    }
    std::map<std::string, std::int64_t> index;
    for (std::size_t i = 0; i < distinct.size(); ++i)
        index[distinct[i]] = static_cast<std::int64_t>(i);
    std::vector<std::int64_t> out;
    out.reserve(trimmed.size());
    for (const auto& v : trimmed) {
        if (integers && !index.count(v)) {  // another spelling of a listed integer
            parseInteger(v, a);
            for (std::size_t i = 0; i < distinct.size(); ++i)
                if (parseInteger(distinct[i], b) && a == b)
                    index[v] = static_cast<std::int64_t>(i);
        }
        out.push_back(index.at(v));
    }
    return out;
}

std::vector<CsvRecord> parseCsv(const std::string& text, const std::string& path)
{
    std::vector<CsvRecord> records;
    CsvRecord record;
    std::string field;
    std::int64_t line = 1;
    bool inQuotes = false, fieldStarted = false;
    bool atFieldStart = true;  // a quote opens quoting only here: in `5" screen` it is a character (as for Python, Excel)
    std::int64_t quoteLine = 0;
    record.line = 1;
    auto endRecord = [&] {
        record.fields.push_back(std::move(field));
        field.clear();
        // Blank lines are skipped, not read as one empty field.
        if (!(record.fields.size() == 1 && record.fields[0].empty() && !fieldStarted))
            records.push_back(std::move(record));
        record = CsvRecord{};
        fieldStarted = false;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inQuotes) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                inQuotes = false;
            } else {
                if (c == '\n')
                    ++line;
                field += c;
            }
            continue;
        }
        if (record.fields.empty() && field.empty() && !fieldStarted)
            record.line = line;
        if (c == '"' && atFieldStart) {
            inQuotes = true;
            fieldStarted = true;
            atFieldStart = false;
            quoteLine = line;
        } else if (c == ',') {
            record.fields.push_back(std::move(field));
            field.clear();
            fieldStarted = true;
            atFieldStart = true;
        } else if (c == '\n') {
            endRecord();
            ++line;
            atFieldStart = true;
        } else if (c != '\r') {
            field += c;
            fieldStarted = true;
            atFieldStart = false;
        }
    }
    if (inQuotes)
        throw lineError(path, quoteLine, "a quoted field is never closed (a quote inside a quoted field is written "
                                         "twice: \"say \"\"hi\"\"\")");
    if (fieldStarted || !field.empty() || !record.fields.empty())
        endRecord();
    return records;
}

std::vector<std::string> csvHeader(const CsvRecord& record)
{
    std::vector<std::string> header;
    for (const auto& h : record.fields)
        header.push_back(trim(h));
    return header;
}

std::size_t csvColumnIndex(const std::vector<std::string>& header, const std::string& name, const std::string& role,
                           const std::string& path)
{
    const auto it = std::find(header.begin(), header.end(), name);
    if (it != header.end())
        return static_cast<std::size_t>(it - header.begin());
    // Each name quoted (bounded), and the first 20 of a wide header only.
    std::string list;
    for (std::size_t i = 0; i < header.size() && i < 20; ++i)
        list += (i ? ", " : "") + quoteText(header[i]);
    if (header.size() > 20)
        list += " and " + std::to_string(header.size() - 20) + " more";
    throw lineError(path, 1, "no " + role + " column " + (name.empty() ? "given (dataset." + role + "_column)" : quoteText(name)) +
                                 "; the columns are " + list);
}

CsvDataset::CsvDataset(const std::string& path, const std::string& labelColumn,
                       const std::vector<std::string>& featureColumns, const std::string& groupColumn,
                       const std::vector<std::string>& targetColumns)
    : path_(path), targetNames_(targetColumns)
{
    const std::vector<std::uint8_t> bytes = readFileBytes(path);
    // Spreadsheets often start UTF-8 files with a byte-order mark; it is not part of the header.
    const std::size_t bom = bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0;
    const std::vector<CsvRecord> records = parseCsv(std::string(bytes.begin() + bom, bytes.end()), path);
    if (records.empty())
        throw lineError(path, 1, "the file is empty (expected a header row)");
    const std::vector<std::string> header = csvHeader(records[0]);
    auto column = [&](const std::string& name, const char* role) { return csvColumnIndex(header, name, role, path); };
    const bool regression = !targetColumns.empty();
    if (regression && !labelColumn.empty())
        throw lineError(path, 1, "both a label column (classes) and target columns (numbers to predict) are given; keep "
                                 "label_column for classification or target_columns for regression");
    if (!regression && labelColumn.empty())
        throw lineError(path, 1, "no label column given (dataset.label_column; or dataset.target_columns for regression)");
    std::vector<std::size_t> targetIndex;
    for (const auto& name : targetColumns)
        targetIndex.push_back(column(name, "target"));
    // Regression has no label column: header.size() marks "none", as for the group.
    const std::size_t labelIndex = regression ? header.size() : column(labelColumn, "label");
    auto isTarget = [&](std::size_t c) { return std::find(targetIndex.begin(), targetIndex.end(), c) != targetIndex.end(); };
    const std::size_t groupIndex = groupColumn.empty() ? header.size() : column(groupColumn, "group");
    if (records.size() < 2)
        throw lineError(path, 2, "no data rows after the header");
    for (const auto& r : records)
        if (r.fields.size() != header.size())
            throw lineError(path, r.line, std::to_string(r.fields.size()) + " fields, but the header has " +
                                              std::to_string(header.size()));

    std::vector<std::size_t> featureIndex;
    double value = 0;
    if (!featureColumns.empty()) {
        for (const auto& name : featureColumns)
            featureIndex.push_back(column(name, "feature"));
    } else {
        // Numeric columns, judged by the first data row; later non-numbers are then errors.
        for (std::size_t c = 0; c < header.size(); ++c)
            if (c != labelIndex && c != groupIndex && !isTarget(c) && parseNumber(records[1].fields[c], value))
                featureIndex.push_back(c);
        if (featureIndex.empty())
            throw lineError(path, 2, "no numeric feature columns besides the " +
                                         (regression ? std::string("targets") : "label " + quoteText(labelColumn)));
    }
    for (std::size_t c : featureIndex)
        featureNames_.push_back(header[c]);

    const std::size_t rows = records.size() - 1;
    features_.reserve(rows * featureIndex.size());
    std::vector<std::string> labelValues, groupValues;
    for (std::size_t r = 1; r < records.size(); ++r) {
        const CsvRecord& rec = records[r];
        for (std::size_t c : featureIndex) {
            if (!parseNumber(rec.fields[c], value))
                throw lineError(path, rec.line, "column " + quoteText(header[c]) + " is " + quoteText(rec.fields[c]) + ", not a (finite) number");
            features_.push_back(static_cast<float>(value));
        }
        for (std::size_t c : targetIndex) {
            if (!parseNumber(rec.fields[c], value))
                throw lineError(path, rec.line, "column " + std::to_string(c + 1) + " (" + quoteText(header[c]) + ", a target) is " +
                                                    quoteText(rec.fields[c]) + ", not a (finite) number: regression predicts "
                                                    "numbers; fix or remove the row, or name a numeric column in target_columns");
            targets_.push_back(static_cast<float>(value));
        }
        labelValues.push_back(regression ? "0" : rec.fields[labelIndex]);
        lines_.push_back(rec.line);
        if (groupIndex < header.size())
            groupValues.push_back(rec.fields[groupIndex]);
    }
    labels_ = indexCsvValues(labelValues, classNames_);
    if (regression)
        classNames_.clear();  // no classes: every row's label is 0, one stratum (dataset.h)
    if (!groupValues.empty()) {
        std::vector<std::string> distinctGroups;
        groups_ = indexCsvValues(groupValues, distinctGroups);
    }
}

std::int64_t CsvDataset::get(std::int64_t index, float* out) const
{
    const std::size_t f = featureNames_.size();
    std::copy_n(features_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(index) * f), f, out);
    return labels_[static_cast<std::size_t>(index)];
}

void CsvDataset::getValues(std::int64_t index, float* out) const
{
    const std::size_t t = targetNames_.size();
    if (t == 0)
        Dataset::getValues(index, out);  // throws: this table has classes
    std::copy_n(targets_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(index) * t), t, out);
}

std::string CsvDataset::description() const
{
    return std::filesystem::path(path_).filename().string() + " (" + std::to_string(size()) + " x " +
           sampleShape().str() + ")";
}

}  // namespace ts
