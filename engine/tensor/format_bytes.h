// 1536 -> "1.5 KiB": byte counts as people read them (messages, summaries, the CLI); and
// (1, "epoch") -> "1 epoch", (3, "epoch") -> "3 epochs": counts with their noun, never "1 epochs".
#pragma once
#include <cstdio>
#include <string>

namespace ts {

inline std::string formatBytes(double bytes)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

// English nouns whose plural adds "s" (epoch, step, batch is not one: pass the plural).
inline std::string countText(long long n, const std::string& singular, const std::string& plural = {})
{
    return std::to_string(n) + " " + (n == 1 ? singular : plural.empty() ? singular + "s" : plural);
}

}  // namespace ts
