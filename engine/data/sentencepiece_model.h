// SentencePiece (Debian's libsentencepiece 0.1.97) behind Tokenizer's `bpe` and `unigram`
// kinds: a model trained in memory (no files) and encoding with it. The options make it
// lossless for a language model's text: no normalisation (identity), spaces kept as they are
// (no dummy prefix, no whitespace folding), '\n' and '\t' pieces of their own, every character of the
// training sentences a piece (character_coverage 1.0), no BOS/EOS; one thread, so the same
// sentences give the same model byte for byte. SentencePiece itself is in a module of its own
// (data/sentencepiece_module_api.h says why); std::runtime_error when it cannot be loaded.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

// SentencePiece refused to train. maxVocabulary: the largest vocabulary the sentences can give
// when that was the reason (SentencePiece's "Please set it to a value <= N"), else -1.
class SentencePieceError : public std::invalid_argument {
public:
    SentencePieceError(const std::string& message, std::int64_t maxVocabulary)
        : std::invalid_argument(message), maxVocabulary_(maxVocabulary)
    {
    }
    std::int64_t maxVocabulary() const { return maxVocabulary_; }

private:
    std::int64_t maxVocabulary_;
};

// Trains a `modelType` ("bpe" or "unigram") model of exactly `vocabSize` pieces on `sentences`
// (lines without their '\n'; none longer than 4192 bytes is used, SentencePiece's limit) and
// returns its serialized ModelProto. Throws SentencePieceError.
std::string trainSentencePiece(const std::string& modelType, const std::vector<std::string_view>& sentences,
                               std::int64_t vocabSize);

class SentencePieceModel {
public:
    // std::invalid_argument when `serialized` is not a SentencePiece model.
    explicit SentencePieceModel(std::string serialized);
    ~SentencePieceModel();
    SentencePieceModel(const SentencePieceModel&) = delete;
    SentencePieceModel& operator=(const SentencePieceModel&) = delete;

    const std::string& serialized() const { return serialized_; }
    std::int64_t size() const;
    // The piece as SentencePiece writes it ('▁' for a space).
    std::string piece(std::int64_t id) const;
    std::int64_t unknownId() const;
    std::vector<std::int64_t> encode(std::string_view text) const;

private:
    std::string serialized_;
    void* processor_ = nullptr;  // the module's (data/sentencepiece_module_api.h)
};

}  // namespace ts
