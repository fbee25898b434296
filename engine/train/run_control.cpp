#include "train/run_control.h"

namespace ts {

// The flags are set under the mutex so a waiter cannot miss a notify between its check
// and its wait.
void RunControl::pause()
{
    std::lock_guard lock(mutex_);
    paused_ = true;
}

void RunControl::resume()
{
    {
        std::lock_guard lock(mutex_);
        paused_ = false;
    }
    wake_.notify_all();
}

void RunControl::stop()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
}

bool RunControl::waitWhilePaused()
{
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return !paused_ || stop_; });
    return !stop_;
}

void RunControl::reset()
{
    std::lock_guard lock(mutex_);
    paused_ = false;
    stop_ = false;
}

}  // namespace ts
