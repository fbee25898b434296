// Internal to the backend self-test (selftest*.cpp): mirrored buffers on the candidate and the
// reference backend, and the run-compare-record step every case goes through.
#pragma once
#include <cstdarg>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "selftest/op_case_run.h"
#include "selftest/selftest.h"
#include "tensor/tensor.h"

namespace ts::selftest {

using i64 = std::int64_t;
constexpr int kCand = 0, kRef = 1;  // side index: the candidate, the reference

// One buffer on each backend; inputs start with identical contents on both sides.
template <class T> struct Buffer {
    Tensor side[2];
    i64 n = 0;
    T* operator[](int s) const { return side[s].template data<T>(); }
};

class Harness {
public:
    Harness(Backend& candidate, Backend& reference, const SelftestOptions& options, SelftestReport& report)
        : backends_{&candidate, &reference}, options_(options), report_(report), rng_(options.seed)
    {
    }

    Backend& backend(int s) { return *backends_[s]; }
    bool large() const { return options_.largeShapes; }
    MathPrecision precision() const { return options_.precision; }
    // Flat sizes: 3*5*7, 2^16 + 1 (no multiple of any block size, more than one block), and
    // with large shapes [128, 784] and [128, 32, 28, 28].
    std::vector<i64> flatSizes() const
    {
        if (!large()) return {105, 65537};
        return {105, 65537, 128 * 784, 128 * 32 * 28 * 28};
    }
    double elementwiseTolerance() const { return kSelftestTolerance; }
    double matmulTolerance() const { return selftestMatmulTolerance(options_.precision); }

    // Host data from the seeded stream.
    std::vector<float> uniformHost(i64 n, float lo, float hi);
    std::vector<std::int64_t> indicesHost(i64 n, std::int64_t bound);  // uniform in [0, bound)

    template <class T> Buffer<T> upload(const std::vector<T>& host)
    {
        Buffer<T> b;
        b.n = static_cast<i64>(host.size());
        for (int s = 0; s < 2; ++s) {
            b.side[s] = Tensor::empty(Shape{b.n}, dtypeOf<T>(), backend(s).allocator());
            backend(s).copyFromHost(b.side[s].raw(), host.data(), host.size() * sizeof(T));
        }
        return b;
    }
    Buffer<float> uniform(i64 n, float lo = -1.0f, float hi = 1.0f) { return upload(uniformHost(n, lo, hi)); }

    template <class T> std::vector<T> download(const Buffer<T>& b, int s)
    {
        std::vector<T> host(static_cast<std::size_t>(b.n));
        backend(s).synchronize();
        backend(s).copyToHost(host.data(), b.side[s].raw(), host.size() * sizeof(T));
        return host;
    }
    // Copies the reference's contents to the candidate: for inputs a reference forward made
    // (saved statistics, argmax, masks), so a backward is checked on identical inputs.
    template <class T> void mirrorReference(Buffer<T>& b)
    {
        const std::vector<T> host = download(b, kRef);
        backend(kCand).copyFromHost(b.side[kCand].raw(), host.data(), host.size() * sizeof(T));
    }
    // Scratch bytes on one side (conv workspaces); an undefined tensor for 0 bytes.
    Tensor scratch(int s, std::size_t bytes);

    struct Output {
        std::string name;
        std::function<std::vector<double>(int side)> values;
        bool exact = false;  // integers: any difference fails
    };
    template <class T> Output out(std::string name, const Buffer<T>& b, bool exact = false)
    {
        return {std::move(name),
                [this, &b](int s) {
                    const std::vector<T> host = download(b, s);
                    return std::vector<double>(host.begin(), host.end());
                },
                exact};
    }
    // A value the call returned to the host (sumSquares); results[side].
    Output scalar(std::string name, const double* results)
    {
        return {std::move(name), [results](int s) { return std::vector<double>{results[s]}; }, false};
    }

    // Runs `call` on the candidate, then the reference, compares `outputs` and records a case;
    // when the candidate does not support `primitive`, records that instead (once).
    void check(Primitive primitive, std::string shape, double tolerance,
               const std::function<void(Backend&, int side)>& call, const std::vector<Output>& outputs);
    // Whether the candidate supports `p` (in f32); records "not supported" the first time it does not.
    bool candidateSupports(Primitive p);
    void record(SelftestCase c) { report_.primitives.push_back(std::move(c)); }
    void recordOp(SelftestCase c) { report_.ops.push_back(std::move(c)); }
    // Runs `call` on the candidate, then the reference, and compares what `results` downloads
    // from each side: c.error, c.passed and c.detail are filled in.
    void measure(SelftestCase& c, const std::function<void(Backend&, int side)>& call,
                 const std::function<std::vector<NamedValues>(int side)>& results);
    std::uint64_t nextSeed() { return rng_(); }

private:
    Backend* backends_[2];
    SelftestOptions options_;
    SelftestReport& report_;
    std::mt19937_64 rng_;
    std::set<Primitive> reportedUnsupported_;
};

// printf into a std::string (shape texts).
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// The backward primitives that take a GradWrite are checked both ways; dx starts random,
// so a candidate that adds where it should overwrite (or the reverse) differs.
constexpr GradWrite kGradWrites[] = {GradWrite::Accumulate, GradWrite::Overwrite};
inline const char* gradWriteText(GradWrite w) { return w == GradWrite::Overwrite ? " overwrite" : ""; }

// The case families, one file each.
void memoryCases(Harness& h);       // selftest_memory.cpp: memory, axpy/add/bias/sumSquares, scale, clamp
void gemmCases(Harness& h);         // selftest_memory.cpp
void convPoolCases(Harness& h);     // selftest_conv.cpp
void attentionCases(Harness& h);    // selftest_attention.cpp
void recurrentCases(Harness& h);    // selftest_recurrent.cpp: LSTM and GRU cell steps
void normCases(Harness& h);         // selftest_norm.cpp: batch norm, group/layer norm
void lossCases(Harness& h);         // selftest_loss.cpp: softmax, losses
void elementwiseCases(Harness& h);  // selftest_elementwise.cpp: activations, dropout, embedding, optimizers
void opCases(Harness& h);          // selftest_ops.cpp: every registered op's cases, forward and backward

}  // namespace ts::selftest
