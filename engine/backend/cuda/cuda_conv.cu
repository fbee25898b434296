// 2-D convolution through cuDNN: NCHW float tensors, cross-correlation (PyTorch's conv2d),
// groups, dilation. The algorithms are chosen once per (geometry, math precision) by timing
// them on the GPU (cudnnFind*, which allocates its own scratch), the fastest whose workspace
// fits kWorkspaceLimit; a failed Find (e.g. out of memory) falls back to cuDNN's heuristics.
//
// Math precision sets the descriptor's math type, which is a permission, not a demand:
//   F32  -> CUDNN_FMA_MATH: no tensor cores, so no silent TF32 (exact f32 products).
//   TF32 -> CUDNN_TENSOR_OP_MATH: tensor cores on f32 data, i.e. TF32 operands.
//   BF16/F16 -> CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: cuDNN may down-convert the f32
//        operands to a 16-bit type of its choosing for the tensor cores (accumulating in
//        f32). It does not promise the CPU's exact rounding (BF16 vs F16 is cuDNN's pick),
//        so conv results at BF16/F16 match the CPU reference only to that precision.
//
// Forward overwrites y (beta 0); both backward passes accumulate into dx / dw (beta 1), as
// the backend contract requires. Descriptors are made per call (host-only, microseconds).
#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "backend/cuda/cuda_backend.h"
#include "backend/cuda/cuda_check.h"

namespace ts {

namespace {

constexpr std::size_t kWorkspaceLimit = std::size_t(256) << 20;  // algorithms needing more are skipped

int toInt(std::int64_t v, const char* what)
{
    if (v < 0 || v > INT_MAX) throw std::runtime_error(std::string("convolution ") + what + " " + std::to_string(v) +
                                                       " is beyond cuDNN's 32-bit descriptors");
    return static_cast<int>(v);
}

cudnnMathType_t mathTypeFor(MathPrecision p)
{
    switch (p) {
    case MathPrecision::F32: return CUDNN_FMA_MATH;
    case MathPrecision::TF32: return CUDNN_TENSOR_OP_MATH;
    case MathPrecision::BF16:
    case MathPrecision::F16: return CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    }
    return CUDNN_FMA_MATH;
}

// The four descriptors of one convolution, destroyed with the object.
struct ConvDescriptors {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;

    ConvDescriptors(const ConvGeometry& g, MathPrecision precision)
    {
        try {
            const std::int64_t outH = g.outH(), outW = g.outW();
            toInt(g.n * g.c * g.h * g.w, "input size");
            toInt(g.n * g.k * outH * outW, "output size");
            toInt(g.k * (g.c / g.groups) * g.r * g.s, "weight size");
            TS_CUDNN(cudnnCreateTensorDescriptor(&x));
            TS_CUDNN(cudnnCreateTensorDescriptor(&y));
            TS_CUDNN(cudnnCreateFilterDescriptor(&w));
            TS_CUDNN(cudnnCreateConvolutionDescriptor(&conv));
            TS_CUDNN(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, toInt(g.n, "batch"),
                                                toInt(g.c, "channels"), toInt(g.h, "height"), toInt(g.w, "width")));
            TS_CUDNN(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, toInt(g.n, "batch"),
                                                toInt(g.k, "output channels"), toInt(outH, "output height"),
                                                toInt(outW, "output width")));
            TS_CUDNN(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, toInt(g.k, "output channels"),
                                                toInt(g.c / g.groups, "channels per group"), toInt(g.r, "kernel height"),
                                                toInt(g.s, "kernel width")));
            TS_CUDNN(cudnnSetConvolution2dDescriptor(conv, toInt(g.padH, "padding"), toInt(g.padW, "padding"),
                                                     toInt(g.strideH, "stride"), toInt(g.strideW, "stride"),
                                                     toInt(g.dilH, "dilation"), toInt(g.dilW, "dilation"),
                                                     CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
            TS_CUDNN(cudnnSetConvolutionGroupCount(conv, toInt(g.groups, "groups")));
            TS_CUDNN(cudnnSetConvolutionMathType(conv, mathTypeFor(precision)));
        } catch (...) {
            destroy();
            throw;
        }
    }
    ~ConvDescriptors() { destroy(); }
    ConvDescriptors(const ConvDescriptors&) = delete;
    ConvDescriptors& operator=(const ConvDescriptors&) = delete;

    void destroy()
    {
        if (conv) cudnnDestroyConvolutionDescriptor(conv);
        if (w) cudnnDestroyFilterDescriptor(w);
        if (y) cudnnDestroyTensorDescriptor(y);
        if (x) cudnnDestroyTensorDescriptor(x);
        conv = nullptr, w = nullptr, y = nullptr, x = nullptr;
    }
};

// The first usable result (Find and Get_v7 both list the best first): succeeded, and its
// workspace within the limit.
template <class Perf> const Perf* firstUsable(const std::vector<Perf>& perfs, int returned)
{
    for (int i = 0; i < returned; ++i)
        if (perfs[static_cast<std::size_t>(i)].status == CUDNN_STATUS_SUCCESS &&
            perfs[static_cast<std::size_t>(i)].memory <= kWorkspaceLimit)
            return &perfs[static_cast<std::size_t>(i)];
    return nullptr;
}

// Times the algorithms with `find`; if that fails, asks the heuristics `get`. Returns the
// chosen algorithm; throws if nothing qualifies.
template <class Perf, class Find, class Get> decltype(Perf{}.algo) chooseAlgo(int maxCount, Find find, Get get,
                                                                             const char* direction)
{
    std::vector<Perf> perfs(static_cast<std::size_t>(maxCount));
    int returned = 0;
    if (find(maxCount, &returned, perfs.data()) == CUDNN_STATUS_SUCCESS)
        if (const Perf* p = firstUsable(perfs, returned)) return p->algo;
    cudaGetLastError();  // a failed Find (e.g. its own allocation) must not look like a later kernel's error
    returned = 0;
    TS_CUDNN(get(maxCount, &returned, perfs.data()));
    if (const Perf* p = firstUsable(perfs, returned)) return p->algo;
    throw std::runtime_error(std::string("cuDNN has no ") + direction +
                             " convolution algorithm for this geometry within a 256 MiB workspace");
}

// The smallest workspace conv2dWorkspaceBytes has reported per (device, geometry), at any
// precision: a caller may have sized its buffer by any of those answers and then run at
// another precision, whose algorithms may need more (the trainer plans its executor before it
// sets the run's precision). A call whose algorithms need more than this runs in a temporary
// block instead of letting cuDNN write past the caller's buffer.
using GeometryKey = std::tuple<int, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                               std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                               std::int64_t, std::int64_t>;
GeometryKey geometryKey(int device, const ConvGeometry& g)
{
    return {device, g.n, g.c, g.h, g.w, g.k, g.r, g.s, g.strideH, g.strideW, g.padH, g.padW, g.dilH, g.dilW, g.groups};
}
struct Promises {
    std::mutex mutex;
    std::map<GeometryKey, std::size_t> bytes;
};
Promises& promises()
{
    static auto* p = new Promises;  // never destroyed, like the backends that use it
    return *p;
}
void notePromise(int device, const ConvGeometry& g, std::size_t bytes)
{
    Promises& p = promises();
    std::lock_guard lock(p.mutex);
    const auto [it, inserted] = p.bytes.emplace(geometryKey(device, g), bytes);
    if (!inserted) it->second = std::min(it->second, bytes);
}
std::size_t promisedBytes(int device, const ConvGeometry& g)
{
    Promises& p = promises();
    std::lock_guard lock(p.mutex);
    const auto it = p.bytes.find(geometryKey(device, g));
    return it == p.bytes.end() ? 0 : it->second;
}

// The workspace one call runs with: the caller's when it is known to be big enough, else a
// block from the caching allocator, handed back as soon as the call is queued (stream order
// makes that safe, as in copyBytes).
class RunWorkspace {
public:
    RunWorkspace(CudaAllocator& allocator, void* given, std::size_t promised, std::size_t needed)
        : ptr_(given), bytes_(needed)
    {
        if (needed > 0 && (needed > promised || !given)) {
            ptr_ = allocator.allocate(needed);
            allocator_ = &allocator;
        }
    }
    ~RunWorkspace()
    {
        if (allocator_) allocator_->deallocate(ptr_, bytes_);
    }
    RunWorkspace(const RunWorkspace&) = delete;
    RunWorkspace& operator=(const RunWorkspace&) = delete;
    void* get() const { return ptr_; }

private:
    CudaAllocator* allocator_ = nullptr;
    void* ptr_;
    std::size_t bytes_;
};

}  // namespace

const CudaBackend::ConvAlgos& CudaBackend::convAlgos(const ConvGeometry& g)
{
    const auto key = std::make_tuple(g.n, g.c, g.h, g.w, g.k, g.r, g.s, g.strideH, g.strideW, g.padH, g.padW, g.dilH,
                                     g.dilW, g.groups, static_cast<int>(mathPrecision_));
    std::lock_guard<std::mutex> lock(convMutex_);
    if (const auto it = convCache_.find(key); it != convCache_.end()) return it->second;

    const ConvDescriptors d(g, mathPrecision_);
    cudnnHandle_t h = cudnn_;
    ConvAlgos algos{};
    int count = 0;

    TS_CUDNN(cudnnGetConvolutionForwardAlgorithmMaxCount(h, &count));
    algos.forward = chooseAlgo<cudnnConvolutionFwdAlgoPerf_t>(
        count,
        [&](int n, int* got, cudnnConvolutionFwdAlgoPerf_t* p) {
            return cudnnFindConvolutionForwardAlgorithm(h, d.x, d.w, d.conv, d.y, n, got, p);
        },
        [&](int n, int* got, cudnnConvolutionFwdAlgoPerf_t* p) {
            return cudnnGetConvolutionForwardAlgorithm_v7(h, d.x, d.w, d.conv, d.y, n, got, p);
        },
        "forward");
    TS_CUDNN(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(h, &count));
    algos.backwardData = chooseAlgo<cudnnConvolutionBwdDataAlgoPerf_t>(
        count,
        [&](int n, int* got, cudnnConvolutionBwdDataAlgoPerf_t* p) {
            return cudnnFindConvolutionBackwardDataAlgorithm(h, d.w, d.y, d.conv, d.x, n, got, p);
        },
        [&](int n, int* got, cudnnConvolutionBwdDataAlgoPerf_t* p) {
            return cudnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y, d.conv, d.x, n, got, p);
        },
        "backward-data");
    TS_CUDNN(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(h, &count));
    algos.backwardFilter = chooseAlgo<cudnnConvolutionBwdFilterAlgoPerf_t>(
        count,
        [&](int n, int* got, cudnnConvolutionBwdFilterAlgoPerf_t* p) {
            return cudnnFindConvolutionBackwardFilterAlgorithm(h, d.x, d.y, d.conv, d.w, n, got, p);
        },
        [&](int n, int* got, cudnnConvolutionBwdFilterAlgoPerf_t* p) {
            return cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, d.x, d.y, d.conv, d.w, n, got, p);
        },
        "backward-filter");

    // The workspace the chosen algorithms need with exactly these descriptors (the perf
    // results' sizes can differ when a result ran under another math type).
    std::size_t fwd = 0, bwdData = 0, bwdFilter = 0;
    TS_CUDNN(cudnnGetConvolutionForwardWorkspaceSize(h, d.x, d.w, d.conv, d.y, algos.forward, &fwd));
    TS_CUDNN(cudnnGetConvolutionBackwardDataWorkspaceSize(h, d.w, d.y, d.conv, d.x, algos.backwardData, &bwdData));
    TS_CUDNN(cudnnGetConvolutionBackwardFilterWorkspaceSize(h, d.x, d.y, d.conv, d.w, algos.backwardFilter,
                                                            &bwdFilter));
    algos.workspaceBytes = std::max({fwd, bwdData, bwdFilter});
    return convCache_.emplace(key, algos).first->second;
}

std::size_t CudaBackend::conv2dWorkspaceBytes(const ConvGeometry& g)
{
    makeCurrent();
    if (g.n <= 0 || g.outH() <= 0 || g.outW() <= 0) return 0;
    const std::size_t bytes = convAlgos(g).workspaceBytes;
    notePromise(index_, g, bytes);
    return bytes;
}

void CudaBackend::conv2dForward(const ConvGeometry& g, const float* x, const float* w, float* y, void* workspace)
{
    makeCurrent();
    if (g.n <= 0 || g.outH() <= 0 || g.outW() <= 0) return;
    const ConvAlgos& algos = convAlgos(g);
    const ConvDescriptors d(g, mathPrecision_);
    const RunWorkspace ws(allocator_, workspace, promisedBytes(index_, g), algos.workspaceBytes);
    const float one = 1.0f, zero = 0.0f;
    TS_CUDNN(cudnnConvolutionForward(cudnn_, &one, d.x, x, d.w, w, d.conv, algos.forward, ws.get(),
                                     algos.workspaceBytes, &zero, d.y, y));
}

void CudaBackend::conv2dBackwardData(const ConvGeometry& g, const float* w, const float* dy, float* dx,
                                     void* workspace, GradWrite write)
{
    makeCurrent();
    if (!dx || g.n <= 0) return;
    if (g.outH() <= 0 || g.outW() <= 0) {  // no output: the gradient is zero
        if (write == GradWrite::Overwrite) zeroBytes(dx, static_cast<std::size_t>(g.n * g.c * g.h * g.w) * sizeof(float));
        return;
    }
    const ConvAlgos& algos = convAlgos(g);
    const ConvDescriptors d(g, mathPrecision_);
    const RunWorkspace ws(allocator_, workspace, promisedBytes(index_, g), algos.workspaceBytes);
    const float one = 1.0f, zero = 0.0f;  // beta 1: dx += conv^T(dy); beta 0: dx = conv^T(dy)
    TS_CUDNN(cudnnConvolutionBackwardData(cudnn_, &one, d.w, w, d.y, dy, d.conv, algos.backwardData, ws.get(),
                                          algos.workspaceBytes, write == GradWrite::Overwrite ? &zero : &one, d.x, dx));
}

void CudaBackend::conv2dBackwardFilter(const ConvGeometry& g, const float* x, const float* dy, float* dw,
                                       void* workspace)
{
    makeCurrent();
    if (!dw || g.n <= 0 || g.outH() <= 0 || g.outW() <= 0) return;
    const ConvAlgos& algos = convAlgos(g);
    const ConvDescriptors d(g, mathPrecision_);
    const RunWorkspace ws(allocator_, workspace, promisedBytes(index_, g), algos.workspaceBytes);
    const float one = 1.0f;  // beta 1: dw += x (*) dy
    TS_CUDNN(cudnnConvolutionBackwardFilter(cudnn_, &one, d.x, x, d.y, dy, d.conv, algos.backwardFilter, ws.get(),
                                            algos.workspaceBytes, &one, d.w, dw));
}

}  // namespace ts
