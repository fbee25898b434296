// Small text formatting shared by the CLI's commands.
#pragma once
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "store/workspace.h"
#include "tensor/format_bytes.h"

namespace ts::cli {

using ts::formatBytes;

// 535818 -> "535,818"
inline std::string formatCount(std::int64_t n)
{
    std::string digits = std::to_string(n < 0 ? -n : n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (n < 0 ? "-" : "") + out;
}

// "--name VALUE" options (repeatable), "--flag" switches and positional arguments.
struct Options {
    std::map<std::string, std::vector<std::string>> values;
    std::set<std::string> flags;
    std::vector<std::string> positional;
    std::string get(const std::string& name, const std::string& fallback) const
    {
        auto it = values.find(name);
        return it == values.end() ? fallback : it->second.back();
    }
    std::vector<std::string> all(const std::string& name) const
    {
        auto it = values.find(name);
        return it == values.end() ? std::vector<std::string>{} : it->second;
    }
    bool has(const std::string& name) const { return values.count(name) || flags.count(name); }
    // --workspace DIR, else the default workspace (store/workspace.h), absolute and normalised.
    std::string workspace() const
    {
        std::string path = std::filesystem::absolute(get("--workspace", Workspace::defaultDirectory())).lexically_normal().string();
        if (path.size() > 1 && path.back() == '/') path.pop_back();
        return path;
    }
    // The option as a finite number ("3e-4" too) in [minimum, maximum]; throws
    // std::invalid_argument naming the range when it is not.
    double number(const std::string& name, double fallback, double minimum = -std::numeric_limits<double>::max(),
                  double maximum = std::numeric_limits<double>::max()) const
    {
        if (!has(name)) return fallback;
        const std::string text = get(name, "");
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || std::isnan(v))
            throw std::invalid_argument(name + " expects a number, got '" + quoted(text) + "'");
        // Beyond a double is out of range; below its smallest step (1e-400) it reads as 0 or
        // nearly, which the bounds then judge.
        const bool huge = errno == ERANGE && std::isinf(v);
        if (huge || v < minimum || v > maximum)
            throw std::invalid_argument(name + ": " + quoted(text) + " is out of range: " +
                                        (v < minimum ? "at least " + shortNumber(minimum) : "at most " + shortNumber(maximum)));
        return v;
    }
    // number() that must be more than 0 (a learning rate).
    double positiveNumber(const std::string& name, double fallback) const
    {
        const double v = number(name, fallback);
        if (!(v > 0)) throw std::invalid_argument(name + ": " + quoted(get(name, "")) + " is out of range: more than 0");
        return v;
    }
    // The option as an integer in [minimum, maximum]; throws std::invalid_argument that says
    // "expects an integer" for text that is none, else the bound it breaks (also for digits
    // beyond 64 bits, which are out of range, not malformed).
    long long integer(const std::string& name, long long fallback, long long minimum,
                      long long maximum = std::numeric_limits<long long>::max()) const
    {
        if (!has(name)) return fallback;
        const std::string text = get(name, "");
        const char* begin = text.data() + (text.starts_with('+') && text.size() > 1 && text[1] != '-');
        long long v = 0;
        const auto [end, error] = std::from_chars(begin, text.data() + text.size(), v);
        if (error == std::errc::result_out_of_range)
            throw std::invalid_argument(name + ": " + quoted(text) + " is out of range: " +
                                        (text.starts_with('-') ? "at least " + std::to_string(minimum)
                                                               : "at most " + std::to_string(maximum)));
        if (error != std::errc{} || end != text.data() + text.size())
            throw std::invalid_argument(name + " expects an integer, got '" + quoted(text) + "'");
        if (v < minimum || v > maximum)
            throw std::invalid_argument(name + ": " + quoted(text) + " is out of range: " +
                                        (v < minimum ? "at least " + std::to_string(minimum) : "at most " + std::to_string(maximum)));
        return v;
    }

private:
    // Quoted values are cut: an argument can be megabytes long.
    static std::string quoted(const std::string& text)
    {
        std::size_t cut = 40;
        if (text.size() <= cut) return text;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
        return text.substr(0, cut) + "…";
    }
    static std::string shortNumber(double v)
    {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%g", v);
        return buffer;
    }
};

// The most CPU threads an option accepts: far above any machine, low enough that a typo is
// refused rather than started as millions of threads.
inline constexpr long long kMaxThreads = 4096;

// Warns on stderr when `name`'s `threads` is more than this machine's hardware threads: not
// refused (the job may run elsewhere, the count may be deliberate), but threads beyond the
// cores take turns on them, which usually makes every step slower.
inline void warnAboveHardwareThreads(const std::string& name, long long threads)
{
    const unsigned hardware = std::thread::hardware_concurrency();  // 0: unknown
    if (hardware == 0 || threads <= static_cast<long long>(hardware)) return;
    std::fprintf(stderr,
                 "warning: %s %lld is more than the %u CPU threads this machine has: the threads will take turns, "
                 "which usually makes each step slower (0: automatic, the cores other programs leave idle)\n",
                 name.c_str(), threads, hardware);
}

// Parses args against the known option names; throws std::invalid_argument on anything else.
inline Options parseOptions(const std::vector<std::string>& args, const std::set<std::string>& valueNames,
                            const std::set<std::string>& flagNames)
{
    Options o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (flagNames.count(args[i])) o.flags.insert(args[i]);
        else if (valueNames.count(args[i])) {
            if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
            o.values[args[i]].push_back(args[i + 1]);
            ++i;
        } else if (args[i].rfind("-", 0) == 0) {
            throw std::invalid_argument("unknown option '" + args[i] + "'");
        } else {
            o.positional.push_back(args[i]);
        }
    }
    return o;
}

}  // namespace ts::cli
