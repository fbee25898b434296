// Output helpers of `trainstudio-cli runs`: compact JSON, aligned tables and the text forms of
// metric values and times. NaN and infinities keep their identity everywhere (the store keeps
// them faithfully): "nan", "inf", "-inf" in text and CSV, the same words as JSON strings
// (JSON has no such numbers; Python's float() and most CSV readers accept these words).
#pragma once
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
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

// Compact JSON built as a string, so commands only describe structure: commas here, strings
// escaped by format.h's jsonString. Numbers are exact (jsonNumber's %.6g would turn a start
// time into 1.76448e+09) and non-finite ones keep their identity as strings.
class JsonWriter {
public:
    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(double number);  // non-finite: the string "nan", "inf" or "-inf"
    JsonWriter& value(bool flag);
    template <std::integral T>
        requires(!std::same_as<T, bool>)
    JsonWriter& value(T number)
    {
        return raw(std::to_string(number));
    }
    JsonWriter& null() { return raw("null"); }
    template <typename T>
    JsonWriter& field(std::string_view name, const T& v)
    {
        key(name);
        return value(v);
    }
    // Prints the document and a newline to stdout.
    void print() const;
    const std::string& text() const { return out_; }

private:
    JsonWriter& open(char bracket);
    JsonWriter& close(char bracket);
    JsonWriter& raw(std::string_view token);
    void separate();
    std::string out_;
    std::vector<bool> hasItems_;  // one per open container
    bool afterKey_ = false;
};

// Columns padded to their widest cell (counted in UTF-8 characters); columns whose letter in
// `align` is 'r' are right-aligned (numbers), others left-aligned.
class Table {
public:
    Table(std::vector<std::string> headers, std::string align);
    void add(std::vector<std::string> row);
    bool empty() const { return rows_.empty(); }
    void print(std::FILE* out = stdout, int indent = 0) const;

private:
    std::vector<std::string> headers_;
    std::string align_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace ts::cli
