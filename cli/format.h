// Small text formatting shared by the CLI's commands.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
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
    // The option as a finite number ("3e-4" too); throws std::invalid_argument with a clear message.
    double number(const std::string& name, double fallback) const
    {
        if (!has(name)) return fallback;
        const std::string text = get(name, "");
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text.size() || !std::isfinite(v))
            throw std::invalid_argument(name + " expects a number, got '" + text + "'");
        return v;
    }
    // The option as an integer >= minimum; throws std::invalid_argument with a clear message.
    long long integer(const std::string& name, long long fallback, long long minimum) const
    {
        const std::string text = get(name, std::to_string(fallback));
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(text, &used);
        } catch (...) {
            used = 0;
        }
        if (used != text.size() || v < minimum)
            throw std::invalid_argument(name + " expects an integer >= " + std::to_string(minimum) + ", got '" + text + "'");
        return v;
    }
};

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
