// Text from a language model: the prompt encoded by the run's tokenizer, then one token at a
// time drawn from the model's next-token distribution (temperature, top-k, a seed), the last
// `context` tokens fed back each step. The model sees a fixed [1, context] input: the tokens
// so far sit at its first positions and the logits are read at the last of them, which is
// exact for a causal model (a position sees only the ones before it). Used by
// the trainer's samples after each epoch and, from a run's checkpoint (jobs/run_sampler.h),
// `trainstudio-cli generate` and the Runs page's Generate panel.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "data/tokenizer.h"
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

class TextSampler {
public:
    // `weights` loaded into the model; `tokenizer` as DatasetSplits::tokenizer keeps it (empty:
    // std::invalid_argument naming `source`, as for a model that does not map tokens to
    // next-token logits).
    TextSampler(const ExperimentSpec& spec, const NamedTensors& weights, const std::string& tokenizer, Backend& backend,
                const std::string& source = "the run");
    ~TextSampler();
    TextSampler(TextSampler&&) noexcept;
    TextSampler(const TextSampler&) = delete;
    TextSampler& operator=(const TextSampler&) = delete;

    // The prompt and what follows it. TokenizeError for a prompt the vocabulary cannot encode;
    // std::invalid_argument for bad options. `onPiece` sees each drawn token's text as it comes
    // and may return false to stop early.
    std::string generate(const GenerateOptions& options, const std::function<bool(const std::string&)>& onPiece = {});

    const Tokenizer& tokenizer() const;
    std::int64_t context() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace ts
