// How many threads the CPU backend computes with: a fixed count (training.threads, --threads)
// or, by default, the cores that other programs leave idle. A desktop always runs something
// else; OpenMP and OpenBLAS threads that wait at a barrier for a core another program holds
// made a loaded 2-core machine train 15x slower. The automatic count is re-read between
// steps, twice a second, from /proc/stat. Changing it never changes results: the backend's
// reductions use fixed blocks (parallel.h), so 1 and 2 threads give the same losses.
#pragma once

namespace ts {

class CpuThreadGovernor {
public:
    // requested > 0: that many threads, always; 0: automatic.
    explicit CpuThreadGovernor(int requested);

    // Between steps. Automatic: every `interval` seconds, the idle cores (all cores less what
    // other processes used since the last look); the count follows when two looks agree.
    // Returns true when the count changed.
    bool update(double intervalSeconds = 0.5);
    int threads() const { return threads_; }
    bool automatic() const { return requested_ <= 0; }

    // The idle cores in a window: cores less the CPU that processes other than this one used.
    // (Pure, for tests.) busy and own are CPU-seconds, wall is seconds.
    static int idleCores(int cores, double busySeconds, double ownSeconds, double wallSeconds);

private:
    int requested_, cores_, threads_;
    int candidate_ = 0;  // the last look's count, waiting for a second look to agree
    double lastWall_ = -1, lastBusy_ = 0, lastOwn_ = 0;
};

}  // namespace ts
