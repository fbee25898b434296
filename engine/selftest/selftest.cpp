// The self-test's driver and comparison; the cases live in selftest_<family>.cpp.
#include "selftest/selftest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>

#include "selftest/selftest_harness.h"

namespace ts {

double selftestMatmulTolerance(MathPrecision p)
{
    switch (p) {
    case MathPrecision::F32: return kSelftestMatmulToleranceF32;
    case MathPrecision::TF32: return 5e-3;
    case MathPrecision::BF16: return 3e-2;
    case MathPrecision::F16: return 5e-3;
    }
    return kSelftestMatmulToleranceF32;
}

namespace {
template <class Pred> int countCases(const SelftestReport& r, Pred pred)
{
    return static_cast<int>(std::count_if(r.primitives.begin(), r.primitives.end(), pred) +
                            std::count_if(r.ops.begin(), r.ops.end(), pred));
}
}  // namespace

int SelftestReport::passed() const { return countCases(*this, [](const SelftestCase& c) { return c.passed; }); }
int SelftestReport::failed() const
{
    return countCases(*this, [](const SelftestCase& c) { return c.supported && !c.passed; });
}
int SelftestReport::unsupported() const { return countCases(*this, [](const SelftestCase& c) { return !c.supported; }); }

namespace selftest {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Comparison {
    double error = 0;
    std::string detail;
};

// Normwise relative error of one output; NaN and infinities must sit at the same places.
Comparison compare(const std::string& name, const std::vector<double>& cand, const std::vector<double>& ref, bool exact)
{
    if (cand.size() != ref.size()) return {kInf, name + ": sizes differ"};
    double maxRef = 0, worstDiff = -1;
    std::size_t worst = 0, differing = 0, firstDiffering = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        const double c = cand[i], r = ref[i];
        if (std::isnan(c) || std::isnan(r) || std::isinf(c) || std::isinf(r)) {
            const bool same = (std::isnan(c) && std::isnan(r)) || c == r;
            if (!same) return {kInf, format("%s[%zu]: %.9g, reference %.9g", name.c_str(), i, c, r)};
            continue;
        }
        maxRef = std::max(maxRef, std::abs(r));
        const double diff = std::abs(c - r);
        if (diff > worstDiff) worstDiff = diff, worst = i;
        if (diff != 0 && differing++ == 0) firstDiffering = i;
    }
    if (exact) {
        if (differing == 0) return {0, name + ": identical"};
        return {kInf, format("%s: %zu of %zu differ, first [%zu]: %.9g, reference %.9g", name.c_str(), differing, ref.size(),
                             firstDiffering, cand[firstDiffering], ref[firstDiffering])};
    }
    if (worstDiff < 0) return {0, name + ": all non-finite, matching"};
    return {worstDiff / std::max(maxRef, 1e-30),
            format("%s[%zu]: %.9g, reference %.9g", name.c_str(), worst, cand[worst], ref[worst])};
}

}  // namespace

std::vector<float> Harness::uniformHost(i64 n, float lo, float hi)
{
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v) x = dist(rng_);
    return v;
}

std::vector<std::int64_t> Harness::indicesHost(i64 n, std::int64_t bound)
{
    std::uniform_int_distribution<std::int64_t> dist(0, bound - 1);
    std::vector<std::int64_t> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = dist(rng_);
    return v;
}

Tensor Harness::scratch(int s, std::size_t bytes)
{
    if (bytes == 0) return {};
    return Tensor::empty(Shape{static_cast<i64>(bytes)}, DType::U8, backend(s).allocator());
}

bool Harness::candidateSupports(Primitive p)
{
    if (backend(kCand).supports(p, DType::F32)) return true;
    if (reportedUnsupported_.insert(p).second)
        record({std::string(primitiveName(p)), {}, 0, 0, false, "not supported by " + backend(kCand).name(), false});
    return false;
}

void Harness::check(Primitive primitive, std::string shape, double tolerance,
                    const std::function<void(Backend&, int)>& call, const std::vector<Output>& outputs)
{
    if (!candidateSupports(primitive)) {
        call(backend(kRef), kRef);  // later cases may read its outputs (mirrorReference: argmax, statistics)
        return;
    }
    SelftestCase c{std::string(primitiveName(primitive)), std::move(shape), 0, tolerance, false, {}};
    measure(c, call, [&](int s) {
        std::vector<NamedValues> values;
        for (const Output& o : outputs) values.push_back({o.name, o.values(s), o.exact});
        return values;
    });
    record(std::move(c));
}

void Harness::measure(SelftestCase& c, const std::function<void(Backend&, int)>& call,
                      const std::function<std::vector<NamedValues>(int)>& results)
{
    const char* stage = "candidate";
    try {
        call(backend(kCand), kCand);
        backend(kCand).synchronize();
        stage = "reference";
        call(backend(kRef), kRef);
        stage = "comparison";
        const std::vector<NamedValues> cand = results(kCand), ref = results(kRef);
        double worst = -1;
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const Comparison cmp = compare(ref[i].name, cand[i].values, ref[i].values, ref[i].exact);
            if (cmp.error > worst) worst = cmp.error, c.detail = cmp.detail;
        }
        c.error = std::max(worst, 0.0);
    } catch (const std::exception& e) {
        c.error = kInf;
        c.detail = std::string(stage) + " threw: " + e.what();
    }
    c.passed = c.error < c.tolerance;
}

std::string format(const char* fmt, ...)
{
    char buf[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    return buf;
}

}  // namespace selftest

SelftestReport compareBackends(Backend& candidate, Backend& reference, const SelftestOptions& options)
{
    SelftestReport report;
    const MathPrecision oldCandidate = candidate.mathPrecision(), oldReference = reference.mathPrecision();
    candidate.setMathPrecision(options.precision);
    reference.setMathPrecision(options.precision);
    try {
        selftest::Harness h(candidate, reference, options, report);
        selftest::memoryCases(h);
        selftest::gemmCases(h);
        selftest::convPoolCases(h);
        selftest::attentionCases(h);
        selftest::recurrentCases(h);
        selftest::normCases(h);
        selftest::lossCases(h);
        selftest::opCases(h);
        selftest::elementwiseCases(h);  // last: it ends with an out-of-range index on purpose
    } catch (...) {
        candidate.setMathPrecision(oldCandidate);
        reference.setMathPrecision(oldReference);
        throw;
    }
    candidate.setMathPrecision(oldCandidate);
    reference.setMathPrecision(oldReference);
    return report;
}

}  // namespace ts
