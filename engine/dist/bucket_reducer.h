// The gradient all-reduce overlapped with backward (PyTorch's DistributedDataParallel does the
// same): a communication thread all-reduces each bucket (gradient_buckets.h) as soon as backward
// has finished every gradient in it, while backward goes on with the earlier layers. The
// buckets are reduced in the same order with the same operation as without overlap, so the
// result is the same bits. CPU buffers (MPI) only: only the comm thread calls the communicator
// while the reducer lives (the trainer's thread hands it other collectives through run()), so
// MPI's "serialized" thread level holds and every rank issues collectives in one order.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "dist/gradient_buckets.h"

namespace ts {

class Communicator;

class BucketReducer {
public:
    BucketReducer(Communicator& comm, std::vector<GradientBucket> buckets);
    ~BucketReducer();
    BucketReducer(const BucketReducer&) = delete;
    BucketReducer& operator=(const BucketReducer&) = delete;

    // A new step over `gradients` (the flat buffer): nothing launched yet.
    void begin(float* gradients);
    // Gradients at float offsets [frontier, end) are final: their buckets may go.
    void ready(std::size_t frontier);
    // Launches what is left (all of it when backward was skipped: a non-finite loss must not
    // leave the other ranks waiting) and waits. Returns the seconds spent waiting here, i.e. the
    // communication backward did not hide. Rethrows what an all-reduce threw (CommunicatorTimeout).
    double finish();
    // Seconds the comm thread spent in all-reduces since the last call.
    double takeBusySeconds();
    // Runs `collective` on the comm thread after the buckets launched so far, and waits
    // (synchronised batch norm's statistics, mid-step agreements).
    void run(const std::function<void()>& collective);

private:
    void loop();

    Communicator& comm_;
    std::vector<GradientBucket> buckets_;  // end of the buffer first
    float* gradients_ = nullptr;
    std::size_t launched_ = 0, done_ = 0;  // buckets, in order
    struct Job {
        std::size_t afterBuckets;  // launched_ when it was handed over: it goes after those
        const std::function<void()>* collective;
        bool finished = false;
        std::exception_ptr error;  // rethrown on the trainer's thread
    };
    std::deque<Job*> jobs_;
    std::exception_ptr failed_;  // an all-reduce threw (a timeout): finish() rethrows it
    double busySeconds_ = 0;
    bool stopping_ = false;
    std::mutex mutex_;
    std::condition_variable work_, finished_;
    std::thread thread_;
};

}  // namespace ts
