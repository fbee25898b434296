// The backend self-test harness (backend/selftest.h), checked on the CPU: a second CpuBackend
// against the process-wide one passes every case and covers every primitive of backend.h;
// deliberately broken backends (CpuBackend subclasses) fail exactly the cases of the broken
// primitive, which proves the harness can fail.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "backend/cpu/cpu_backend.h"
#include "selftest/selftest.h"

using namespace ts;

namespace {

// Every primitive of the Backend interface (conv2dWorkspaceBytes is exercised by the conv cases).
const std::set<std::string> kPrimitives = {
    "fill", "zeroBytes", "copyBytes", "copyToHost", "copyFromHost", "copy2d",
    "gemm", "axpy", "add", "addBias", "biasBackward", "sumSquares",
    "segmentedSumSquares",
    "activationForward", "activationBackward", "dropoutForward", "dropoutBackward",
    "conv2dForward", "conv2dBackwardData", "conv2dBackwardFilter", "conv2dBackward", "pool2dForward", "pool2dBackward",
    "batchNormForwardTraining", "batchNormForwardInference", "batchNormBackward", "batchNormBackwardInference",
    "batchNormReluForwardTraining", "batchNormReluBackward",
    "groupNormForward", "groupNormBackward",
    "softmaxForward", "softmaxBackward", "crossEntropyForward", "crossEntropyBackward", "mseForward", "mseBackward",
    "bceWithLogitsForward", "bceWithLogitsBackward",
    "embeddingForward", "embeddingBackward",
    "sgdUpdate", "adamUpdate", "rmspropUpdate", "scale", "clampValues",
};

// Writes dx one way whatever it is asked: always overwrites, or always accumulates.
template <GradWrite Always> class IgnoringGradWrite : public CpuBackend {
public:
    void activationBackward(Activation act, float alpha, const float* x, const float* y, const float* dy, float* dx,
                            std::int64_t n, GradWrite) override
    {
        CpuBackend::activationBackward(act, alpha, x, y, dy, dx, n, Always);
    }
};

// C = alpha op(A) op(B), whatever beta says.
class GemmIgnoringBeta : public CpuBackend {
public:
    void gemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const float* a,
              std::int64_t lda, const float* b, std::int64_t ldb, float, float* c, std::int64_t ldc) override
    {
        CpuBackend::gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, 0.0f, c, ldc);
    }
};

// One dropout mask bit flipped (y left as computed): only the exact mask comparison sees it.
class FlippedMask : public CpuBackend {
public:
    void dropoutForward(const float* x, float* y, std::uint8_t* mask, std::int64_t n, float p, std::uint64_t seed) override
    {
        CpuBackend::dropoutForward(x, y, mask, n, p, seed);
        mask[n / 2] ^= 1;
    }
};

// Clamping NaN to the bounds (std::clamp-like code does) instead of keeping it.
class ClampEatsNan : public CpuBackend {
public:
    void clampValues(float* x, std::int64_t n, float lo, float hi) override
    {
        for (std::int64_t i = 0; i < n; ++i) x[i] = std::isnan(x[i]) ? lo : std::min(std::max(x[i], lo), hi);
    }
};

// A primitive that throws, as a CUDA error would.
class ThrowingSoftmax : public CpuBackend {
public:
    void softmaxForward(const float*, float*, std::int64_t, std::int64_t) override
    {
        throw std::runtime_error("launch failed");
    }
};

std::set<std::string> failingPrimitives(const SelftestReport& r)
{
    std::set<std::string> out;
    for (const auto& c : r.cases)
        if (!c.passed) out.insert(c.primitive);
    return out;
}

QString failures(const SelftestReport& r)
{
    QString s;
    for (const auto& c : r.cases)
        if (!c.passed)
            s += QString::fromStdString(c.primitive + " " + c.shape + ": " + c.detail) +
                 QString(" (error %1, tolerance %2)\n").arg(c.error).arg(c.tolerance);
    return s;
}

SelftestOptions quick(MathPrecision p = MathPrecision::F32)
{
    SelftestOptions o;
    o.seed = 11;
    o.precision = p;
    o.largeShapes = false;
    return o;
}

bool hasCase(const SelftestReport& r, const std::string& primitive, const std::string& shapePart)
{
    return std::any_of(r.cases.begin(), r.cases.end(), [&](const SelftestCase& c) {
        return c.primitive == primitive && c.shape.find(shapePart) != std::string::npos;
    });
}

}  // namespace

class TestSelftest : public QObject {
    Q_OBJECT

private slots:
    void cpuAgainstCpuPassesEveryCase()
    {
        CpuBackend second;
        SelftestOptions o;  // large shapes included: what the CLI runs
        o.seed = 3;
        const SelftestReport r = compareBackends(second, cpuBackend(), o);
        QVERIFY2(r.failed() == 0, qPrintable(failures(r)));
        QVERIFY(r.passed() > 300);
        std::set<std::string> seen;
        for (const auto& c : r.cases) {
            seen.insert(c.primitive);
            QVERIFY2(kPrimitives.count(c.primitive), c.primitive.c_str());
            QVERIFY(!c.shape.empty());
            QVERIFY(!c.detail.empty());
            // Two CPU instances run identical code: every result must match exactly.
            QVERIFY2(c.error == 0, (c.primitive + " " + c.shape + ": " + c.detail).c_str());
        }
        for (const auto& p : kPrimitives) QVERIFY2(seen.count(p), ("no case for " + p).c_str());

        // The variants the contract names are all there.
        for (const char* t : {" NN ", " NT ", " TN ", " TT "}) QVERIFY(hasCase(r, "gemm", std::string(t) + "lda="));
        QVERIFY(hasCase(r, "gemm", "alpha=1.5 beta=0.5"));
        QVERIFY(hasCase(r, "gemm", "m=130 n=67 k=257"));
        QVERIFY(hasCase(r, "copy2d", "accumulate"));
        QVERIFY(hasCase(r, "conv2dBackwardFilter", "dil=2x1 groups=2"));
        QVERIFY(hasCase(r, "conv2dForward", "x=[128, 32, 28, 28]"));
        QVERIFY(hasCase(r, "pool2dForward", "avg x=[3, 5, 7, 9] kernel=3x3 stride=2 pad=1 excludePad"));
        QVERIFY(hasCase(r, "groupNormBackward", "(LayerNorm)"));
        QVERIFY(hasCase(r, "crossEntropyBackward", "class weights label smoothing"));
        QVERIFY(hasCase(r, "sgdUpdate", "nesterov"));
        QVERIFY(hasCase(r, "adamUpdate", "AdamW lr=0.05 wd=0.1 step=1000"));
        QVERIFY(hasCase(r, "clampValues", "NaN"));
        QVERIFY(hasCase(r, "embeddingForward", "must throw"));
        QVERIFY(hasCase(r, "activationForward", "n=3211264"));
    }

    void reducedPrecisionLoosensOnlyMatrixProducts()
    {
        CpuBackend second;
        const SelftestReport r = compareBackends(second, cpuBackend(), quick(MathPrecision::BF16));
        QVERIFY2(r.failed() == 0, qPrintable(failures(r)));
        for (const auto& c : r.cases) {
            const bool matmul = c.primitive == "gemm" || c.primitive.rfind("conv2d", 0) == 0;
            QCOMPARE(c.tolerance, matmul ? 3e-2 : 1e-5);
        }
        // Both backends are back at their own precision afterwards.
        QCOMPARE(second.mathPrecision(), MathPrecision::F32);
        QCOMPARE(cpuBackend().mathPrecision(), MathPrecision::F32);
        QCOMPARE(selftestMatmulTolerance(MathPrecision::F32), 1e-4);
        QCOMPARE(selftestMatmulTolerance(MathPrecision::TF32), 5e-3);
        QCOMPARE(selftestMatmulTolerance(MathPrecision::F16), 5e-3);
    }

    void ignoredGradWriteIsCaught()
    {
        // Always overwriting fails the accumulate cases, always accumulating the overwrite ones.
        IgnoringGradWrite<GradWrite::Overwrite> overwriting;
        IgnoringGradWrite<GradWrite::Accumulate> accumulating;
        for (Backend* broken : std::initializer_list<Backend*>{&overwriting, &accumulating}) {
            const bool overwrites = broken == &overwriting;
            const SelftestReport r = compareBackends(*broken, cpuBackend(), quick());
            QCOMPARE(failingPrimitives(r), std::set<std::string>{"activationBackward"});
            int failed = 0;
            for (const auto& c : r.cases) {
                if (c.primitive != "activationBackward") continue;
                const bool overwriteCase = c.shape.find(" overwrite") != std::string::npos;
                QVERIFY2(c.passed == (overwriteCase == overwrites), c.shape.c_str());  // every activation, every size
                if (c.passed) continue;
                ++failed;
                QVERIFY(c.error > 1e-2);
                QVERIFY2(c.detail.rfind("dx[", 0) == 0, c.detail.c_str());
            }
            QVERIFY(failed >= 6);
        }
    }

    void gemmIgnoringBetaIsCaught()
    {
        GemmIgnoringBeta broken;
        const SelftestReport r = compareBackends(broken, cpuBackend(), quick());
        QVERIFY(failingPrimitives(r).count("gemm"));
        // The CPU convolutions are built on this->gemm, so they may fail too; nothing else may.
        for (const auto& p : failingPrimitives(r)) QVERIFY2(p == "gemm" || p.rfind("conv2d", 0) == 0, p.c_str());
        for (const auto& c : r.cases)
            if (c.primitive == "gemm") QCOMPARE(c.passed, c.shape.find("beta=0.5") == std::string::npos);
    }

    void integerOutputsMustMatchExactly()
    {
        FlippedMask broken;
        const SelftestReport r = compareBackends(broken, cpuBackend(), quick());
        QCOMPARE(failingPrimitives(r), std::set<std::string>{"dropoutForward"});
        for (const auto& c : r.cases)
            if (c.primitive == "dropoutForward") {
                QVERIFY(!c.passed);
                QVERIFY(std::isinf(c.error));
                QVERIFY2(c.detail.rfind("mask: 1 of", 0) == 0, c.detail.c_str());
            }
    }

    void nanMustStayNan()
    {
        ClampEatsNan broken;
        const SelftestReport r = compareBackends(broken, cpuBackend(), quick());
        QCOMPARE(failingPrimitives(r), std::set<std::string>{"clampValues"});
    }

    void throwingPrimitiveFailsItsCasesOnly()
    {
        ThrowingSoftmax broken;
        const SelftestReport r = compareBackends(broken, cpuBackend(), quick());
        QCOMPARE(failingPrimitives(r), std::set<std::string>{"softmaxForward"});
        for (const auto& c : r.cases)
            if (c.primitive == "softmaxForward") QCOMPARE(QString::fromStdString(c.detail), QString("candidate threw: launch failed"));
    }
};

QTEST_GUILESS_MAIN(TestSelftest)
#include "tst_selftest.moc"
