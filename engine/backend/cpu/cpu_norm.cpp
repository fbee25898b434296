// PLACEHOLDER: to be written.
#include <stdexcept>
#include "backend/cpu/cpu_backend.h"
namespace ts {
void CpuBackend::batchNormForwardTraining(const float* x, const float* gamma, const float* beta, float* y, float* saveMean,
                                  float* saveInvStd, float* runningMean, float* runningVar, std::int64_t n,
                                  std::int64_t c, std::int64_t inner, float momentum, float eps) { throw std::logic_error("batchNormForwardTraining: not written yet"); }
void CpuBackend::batchNormForwardInference(const float* x, const float* gamma, const float* beta, const float* runningMean,
                                   const float* runningVar, float* y, std::int64_t n, std::int64_t c,
                                   std::int64_t inner, float eps) { throw std::logic_error("batchNormForwardInference: not written yet"); }
void CpuBackend::batchNormBackward(const float* x, const float* gamma, const float* dy, const float* saveMean,
                           const float* saveInvStd, float* dx, float* dgamma, float* dbeta, std::int64_t n,
                           std::int64_t c, std::int64_t inner) { throw std::logic_error("batchNormBackward: not written yet"); }
void CpuBackend::groupNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                          std::int64_t n, std::int64_t c, std::int64_t inner, std::int64_t groups, float eps) { throw std::logic_error("groupNormForward: not written yet"); }
void CpuBackend::groupNormBackward(const float* x, const float* gamma, const float* dy, const float* mean, const float* rstd,
                           float* dx, float* dgamma, float* dbeta, std::int64_t n, std::int64_t c, std::int64_t inner,
                           std::int64_t groups) { throw std::logic_error("groupNormBackward: not written yet"); }
void CpuBackend::batchNormBackwardInference(const float*, const float*, const float*, const float*, const float*, float*, float*, float*, std::int64_t, std::int64_t, std::int64_t, float) { throw std::logic_error("not written yet"); }
}  // namespace ts
