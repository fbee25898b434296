#include "train/system_monitor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <unistd.h>

#include "backend/nvml/nvml.h"

namespace ts {

namespace {

double monotonicSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

double processCpuSeconds()
{
    // CLOCK_PROCESS_CPUTIME_ID counts every thread of the process (OpenMP, loader workers).
    timespec ts{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return -1;
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double processResidentBytes()
{
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return -1;
    long size = 0, resident = 0;
    const int read = std::fscanf(f, "%ld %ld", &size, &resident);
    std::fclose(f);
    if (read != 2) return -1;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

SystemMonitor::SystemMonitor(double intervalSeconds, int gpuIndex) : interval_(intervalSeconds), gpuIndex_(gpuIndex)
{
    start_ = lastWall_ = monotonicSeconds();
    lastCpuSeconds_ = processCpuSeconds();
    latest_.ramBytes = processResidentBytes();
    thread_ = std::thread([this] { loop(); });
}

SystemMonitor::~SystemMonitor()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

SystemSample SystemMonitor::latest() const
{
    std::lock_guard lock(mutex_);
    return latest_;
}

SystemSample SystemMonitor::sampleNow()
{
    SystemSample s;
    const double now = monotonicSeconds(), cpu = processCpuSeconds();
    s.wallTime = now - start_;
    if (cpu >= 0 && lastCpuSeconds_ >= 0 && now > lastWall_) {
        // Percent of the whole machine, so 2 busy threads on 2 cores read 100 %.
        const long cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
        s.cpuPercent = 100.0 * (cpu - lastCpuSeconds_) / (now - lastWall_) / static_cast<double>(cores);
    }
    lastCpuSeconds_ = cpu;
    lastWall_ = now;
    s.ramBytes = processResidentBytes();
    // Here, on the sampling thread: NVML calls take up to milliseconds, never the step's time.
    if (gpuIndex_ >= 0)
        if (const auto g = readGpu(gpuIndex_)) {
            s.gpuPercent = g->utilizationPercent;
            s.gpuMemoryUsed = g->memoryUsedBytes;
            s.gpuMemoryTotal = g->memoryTotalBytes;
            s.gpuTemperature = g->temperatureC;
            s.gpuPowerWatts = g->powerWatts;
            s.gpuClockMHz = g->smClockMHz;
        }
    return s;
}

void SystemMonitor::loop()
{
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::duration<double>(interval_), [&] { return stopping_; })) {
        lock.unlock();
        const SystemSample s = sampleNow();
        lock.lock();
        latest_ = s;
    }
}

}  // namespace ts
