#include <cblas.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"
#include "backend/math_precision.h"

namespace ts {

namespace {
constexpr std::int64_t kGrain = 1 << 14;  // elementwise work per thread worth the fork

// A rows x cols operand (leading dimension ld) rounded to `p` into `out`, packed (ld = cols).
const float* roundedOperand(const float* x, std::int64_t rows, std::int64_t cols, std::int64_t ld, MathPrecision p,
                            std::vector<float>& out)
{
    out.resize(static_cast<std::size_t>(rows * cols));
    cpu::parallelFor(rows, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(cols, 1)), [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r)
            for (std::int64_t j = 0; j < cols; ++j) out[r * cols + j] = roundToPrecision(x[r * ld + j], p);
    });
    return out.data();
}

// OpenBLAS confined to the calling thread: inside a parallel region it sees omp_in_parallel()
// and stays there; outside, the OpenMP count is lowered to one for the call.
template <class Call> void onThisThread(Call&& call)
{
#ifdef _OPENMP
    if (!omp_in_parallel()) {
        const int threads = omp_get_max_threads();
        omp_set_num_threads(1);
        call();
        omp_set_num_threads(threads);
        return;
    }
#endif
    call();
}

}  // namespace

void setCpuThreads(int n)
{
    if (n <= 0) n = static_cast<int>(std::thread::hardware_concurrency());
    n = std::max(n, 1);
#ifdef _OPENMP
    omp_set_num_threads(n);  // OpenBLAS (its OpenMP build) follows this count too
#endif
}

void CpuBackend::gemmProduct(bool tiled, bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k,
                             float alpha, const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                             float beta, float* c, std::int64_t ldc)
{
    if (m == 0 || n == 0) return;
    if (mathPrecision_ != MathPrecision::F32 && k > 0) {
        // Reduced precision: the operands are rounded as tensor cores round them; the products
        // still accumulate in f32, as theirs do. (Convolution is GEMM here, so it follows.)
        thread_local std::vector<float> roundedA, roundedB;
        const std::int64_t aCols = transA ? m : k, bCols = transB ? k : n;
        a = roundedOperand(a, transA ? k : m, aCols, lda, mathPrecision_, roundedA);
        b = roundedOperand(b, transB ? n : k, bCols, ldb, mathPrecision_, roundedB);
        lda = aCols;
        ldb = bCols;
    }
    const auto op = [&](std::int64_t r0, std::int64_t rows, std::int64_t c0, std::int64_t cols) {
        const float* at = transA ? a + r0 : a + r0 * lda;
        const float* bt = transB ? b + c0 * ldb : b + c0;
        cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
                    static_cast<blasint>(rows), static_cast<blasint>(cols), static_cast<blasint>(k), alpha, at,
                    static_cast<blasint>(lda), bt, static_cast<blasint>(ldb), beta, c + r0 * ldc + c0,
                    static_cast<blasint>(ldc));
    };
    if (!tiled) {
        onThisThread([&] { op(0, m, 0, n); });
        return;
    }
    // OpenBLAS's result for an element depends on how it splits the product among its threads
    // (and, single-threaded, on the shape it is given). So the product is cut into tiles fixed
    // by the shape alone, each a single-threaded OpenBLAS call, and the tiles go to the threads:
    // every element is computed the same way with 1 thread or 8. The output is cut along its
    // longer side into 1, 2, 4 or 8 near-equal tiles (multiples of 16) by its length alone:
    // few, large calls, since each repacks the shared operand and small ones lose OpenBLAS's speed.
    const bool byRows = m >= n;
    const std::int64_t extent = byRows ? m : n;
    const bool small = m * n * k < (std::int64_t{1} << 20);  // under a millisecond: not worth a fork
    const std::int64_t tiles = small ? 1 : extent >= 1024 ? 8 : extent >= 512 ? 4 : extent >= 128 ? 2 : 1;
    const std::int64_t tile = ((extent + tiles - 1) / tiles + 15) / 16 * 16;
    const auto runTiles = [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            const std::int64_t start = t * tile, size = std::min(tile, extent - start);
            if (size <= 0) continue;
            if (byRows) op(start, size, 0, n);
            else op(0, m, start, size);
        }
    };
    if (tiles == 1 || cpu::threadCount() == 1) onThisThread([&] { runTiles(0, tiles); });
    else cpu::parallelFor(tiles, 1, runTiles);  // each call sees omp_in_parallel(): one thread each
}

void CpuBackend::gemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
                      const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
                      std::int64_t ldc)
{
    gemmProduct(true, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void CpuBackend::axpy(std::int64_t n, float alpha, const float* x, float* y)
{
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) y[i] += alpha * x[i];
    });
}

void CpuBackend::add(std::int64_t n, const float* a, const float* b, float* y)
{
    cpu::parallelFor(n, kGrain, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) y[i] = a[i] + b[i];
    });
}

void CpuBackend::addBias(const float* bias, float* y, std::int64_t outer, std::int64_t channels, std::int64_t inner)
{
    if (inner == 1) {  // [outer, channels] (Linear): each row plus the bias vector
        cpu::parallelFor(outer, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(channels, 1)),
                         [&](std::int64_t r0, std::int64_t r1) {
                             for (std::int64_t r = r0; r < r1; ++r)
                                 for (std::int64_t ch = 0; ch < channels; ++ch) y[r * channels + ch] += bias[ch];
                         });
        return;
    }
    cpu::parallelFor(outer * channels, std::max<std::int64_t>(1, kGrain / std::max<std::int64_t>(inner, 1)),
                     [&](std::int64_t r0, std::int64_t r1) {
                         for (std::int64_t r = r0; r < r1; ++r) {
                             const float v = bias[r % channels];
                             float* row = y + r * inner;
                             for (std::int64_t i = 0; i < inner; ++i) row[i] += v;
                         }
                     });
}

void CpuBackend::biasBackward(const float* dy, float* dbias, std::int64_t outer, std::int64_t channels,
                              std::int64_t inner)
{
    // Per channel, summed in double in a fixed order: deterministic whatever the thread count.
    if (inner == 1) {  // [outer, channels] (Linear): rows read in order, one running sum per channel
        cpu::parallelFor(channels, 64, [&](std::int64_t c0, std::int64_t c1) {
            std::vector<double> sum(static_cast<std::size_t>(c1 - c0), 0.0);
            for (std::int64_t o = 0; o < outer; ++o) {
                const float* row = dy + o * channels + c0;
                for (std::int64_t ch = 0; ch < c1 - c0; ++ch) sum[static_cast<std::size_t>(ch)] += row[ch];
            }
            for (std::int64_t ch = c0; ch < c1; ++ch) dbias[ch] += static_cast<float>(sum[static_cast<std::size_t>(ch - c0)]);
        });
        return;
    }
    cpu::parallelFor(channels, 1, [&](std::int64_t c0, std::int64_t c1) {
        for (std::int64_t ch = c0; ch < c1; ++ch) {
            double sum = 0;
            for (std::int64_t o = 0; o < outer; ++o) sum += cpu::rowSum(dy + (o * channels + ch) * inner, inner);
            dbias[ch] += static_cast<float>(sum);
        }
    });
}

double CpuBackend::sumSquares(const float* x, std::int64_t n)
{
    return cpu::blockedSum(n, [x](std::int64_t i) { return double(x[i]) * x[i]; });
}

}  // namespace ts
