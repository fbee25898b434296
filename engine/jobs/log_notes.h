// What the engine logs while a tool prepares (a checkpoint fallback, a device notice), kept as
// notes for the caller to show: `export` and `predict` report them beside their result, each
// a Message so the studio words it in the user's language.
#pragma once
#include <vector>

#include "types/events.h"
#include "types/message.h"

namespace ts {

class LogNotes final : public TrainListener {
public:
    // chooseCheckpoint's "no best checkpoint: evaluating the last one" is reworded as
    // `noBestCheckpoint` (the caller's verb: exporting, predicting).
    LogNotes(std::vector<Message>& notes, MessageId noBestCheckpoint) : notes_(notes), noBest_(noBestCheckpoint) {}
    void onEvent(const TrainEvent& event) override
    {
        const auto* log = std::get_if<LogEvent>(&event);
        if (!log) return;
        if (log->message.id == "eval.no_best_checkpoint") notes_.push_back(makeMessage(noBest_, log->message.args));
        else notes_.push_back(log->message);
    }

private:
    std::vector<Message>& notes_;
    MessageId noBest_;
};

}  // namespace ts
