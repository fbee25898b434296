// devices.h through the CUDA backend module (backend/cuda_module_api.h), loaded on first use.
// Without NVIDIA's driver no GPU can answer, so queryCuda() says so without loading the module
// (and cuBLAS, cuDNN with it): every process that trains with --device auto asks.
#include <dlfcn.h>

#include <stdexcept>
#include <string>

#include "backend/cuda_module_api.h"
#include "backend/devices.h"
#include "backend/module_loader.h"

namespace ts {

namespace {

#ifndef TS_WITH_CUDA
const char* const kNoCuda = "this build has no CUDA backend (nvcc was not found when it was configured)";
#endif

struct CudaModule {
    const CudaModuleApi* api = nullptr;
    std::string why;  // when api is null
};

CudaModule loadCudaModule()
{
    CudaModule module;
#ifndef TS_WITH_CUDA
    module.why = kNoCuda;
#else
    const OpenedModule opened = openModule(kCudaModuleFile);
    if (!opened.handle) {
        module.why = "the CUDA backend cannot be loaded (" + opened.why + ")";
        return module;
    }
    const auto entry = reinterpret_cast<CudaModuleEntry>(dlsym(opened.handle, kCudaModuleEntry));
    const CudaModuleApi* api = entry ? entry() : nullptr;
    if (!api || api->abi != kCudaModuleAbi || std::string(api->version) != TS_VERSION)
        module.why = "the CUDA backend at " + opened.path + " is from another build of TrainStudio (this is " + TS_VERSION + ")";
    else
        module.api = api;
#endif
    return module;
}

const CudaModule& cudaModule()
{
    static const CudaModule module = loadCudaModule();
    return module;
}

#ifdef TS_WITH_CUDA
// libcuda.so.1 is the driver's own library (the CUDA runtime opens it to find a GPU). Kept
// open when there: the runtime loads it next.
bool driverPresent()
{
    static const bool present = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL) != nullptr;
    return present;
}

const char* const kNoDriver = "no CUDA device (no NVIDIA driver or GPU on this machine: libcuda.so.1 not found)";
#endif

// The module when a GPU may answer; else null and why not.
const CudaModuleApi* usableModule(std::string& why)
{
#ifdef TS_WITH_CUDA
    if (!driverPresent()) {
        why = kNoDriver;
        return nullptr;
    }
#endif
    const CudaModule& module = cudaModule();
    if (!module.api) why = module.why;
    return module.api;
}

CudaRuntimeInfo moduleQuery(const CudaModuleApi* api, const std::string& why)
{
    if (api) return api->queryCuda();
    CudaRuntimeInfo info;
#ifdef TS_WITH_CUDA
    info.compiledIn = true;
#endif
    info.reason = why;
    return info;
}

}  // namespace

CudaRuntimeInfo queryCuda()
{
    std::string why;
    const CudaModuleApi* api = usableModule(why);
    return moduleQuery(api, why);
}

CudaRuntimeInfo queryCudaLibraries()
{
    const CudaModule& module = cudaModule();
    return moduleQuery(module.api, module.why);
}

CudaMemoryInfo cudaMemoryInfo(int index)
{
    std::string why;
    const CudaModuleApi* api = usableModule(why);
    return api ? api->memoryInfo(index) : CudaMemoryInfo{};
}

Backend& cudaBackend(int index)
{
    std::string why;
    const CudaModuleApi* api = usableModule(why);
    if (!api) throw std::runtime_error(why);
    return api->backend(index);
}

bool cudaSupports(Primitive p, DType dtype)
{
    const CudaModule& module = cudaModule();
    return module.api && module.api->supports(p, dtype);
}

}  // namespace ts
