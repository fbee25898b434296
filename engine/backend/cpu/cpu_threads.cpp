#include "backend/cpu/cpu_threads.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>

#include "backend/cpu/cpu_backend.h"

namespace ts {

namespace {

double wallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// This process's CPU time, all threads (spinning included: that is what we take from others).
double ownCpuSeconds()
{
    timespec t{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return -1;
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// The machine's busy CPU-seconds since boot (/proc/stat's first line: user nice system idle
// iowait irq softirq steal ...); -1 where there is no /proc.
double machineBusySeconds()
{
    std::ifstream in("/proc/stat");
    std::string cpu;
    long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || cpu != "cpu") return -1;
    const long ticks = sysconf(_SC_CLK_TCK);
    return double(user + nice + system + irq + softirq + steal) / double(ticks > 0 ? ticks : 100);
}

}  // namespace

CpuThreadGovernor::CpuThreadGovernor(int requested)
    : requested_(requested), cores_(std::max(1, int(std::thread::hardware_concurrency()))),
      threads_(requested > 0 ? requested : cores_)
{
    setCpuThreads(threads_);
}

int CpuThreadGovernor::idleCores(int cores, double busySeconds, double ownSeconds, double wallSeconds)
{
    if (wallSeconds <= 0) return cores;
    const double others = std::max(0.0, busySeconds - ownSeconds) / wallSeconds;
    // A core counts as idle when others leave at least half of it.
    return std::clamp(int(std::floor(double(cores) - others + 0.5)), 1, cores);
}

bool CpuThreadGovernor::update(double intervalSeconds)
{
    if (!automatic() || cores_ == 1) return false;
    const double now = wallSeconds();
    if (lastWall_ >= 0 && now - lastWall_ < intervalSeconds) return false;
    const double busy = machineBusySeconds(), own = ownCpuSeconds();
    if (busy < 0 || own < 0) return false;
    const bool first = lastWall_ < 0;
    const double wall = now - lastWall_, busyDelta = busy - lastBusy_, ownDelta = own - lastOwn_;
    lastWall_ = now, lastBusy_ = busy, lastOwn_ = own;
    if (first) return false;
    const int idle = idleCores(cores_, busyDelta, ownDelta, wall);
    const bool agreed = idle == candidate_;
    candidate_ = idle;
    if (!agreed || idle == threads_) return false;
    threads_ = idle;
    setCpuThreads(threads_);
    return true;
}

}  // namespace ts
