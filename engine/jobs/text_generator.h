// Text from a language model: the prompt encoded by the run's tokenizer, then one token at a
// time drawn from the model's next-token distribution (temperature, top-k, a seed), the last
// `context` tokens fed back each step. The model sees a fixed [1, context] input: the tokens
// so far sit at its first positions and the logits are read at the last of them, which is
// exact for a causal model (a position sees only the ones before it). Used by
// `trainstudio-cli generate`, the Runs page's Generate panel and the trainer's samples.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "data/tokenizer.h"
#include "jobs/predictor.h"
#include "io/checkpoint/safetensors.h"
#include "types/experiment_spec.h"

namespace ts {

class Backend;

struct GenerateOptions {
    std::string prompt;
    std::int64_t length = 200;  // tokens drawn after the prompt
    double temperature = 1.0;   // 0: always the most likely token
    std::int64_t topK = 0;      // draw among the k most likely; 0: all
    std::uint64_t seed = 0;
};

class TextGenerator {
public:
    // A run's checkpoint (as predict chooses it). Throws as Predictor does, and
    // std::invalid_argument when the run is not a language model (no tokenizer stored).
    explicit TextGenerator(const PredictorOptions& options);
    // Weights in hand (the trainer's samples after an epoch).
    TextGenerator(const ExperimentSpec& spec, const NamedTensors& weights, const std::string& tokenizer, Backend& backend);
    ~TextGenerator();
    TextGenerator(const TextGenerator&) = delete;
    TextGenerator& operator=(const TextGenerator&) = delete;

    // The prompt and what follows it. TokenizeError for a prompt the vocabulary cannot encode;
    // std::invalid_argument for bad options. `onPiece` sees each drawn token's text as it comes
    // and may return false to stop early.
    std::string generate(const GenerateOptions& options, const std::function<bool(const std::string&)>& onPiece = {});

    const Tokenizer& tokenizer() const;
    std::int64_t context() const;
    const std::vector<Message>& notes() const;  // what loading said (checkpoint, device)

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
