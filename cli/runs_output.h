// Output helpers of `trainstudio-cli runs`: aligned tables and the text forms of metric values
// and times. NaN and infinities keep their identity everywhere (the store keeps them
// faithfully): "nan", "inf", "-inf" in text and CSV, the same words as JSON strings
// (json_output.h's jsonValue; Python's float() and most CSV readers accept these words).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ts::cli {

// "0.912", "nan", "inf", "-inf": six significant digits, for people.
std::string displayNumber(double v);
// The shortest text that reads back as the same double, for files and scripts.
std::string exactNumber(double v);
// Local time "2026-11-30 14:02:15" ("-" for 0, which the store uses for "not yet").
std::string localTime(double unixSeconds);
// Local time in ISO 8601 with the offset: "2026-11-30T14:02:15+0100" (empty for 0).
std::string isoLocalTime(double unixSeconds);
// "0.8s", "42s", "3m05s", "2h04m"; "-" when negative or unknown (NaN).
std::string formatDuration(double seconds);

// Columns padded to their widest cell (counted in UTF-8 characters); columns whose letter in
// `align` is 'r' are right-aligned (numbers), others left-aligned. Every cell is made safe for
// the terminal and cut to maxChars() with "…" (terminal_text.h): a run name holding a newline
// or an escape sequence, or ten thousand characters long, stays one cell of one row.
class Table {
public:
    static constexpr std::size_t kMaxCellChars = 80;
    Table(std::vector<std::string> headers, std::string align);
    void add(std::vector<std::string> row);
    // Cells added from now on are cut to this many characters (default kMaxCellChars).
    void setMaxChars(std::size_t chars) { maxChars_ = chars; }
    bool empty() const { return rows_.empty(); }
    void print(std::FILE* out = stdout, int indent = 0) const;

private:
    std::vector<std::string> headers_;
    std::string align_;
    std::vector<std::vector<std::string>> rows_;
    std::size_t maxChars_ = kMaxCellChars;
};

}  // namespace ts::cli
