// A language model's run, ready to write (train/text_sampler.h): its checkpoint chosen as
// predict chooses one, its tokenizer from the checkpoint, on the device asked for.
#pragma once
#include <vector>

#include "jobs/predictor.h"
#include "train/text_sampler.h"
#include "types/message.h"

namespace ts {

// Throws as Predictor does (no such run, no checkpoint, a damaged file) and
// std::invalid_argument for a run that is not a language model. `notes`: what loading said.
TextSampler openRunSampler(const PredictorOptions& options, std::vector<Message>& notes);

}  // namespace ts
