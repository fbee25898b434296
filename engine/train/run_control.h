// The control block the UI or CLI uses to steer a run from another thread (rule 4: commands
// go through a small control object, never into engine state). The trainer checks it between
// steps; pause blocks the trainer thread on a condition variable until resume or stop.
#pragma once
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace ts {

class RunControl {
public:
    // Any thread.
    void pause();
    void resume();
    void stop();  // also releases a paused trainer
    bool pauseRequested() const { return paused_.load(); }
    bool stopRequested() const { return stop_.load(); }

    // Trainer thread: blocks while paused; returns false when a stop was requested.
    bool waitWhilePaused();
    // Clears both flags before a run (the trainer thread and its control are reused).
    void reset();

private:
    std::atomic<bool> paused_{false}, stop_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
};

}  // namespace ts
