// Samples the machine's load on its own thread (1–2 Hz): this process's CPU use and
// resident memory from /proc, and the GPU when one is monitored (NVML, with the CUDA
// backend). The trainer publishes the latest reading as a SystemEvent between steps, so the
// training loop never waits for a reading.
#pragma once
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "types/run_records.h"

namespace ts {

class SystemMonitor {
public:
    // gpuIndex: the CUDA device whose load (NVML) each sample also reads; -1: none. Without
    // a driver or NVML the GPU fields stay unknown (-1) and nothing fails.
    explicit SystemMonitor(double intervalSeconds = 0.5, int gpuIndex = -1);
    ~SystemMonitor();  // stops and joins the sampling thread
    SystemMonitor(const SystemMonitor&) = delete;
    SystemMonitor& operator=(const SystemMonitor&) = delete;

    // The latest reading (wallTime: seconds since the monitor started). Before the first
    // interval has passed, CPU is unknown (-1): a percentage needs two readings.
    SystemSample latest() const;

private:
    void loop();
    SystemSample sampleNow();

    double interval_;
    int gpuIndex_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    SystemSample latest_;
    double start_ = 0, lastCpuSeconds_ = -1, lastWall_ = 0;
    std::thread thread_;
};

// This process's CPU time (user + system) in seconds and resident memory in bytes, from
// /proc/self; -1 where /proc is unavailable.
double processCpuSeconds();
double processResidentBytes();

}  // namespace ts
