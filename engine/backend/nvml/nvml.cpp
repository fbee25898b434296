#include "backend/nvml/nvml.h"

#include <dlfcn.h>
#include <string>
#include <type_traits>

namespace ts {

namespace {

// The few NVML declarations we use, as in nvml.h (which no machine of ours has). All
// NVML calls return nvmlReturn_t, an int enum where 0 is NVML_SUCCESS.
using NvmlReturn = int;
using NvmlDevice = struct NvmlDeviceOpaque*;
struct NvmlUtilization {
    unsigned int gpu, memory;  // percent
};
struct NvmlMemory {
    unsigned long long total, free, used;  // bytes; nvmlMemory_t (v1) field order
};
constexpr NvmlReturn kSuccess = 0;
constexpr int kTemperatureGpu = 0;               // NVML_TEMPERATURE_GPU
constexpr int kClockSm = 1, kClockMemory = 2;    // NVML_CLOCK_SM, NVML_CLOCK_MEM
constexpr unsigned kNameBuffer = 96;             // NVML_DEVICE_NAME_V2_BUFFER_SIZE

class Nvml {
public:
    static Nvml& instance()
    {
        static Nvml nvml;  // C++ guarantees one thread-safe initialisation
        return nvml;
    }

    std::optional<GpuReading> read(int index, std::string* why) const
    {
        auto fail = [&](std::string reason) -> std::optional<GpuReading> {
            if (why) *why = std::move(reason);
            return std::nullopt;
        };
        if (!ready_) return fail(error_);
        NvmlDevice device = nullptr;
        if (index < 0) return fail("no GPU " + std::to_string(index) + " (negative index)");
        if (const NvmlReturn r = getHandle_(unsigned(index), &device); r != kSuccess)
            return fail("no GPU " + std::to_string(index) + " (NVML: " + text(r) + ")");
        // NVML is documented thread-safe; each counter that fails (unsupported on this
        // device, e.g. power on some boards) stays -1 without spoiling the others.
        GpuReading g;
        if (getName_) {
            char name[kNameBuffer] = {};
            if (getName_(device, name, kNameBuffer) == kSuccess) g.name = name;
        }
        NvmlUtilization u{};
        if (getUtilization_(device, &u) == kSuccess) g.utilizationPercent = u.gpu;
        NvmlMemory m{};
        if (getMemory_(device, &m) == kSuccess) {
            g.memoryUsedBytes = double(m.used);
            g.memoryTotalBytes = double(m.total);
        }
        unsigned int value = 0;
        if (getTemperature_(device, kTemperatureGpu, &value) == kSuccess) g.temperatureC = value;
        if (getPower_(device, &value) == kSuccess) g.powerWatts = value / 1000.0;  // milliwatts
        if (getClock_(device, kClockSm, &value) == kSuccess) g.smClockMHz = value;
        if (getClock_(device, kClockMemory, &value) == kSuccess) g.memoryClockMHz = value;
        return g;
    }

private:
    Nvml()
    {
        library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library_) {
            error_ = "no GPU (libnvidia-ml.so.1 not found)";
            return;
        }
        bool missing = false;
        auto bind = [&](auto& fn, const char* symbol, bool required = true) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(library_, symbol));
            if (!fn && required && !missing) {
                missing = true;
                error_ = std::string("no GPU (libnvidia-ml.so.1 lacks ") + symbol + ")";
            }
        };
        bind(init_, "nvmlInit_v2");
        bind(shutdown_, "nvmlShutdown");
        bind(errorString_, "nvmlErrorString");
        bind(getHandle_, "nvmlDeviceGetHandleByIndex_v2");
        bind(getUtilization_, "nvmlDeviceGetUtilizationRates");
        bind(getMemory_, "nvmlDeviceGetMemoryInfo");
        bind(getTemperature_, "nvmlDeviceGetTemperature");
        bind(getPower_, "nvmlDeviceGetPowerUsage");
        bind(getClock_, "nvmlDeviceGetClockInfo");
        bind(getName_, "nvmlDeviceGetName", false);
        if (missing) return;
        if (const NvmlReturn r = init_(); r != kSuccess) {
            error_ = "no GPU (NVML: " + text(r) + ")";  // e.g. "Driver Not Loaded"
            return;
        }
        ready_ = true;
    }

    ~Nvml()
    {
        // The library stays mapped: unmapping at exit gains nothing and races late readers.
        if (ready_) shutdown_();
    }

    std::string text(NvmlReturn r) const
    {
        const char* s = errorString_ ? errorString_(r) : nullptr;
        return s ? s : "error " + std::to_string(r);
    }

    void* library_ = nullptr;
    bool ready_ = false;
    std::string error_;
    NvmlReturn (*init_)() = nullptr;
    NvmlReturn (*shutdown_)() = nullptr;
    const char* (*errorString_)(NvmlReturn) = nullptr;
    NvmlReturn (*getHandle_)(unsigned int, NvmlDevice*) = nullptr;
    NvmlReturn (*getUtilization_)(NvmlDevice, NvmlUtilization*) = nullptr;
    NvmlReturn (*getMemory_)(NvmlDevice, NvmlMemory*) = nullptr;
    NvmlReturn (*getTemperature_)(NvmlDevice, int, unsigned int*) = nullptr;
    NvmlReturn (*getPower_)(NvmlDevice, unsigned int*) = nullptr;
    NvmlReturn (*getClock_)(NvmlDevice, int, unsigned int*) = nullptr;
    NvmlReturn (*getName_)(NvmlDevice, char*, unsigned int) = nullptr;
};

}  // namespace

std::optional<GpuReading> readGpu(int index, std::string* why)
{
    return Nvml::instance().read(index, why);
}

}  // namespace ts
