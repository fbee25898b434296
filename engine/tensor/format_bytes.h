// 1536 -> "1.5 KiB": byte counts as people read them (messages, summaries, the CLI).
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

}  // namespace ts
