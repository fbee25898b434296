#include "dist/bucket_reducer.h"

#include <chrono>

#include "dist/communicator.h"

namespace ts {

BucketReducer::BucketReducer(Communicator& comm, std::vector<GradientBucket> buckets)
    : comm_(comm), buckets_(std::move(buckets)), thread_([this] { loop(); })
{
}

BucketReducer::~BucketReducer()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    work_.notify_all();
    thread_.join();
}

void BucketReducer::begin(float* gradients)
{
    std::lock_guard lock(mutex_);
    gradients_ = gradients;
    launched_ = done_ = 0;
}

void BucketReducer::ready(std::size_t frontier)
{
    std::lock_guard lock(mutex_);
    const std::size_t before = launched_;
    while (launched_ < buckets_.size() && buckets_[launched_].offset >= frontier) ++launched_;
    if (launched_ != before) work_.notify_all();
}

double BucketReducer::finish()
{
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    launched_ = buckets_.size();
    work_.notify_all();
    finished_.wait(lock, [&] { return done_ == buckets_.size(); });
    if (failed_) std::rethrow_exception(failed_);  // a timed-out all-reduce: the run fails on the trainer's thread
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double BucketReducer::takeBusySeconds()
{
    std::lock_guard lock(mutex_);
    const double s = busySeconds_;
    busySeconds_ = 0;
    return s;
}

void BucketReducer::run(const std::function<void()>& collective)
{
    std::unique_lock lock(mutex_);
    Job job{launched_, &collective};
    jobs_.push_back(&job);
    work_.notify_all();
    finished_.wait(lock, [&] { return job.finished; });
    if (job.error) std::rethrow_exception(job.error);
}

void BucketReducer::loop()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        work_.wait(lock, [&] { return stopping_ || done_ < launched_ || !jobs_.empty(); });
        if (stopping_) return;
        if (!jobs_.empty() && jobs_.front()->afterBuckets <= done_) {
            Job* job = jobs_.front();
            jobs_.pop_front();
            lock.unlock();
            try {
                (*job->collective)();
            } catch (...) {
                job->error = std::current_exception();
            }
            lock.lock();
            job->finished = true;
            finished_.notify_all();
            continue;
        }
        const GradientBucket b = buckets_[done_];
        float* data = gradients_ + b.offset;
        lock.unlock();
        const auto t0 = std::chrono::steady_clock::now();
        std::exception_ptr error;
        try {
            comm_.allReduceMean(data, b.count);
        } catch (...) {  // an exception leaving this thread would terminate the process
            error = std::current_exception();
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        lock.lock();
        if (error) {  // the step's other buckets are not reduced: finish() rethrows
            failed_ = error;
            done_ = launched_ = buckets_.size();
            finished_.notify_all();
            continue;
        }
        busySeconds_ += s;
        ++done_;
        if (done_ == buckets_.size()) finished_.notify_all();
    }
}

}  // namespace ts
