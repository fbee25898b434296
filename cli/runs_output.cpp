#include "runs_output.h"
#include "terminal_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>

namespace ts::cli {

namespace {

const char* nonFiniteWord(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

std::string strftimeLocal(double unixSeconds, const char* format)
{
    const std::time_t t = static_cast<std::time_t>(std::floor(unixSeconds));
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[64];
    return std::string(buf, std::strftime(buf, sizeof buf, format, &tm));
}

std::size_t utf8Length(const std::string& s)
{
    // Continuation bytes (10xxxxxx) do not start a character.
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

std::string displayNumber(double v)
{
    if (!std::isfinite(v)) return nonFiniteWord(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string exactNumber(double v)
{
    if (!std::isfinite(v)) return nonFiniteWord(v);
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, result.ptr);
}

std::string localTime(double unixSeconds) { return unixSeconds > 0 ? strftimeLocal(unixSeconds, "%Y-%m-%d %H:%M:%S") : "-"; }

std::string isoLocalTime(double unixSeconds) { return unixSeconds > 0 ? strftimeLocal(unixSeconds, "%Y-%m-%dT%H:%M:%S%z") : ""; }

std::string formatDuration(double seconds)
{
    if (!(seconds >= 0)) return "-";
    char buf[32];
    if (seconds < 10) std::snprintf(buf, sizeof buf, "%.1fs", seconds);
    else if (seconds < 60) std::snprintf(buf, sizeof buf, "%.0fs", seconds);
    else {
        const long s = std::lround(seconds);
        if (s < 3600) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
        else std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    }
    return buf;
}

Table::Table(std::vector<std::string> headers, std::string align) : headers_(std::move(headers)), align_(std::move(align))
{
    for (auto& h : headers_) h = terminalCell(h, maxChars_);
}

void Table::add(std::vector<std::string> row)
{
    row.resize(headers_.size());
    for (auto& cell : row) cell = terminalCell(cell, maxChars_);
    rows_.push_back(std::move(row));
}

void Table::print(std::FILE* out, int indent) const
{
    std::vector<std::size_t> width(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) {
        width[c] = utf8Length(headers_[c]);
        for (const auto& row : rows_) width[c] = std::max(width[c], utf8Length(row[c]));
    }
    auto printRow = [&](const std::vector<std::string>& row) {
        std::string line(static_cast<std::size_t>(indent), ' ');
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(width[c] - utf8Length(row[c]), ' ');
            const bool right = c < align_.size() && align_[c] == 'r';
            line += right ? pad + row[c] : row[c] + (c + 1 < row.size() ? pad : "");
            if (c + 1 < row.size()) line += "  ";
        }
        std::fprintf(out, "%s\n", line.c_str());
    };
    printRow(headers_);
    for (const auto& row : rows_) printRow(row);
}

}  // namespace ts::cli
