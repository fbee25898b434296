// Shared by the trainer and resume suites: a small in-memory dataset (three Gaussian blobs
// as [1, 4, 4] images), an MLP experiment for it, and a listener that keeps every event.
#pragma once
#include <condition_variable>
#include <mutex>
#include <vector>

#include "train/trainer.h"

namespace ts::test {

class BlobDataset : public Dataset {
public:
    // poisonEvery > 0: every poisonEvery-th sample carries one +inf pixel.
    BlobDataset(std::int64_t n, std::uint64_t seed, bool randomLabels = false, std::int64_t poisonEvery = 0);
    std::int64_t size() const override { return static_cast<std::int64_t>(labels_.size()); }
    Shape sampleShape() const override { return Shape{1, 4, 4}; }
    std::int64_t numClasses() const override { return 3; }
    std::vector<std::string> classNames() const override { return {"a", "b", "c"}; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override { return "blobs (" + std::to_string(size()) + " x [1, 4, 4])"; }

private:
    std::vector<float> data_;
    std::vector<std::int64_t> labels_;
};

// 240 training, 60 validation (3 x 16 + a ragged 12) and 60 test samples.
DatasetSplits blobSplits(bool randomLabels = false, std::int64_t poisonEvery = 0);
// Flatten, Linear(hidden), ReLU, Linear(3), CrossEntropy; SGD with momentum; 5 epochs of
// 15 batches of 16; seed 42; top-1 and top-2 accuracy; 2 loader workers.
ExperimentSpec blobSpec(std::int64_t hidden = 16);

struct Recorder : TrainListener {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<TrainEvent> events;
    void onEvent(const TrainEvent& e) override
    {
        {
            std::lock_guard lock(mutex);
            events.push_back(e);
        }
        changed.notify_all();
    }
    template <class T> std::vector<T> all()
    {
        std::lock_guard lock(mutex);
        std::vector<T> out;
        for (const auto& e : events)
            if (auto* p = std::get_if<T>(&e)) out.push_back(*p);
        return out;
    }
    template <class Pred> void waitFor(Pred pred)
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return pred(events); });
    }
    bool hasLog(LogEvent::Level level, const std::string& text)
    {
        for (const auto& l : all<LogEvent>())
            if (l.level == level && l.message.text.find(text) != std::string::npos) return true;
        return false;
    }
};

}  // namespace ts::test
