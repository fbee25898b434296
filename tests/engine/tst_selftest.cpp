// The backend self-test harness (selftest/selftest.h), checked on the CPU: a second CpuBackend
// against the process-wide one passes every case and covers every primitive (primitive.h)
// and every registered op's cases; deliberately broken backends (CpuBackend subclasses) fail
// exactly the cases of the broken primitive and of the op cases that call it, which proves
// the harness can fail; a backend that does not support a primitive gets it reported as such.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "backend/cpu/cpu_backend.h"
#include "ops/registry.h"
#include "selftest/op_case_run.h"
#include "selftest/selftest.h"

using namespace ts;

namespace {

// Every primitive of the Backend interface, from the one list (conv2dWorkspaceBytes is
// exercised by the conv cases).
std::set<std::string> allPrimitiveNames()
{
    std::set<std::string> names;
    for (Primitive p : kAllPrimitives) names.insert(std::string(primitiveName(p)));
    return names;
}

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

// Says it lacks one primitive (which still works: the harness must not call it).
class LackingPrimitive : public CpuBackend {
public:
    explicit LackingPrimitive(Primitive lacking) : lacking_(lacking) {}
    std::string name() const override { return "lacking"; }
    bool supports(Primitive p, DType dtype) const override { return p != lacking_ && CpuBackend::supports(p, dtype); }

private:
    Primitive lacking_;
};

std::set<std::string> failingPrimitives(const SelftestReport& r)
{
    std::set<std::string> out;
    for (const auto& c : r.primitives)
        if (c.supported && !c.passed) out.insert(c.name);
    return out;
}

QString failures(const SelftestReport& r)
{
    QString s;
    for (const auto* cases : {&r.primitives, &r.ops})
        for (const auto& c : *cases)
            if (c.supported && !c.passed)
                s += QString::fromStdString(c.name + " " + c.shape + ": " + c.detail) +
                     QString(" (error %1, tolerance %2)\n").arg(c.error).arg(c.tolerance);
    return s;
}

// Every registered op case's two passes, in the report's order, with the primitives each calls.
struct OpPassCase {
    std::string name;  // "Linear forward"
    std::string label;
    std::vector<PrimitiveCall> calls;
};
std::vector<OpPassCase> registeredOpPasses()
{
    std::vector<OpPassCase> out;
    for (const std::string& type : OpRegistry::builtin().types()) {
        const Op& op = *OpRegistry::builtin().find(type);
        for (const OpCase& c : op.cases())
            for (bool backward : {false, true})
                out.push_back({type + (backward ? " backward" : " forward"), c.label, traceOpCase(op, c, backward)});
    }
    return out;
}

bool calls(const OpPassCase& pass, Primitive p)
{
    return std::any_of(pass.calls.begin(), pass.calls.end(), [p](const PrimitiveCall& c) { return c.primitive == p; });
}

// The op section lists every registered op case's two passes, in registry order, and
// check(pass, its entry, for a backward the same case's forward entry else null) holds for each.
template <class Check> void forEachOpPass(const SelftestReport& r, Check check)
{
    const std::vector<OpPassCase> passes = registeredOpPasses();
    QCOMPARE(r.ops.size(), passes.size());
    for (std::size_t i = 0; i < passes.size(); ++i) {
        QCOMPARE(r.ops[i].name, passes[i].name);
        QVERIFY2(r.ops[i].shape.rfind(passes[i].label + ": x", 0) == 0, r.ops[i].shape.c_str());
        check(passes[i], r.ops[i], i % 2 ? &r.ops[i - 1] : nullptr);
    }
}

// A throwing primitive fails exactly the op passes that call it (and a backward whose forward failed).
void opsFailExactlyWhereTheyCall(const SelftestReport& r, Primitive broken)
{
    forEachOpPass(r, [&](const OpPassCase& pass, const SelftestCase& c, const SelftestCase* forward) {
        const bool fails = calls(pass, broken) || (forward && !forward->passed);
        QVERIFY2(c.passed == !fails, (c.name + " " + c.shape + ": " + c.detail).c_str());
    });
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
    return std::any_of(r.primitives.begin(), r.primitives.end(), [&](const SelftestCase& c) {
        return c.name == primitive && c.shape.find(shapePart) != std::string::npos;
    });
}
bool hasOpCase(const SelftestReport& r, const std::string& name, const std::string& shape)
{
    return std::any_of(r.ops.begin(), r.ops.end(), [&](const SelftestCase& c) { return c.name == name && c.shape == shape; });
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
        QCOMPARE(r.unsupported(), 0);
        QVERIFY(r.passed() > 300);
        const std::set<std::string> all = allPrimitiveNames();
        std::set<std::string> seen;
        for (const auto& c : r.primitives) {
            seen.insert(c.name);
            QVERIFY2(all.count(c.name), c.name.c_str());
            QVERIFY(!c.shape.empty());
            QVERIFY(!c.detail.empty());
            // Two CPU instances run identical code: every result must match exactly.
            QVERIFY2(c.error == 0, (c.name + " " + c.shape + ": " + c.detail).c_str());
        }
        for (const auto& p : all) QVERIFY2(seen.count(p), ("no case for " + p).c_str());

        // Every registered op case, forward and backward, matched exactly, within 10x the
        // loosest tolerance of what it calls.
        QVERIFY(!r.ops.empty());
        forEachOpPass(r, [](const OpPassCase& pass, const SelftestCase& c, const SelftestCase*) {
            QVERIFY2(c.passed && c.supported && c.error == 0, (c.name + " " + c.shape + ": " + c.detail).c_str());
            QVERIFY(!c.detail.empty());
            const bool matmul = calls(pass, Primitive::gemm) || calls(pass, Primitive::conv2dForward) ||
                                calls(pass, Primitive::conv2dBackwardData) || calls(pass, Primitive::conv2dBackwardFilter) ||
                                calls(pass, Primitive::conv2dBackward);
            QVERIFY2(qFuzzyCompare(c.tolerance, matmul ? 1e-3 : 1e-4), c.name.c_str());
        });
        QVERIFY(hasOpCase(r, "Linear backward", "5x7 to 1 without bias: x=[5, 7]"));

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
        QVERIFY(hasCase(r, "upsample2dBackward", "bilinear x=[3, 2, 7, 5] out=17x11"));
        QVERIFY(hasCase(r, "attentionBackward", "packed qkv causal padding mask"));
        QVERIFY(hasCase(r, "attentionForward", "queries=20 keys=45 headDim=8 causal dropout=0.2"));
        QVERIFY(hasCase(r, "permute", "x=[2, 37, 70] perm=[0, 2, 1] accumulate"));
        QVERIFY(hasCase(r, "crossEntropyBackward", "class weights label smoothing 0.1 ignore_index"));
    }

    void reducedPrecisionLoosensOnlyMatrixProducts()
    {
        CpuBackend second;
        const SelftestReport r = compareBackends(second, cpuBackend(), quick(MathPrecision::BF16));
        QVERIFY2(r.failed() == 0, qPrintable(failures(r)));
        for (const auto& c : r.primitives) {
            const bool matmul = c.name == "gemm" || c.name.rfind("conv2d", 0) == 0 || c.name.rfind("attention", 0) == 0;
            QCOMPARE(c.tolerance, matmul ? 3e-2 : 1e-5);
        }
        for (const auto& c : r.ops) QVERIFY2(qFuzzyCompare(c.tolerance, 3e-1) || qFuzzyCompare(c.tolerance, 1e-4), c.name.c_str());
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
            for (const auto& c : r.primitives) {
                if (c.name != "activationBackward") continue;
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
        for (const auto& c : r.primitives)
            if (c.name == "gemm") QCOMPARE(c.passed, c.shape.find("beta=0.5") == std::string::npos);
        // Linear's backward accumulates its gradients with beta = 1: the op section sees it too.
        QVERIFY(std::any_of(r.ops.begin(), r.ops.end(), [](const SelftestCase& c) { return c.name == "Linear backward" && !c.passed; }));
    }

    void integerOutputsMustMatchExactly()
    {
        FlippedMask broken;
        const SelftestReport r = compareBackends(broken, cpuBackend(), quick());
        QCOMPARE(failingPrimitives(r), std::set<std::string>{"dropoutForward"});
        for (const auto& c : r.primitives)
            if (c.name == "dropoutForward") {
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
        for (const auto& c : r.primitives)
            if (c.name == "softmaxForward") QCOMPARE(QString::fromStdString(c.detail), QString("candidate threw: launch failed"));
        opsFailExactlyWhereTheyCall(r, Primitive::softmaxForward);
    }

    // A primitive the candidate does not support is reported once as such and not run; an op
    // case that calls it is reported as running on the CPU; neither fails the run.
    void unsupportedPrimitiveIsReportedNotFailed()
    {
        for (Primitive lacking : {Primitive::softmaxBackward, Primitive::gemm}) {
            LackingPrimitive candidate(lacking);
            const SelftestReport r = compareBackends(candidate, cpuBackend(), quick());
            QVERIFY2(r.failed() == 0, qPrintable(failures(r)));
            const std::string name(primitiveName(lacking));
            int entries = 0;
            for (const auto& c : r.primitives) {
                if (c.name != name) {
                    QVERIFY2(c.supported, c.name.c_str());
                    continue;
                }
                ++entries;
                QVERIFY(!c.supported && !c.passed);
                QCOMPARE(QString::fromStdString(c.detail), QString("not supported by lacking"));
            }
            QCOMPARE(entries, 1);
            int onCpu = 0;
            forEachOpPass(r, [&](const OpPassCase& pass, const SelftestCase& c, const SelftestCase* forward) {
                const bool falls = calls(pass, lacking) || (forward && !forward->supported);
                QVERIFY2(c.supported == !falls, (c.name + " " + c.shape).c_str());
                if (!falls) return;
                ++onCpu;
                QVERIFY2(c.detail.rfind("runs on the CPU: lacking lacks ", 0) == 0, c.detail.c_str());
            });
            QCOMPARE(r.unsupported(), 1 + onCpu);
            if (lacking == Primitive::gemm) QVERIFY(onCpu >= 8);  // every Linear case, forward and backward
        }
    }
};

QTEST_GUILESS_MAIN(TestSelftest)
#include "tst_selftest.moc"
