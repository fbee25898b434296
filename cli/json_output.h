// The CLI's --json output: nlohmann::ordered_json documents (keys stay in the order a command
// writes them), printed compact, one document per line of stdout.
//
// JSON has no NaN or infinities. A plain double that is not finite is written as null (that is
// nlohmann's rule); where the value's identity matters, the store's metrics in `runs` and the
// numbers of `eval` and `predict`, jsonValue writes the words "nan", "inf", "-inf" instead, as
// the text and CSV outputs do (runs_output.h; Python's float() reads them back).
#pragma once
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ts::cli {

using Json = nlohmann::ordered_json;

// A number, or "nan", "inf", "-inf".
inline Json jsonValue(double v)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

// The value, or null when there is none.
template <typename T>
Json orNull(const std::optional<T>& v)
{
    return v ? Json(*v) : Json(nullptr);
}

// The document and a newline on stdout. Bytes that are not UTF-8 (a file name can have them)
// come out as U+FFFD instead of failing the command.
inline void printJson(const Json& document)
{
    const std::string text = document.dump(-1, ' ', false, Json::error_handler_t::replace);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
}

}  // namespace ts::cli
