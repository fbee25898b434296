// GPU load through NVML, loaded at run time with dlopen("libnvidia-ml.so.1"): the library
// ships with the driver, not the toolkit, and nvml.h is on none of our machines, so nothing
// here needs CUDA and every build (CUDA or not) can ask. Without a driver, library or
// device a reading is simply absent, with the reason.
#pragma once
#include <optional>
#include <string>

namespace ts {

struct GpuReading {
    std::string name;            // "NVIDIA H200"
    double utilizationPercent = -1;  // share of the last sample period a kernel ran
    double memoryUsedBytes = -1, memoryTotalBytes = -1;
    double temperatureC = -1;
    double powerWatts = -1;
    double smClockMHz = -1, memoryClockMHz = -1;
};

// One reading of device `index` (NVML's numbering, which is CUDA's unless
// CUDA_VISIBLE_DEVICES reorders). Thread-safe; NVML is initialised once per process, on
// first use, and stays open. nullopt with `why` set ("no GPU (libnvidia-ml.so.1 not
// found)", "no GPU (NVML: Driver Not Loaded)", "no GPU 3 (NVML: Invalid Argument)") when
// there is nothing to read. A counter the device does not support reads -1.
std::optional<GpuReading> readGpu(int index, std::string* why = nullptr);

}  // namespace ts
