// A minimal check harness for the distributed suites: they run under mpirun, one process per
// rank, where Qt Test's single-process model does not fit (and the GPU machine has no Qt).
// Each case runs on every rank; a failed check prints the rank, file and line and the values,
// and the program's exit status is the number of failed checks (mpirun reports it).
#pragma once
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ts::test {

inline int& failures()
{
    static int n = 0;
    return n;
}
inline int& currentRank()
{
    static int r = 0;
    return r;
}

inline bool check(bool ok, const char* what, const char* file, int line, const std::string& detail = {})
{
    if (!ok) {
        ++failures();
        std::fprintf(stderr, "FAIL rank %d %s:%d: %s %s\n", currentRank(), file, line, what, detail.c_str());
    }
    return ok;
}

inline std::string both(double a, double b)
{
    char text[96];
    std::snprintf(text, sizeof text, "(%.17g vs %.17g)", a, b);
    return text;
}

// A case that cannot run here (no GPU) sets the reason; it is reported as SKIP, not PASS.
inline std::string& skipReason()
{
    static std::string reason;
    return reason;
}

struct Case {
    const char* name;
    std::function<void()> body;
};

// Runs every case; the status to return from main.
inline int runCases(const std::vector<Case>& cases)
{
    for (const Case& c : cases) {
        const int before = failures();
        skipReason().clear();
        try {
            c.body();
        } catch (const std::exception& e) {
            check(false, "exception", c.name, 0, e.what());
        }
        if (currentRank() == 0 && !skipReason().empty())
            std::printf("SKIP %s: %s\n", c.name, skipReason().c_str());
        else if (currentRank() == 0)
            std::printf("%s %s\n", failures() == before ? "PASS" : "FAIL", c.name);
        std::fflush(stdout);
    }
    return failures() > 0 ? 1 : 0;
}

}  // namespace ts::test

#define TS_CHECK(cond) ::ts::test::check((cond), #cond, __FILE__, __LINE__)
#define TS_CHECK_EQ(a, b) ::ts::test::check((a) == (b), #a " == " #b, __FILE__, __LINE__, ::ts::test::both(double(a), double(b)))
