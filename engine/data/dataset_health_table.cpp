// The table checks of a CSV file, on the records the engine's own parser (parseCsv) gives:
// row by row, so a file the CsvDataset refuses (a ragged row, an empty cell) is still described.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "data/csv_dataset.h"
#include "data/data_files.h"
#include "data/dataset_health_parts.h"
#include "tensor/quote_text.h"

namespace ts {
namespace {

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// What spreadsheets and pandas write for "no value".
bool isMissing(const std::string& field)
{
    std::string s = trimmed(field);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s.empty() || s == "na" || s == "n/a" || s == "nan" || s == "null" || s == "none" || s == "?" || s == "-";
}

bool isNumber(const std::string& field)
{
    const std::string s = trimmed(field);
    if (s.empty()) return false;
    double v = 0;
    const char* begin = s.data() + (s[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

}  // namespace

void checkTable(const TableSource& table, const HealthOptions& options, std::vector<HealthFinding>& findings)
{
    const std::vector<std::uint8_t> bytes = readFileBytes(table.path);
    const std::size_t bom = bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0;
    const std::vector<CsvRecord> records = parseCsv(std::string(bytes.begin() + long(bom), bytes.end()), table.path);
    if (records.empty()) return;
    std::vector<std::string> header;
    for (const std::string& h : records[0].fields) header.push_back(trimmed(h));
    const std::size_t columns = header.size();
    const std::int64_t rows = std::int64_t(records.size()) - 1;

    auto finding = [&](FindingKind kind, std::int64_t row, std::int64_t line, const std::string& column, double value,
                       const std::string& detail) {
        HealthFinding f;
        f.kind = kind;
        f.split = row >= 0 ? "train" : "";
        f.sample = row;
        f.column = column;
        f.file = table.path;
        f.position = line;
        f.value = value;
        f.detail = table.path;
        if (line > 0) f.detail += ':', f.detail += std::to_string(line);
        f.detail += ": ";
        f.detail += detail;
        findings.push_back(std::move(f));
    };

    // Ragged rows; the cells of the others per column.
    std::vector<std::vector<const std::string*>> cells(columns);
    for (std::int64_t r = 1; r <= rows; ++r) {
        const CsvRecord& rec = records[std::size_t(r)];
        if (rec.fields.size() != columns) {
            finding(FindingKind::RaggedRow, r - 1, rec.line, "", double(rec.fields.size()),
                    std::to_string(rec.fields.size()) + " fields, but the header has " + std::to_string(columns) +
                        "; fix the row or remove it");
            continue;
        }
        for (std::size_t c = 0; c < columns; ++c) cells[c].push_back(&rec.fields[c]);
    }

    // The feature columns as the reader picks them: named, or every column but label and group
    // whose first (non-missing) value is a number.
    std::vector<bool> feature(columns, false);
    for (std::size_t c = 0; c < columns; ++c) {
        if (!table.featureColumns.empty()) {
            feature[c] = std::find(table.featureColumns.begin(), table.featureColumns.end(), header[c]) != table.featureColumns.end();
            continue;
        }
        if (header[c] == table.labelColumn || header[c] == table.groupColumn) continue;
        const auto first = std::find_if(cells[c].begin(), cells[c].end(), [](const std::string* s) { return !isMissing(*s); });
        feature[c] = first != cells[c].end() && isNumber(**first);
    }

    for (std::size_t c = 0; c < columns; ++c) {
        // Missing cells: one finding per column, at its first missing line.
        std::int64_t missing = 0, firstLine = -1;
        std::map<std::string, std::int64_t> values;
        for (std::size_t r = 0; r < cells[c].size(); ++r) {
            if (isMissing(*cells[c][r])) {
                if (missing++ == 0) {
                    // the r-th well-formed row: find its line
                    std::size_t seen = 0;
                    for (std::int64_t k = 1; k <= rows; ++k)
                        if (records[std::size_t(k)].fields.size() == columns && seen++ == r) {
                            firstLine = records[std::size_t(k)].line;
                            break;
                        }
                }
                continue;
            }
            ++values[trimmed(*cells[c][r])];
        }
        if (missing > 0)
            finding(FindingKind::MissingValues, -1, firstLine, header[c], double(missing),
                    "column " + quoteText(header[c]) + " has " + std::to_string(missing) + " missing " +
                        (missing == 1 ? "value" : "values") + " (first here); fill them or drop the rows");
        const std::int64_t present = std::int64_t(cells[c].size()) - missing;
        if (header[c] == table.labelColumn) {
            const std::int64_t classes = std::int64_t(values.size());
            if (classes > options.maxClasses || (present >= 20 && classes * 2 > present))
                finding(FindingKind::TooManyClasses, -1, 1, header[c], double(classes),
                        "the label column " + quoteText(header[c]) + " has " + std::to_string(classes) + " distinct values in " +
                            std::to_string(present) + " rows: is it a regression target or an id? Choose another label column");
            continue;
        }
        if (!feature[c] || present == 0) continue;
        std::int64_t top = 0;
        for (const auto& [v, n] : values) top = std::max(top, n);
        const double share = double(top) / double(present);
        if (values.size() == 1)
            finding(FindingKind::ConstantFeature, -1, 1, header[c], 1.0,
                    "feature " + quoteText(header[c]) + " has one value in every row: it carries no information; drop it");
        else if (share >= options.nearConstantShare) {
            char percent[32];
            std::snprintf(percent, sizeof percent, "%.1f%%", std::floor(share * 1000) / 10);
            finding(FindingKind::NearConstantFeature, -1, 1, header[c], share,
                    "feature " + quoteText(header[c]) + " has one value in " + percent + " of the rows; consider dropping it");
        }
    }
}

}  // namespace ts
