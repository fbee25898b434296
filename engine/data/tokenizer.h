// How text becomes token ids and back. `characters`: one id per Unicode code point of the
// text it was built from, in code point order (a character-level language model's
// vocabulary); `bytes`: one id per byte value, 256 in all, so any text encodes. A tokenizer
// travels with a run's checkpoints as its serialized text (one line naming the kind, then the
// vocabulary), so generation decodes with the ids the model was trained on.
// A `padded` tokenizer (text classification, whose samples are padded to one length) keeps
// id 0 for padding and numbers the same vocabulary from 1; its serialized kind line says
// "padded", so a language model's ids (no padding) are never shifted.
// `bpe` and `unigram`: a SentencePiece model (data/sentencepiece_model.h) learned from the
// training text with a given vocabulary size; it serializes as its kind line and the model's
// bytes in base64. Its pieces read as text: SentencePiece's '▁' is a space again, so decoding
// token by token (generation) writes the same text as decoding all at once.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

class SentencePieceModel;

// Text the tokenizer cannot encode: what, and the byte offset of the first such character.
class TokenizeError : public std::runtime_error {
public:
    TokenizeError(std::int64_t offset, const std::string& message) : std::runtime_error(message), offset_(offset) {}
    std::int64_t offset() const { return offset_; }

private:
    std::int64_t offset_;
};

// The byte offset of the first byte that is not valid UTF-8 (overlong forms, surrogates and
// code points past U+10FFFF are invalid), -1 when the whole text is valid.
std::int64_t invalidUtf8Offset(std::string_view text);

class Tokenizer {
public:
    static const std::vector<std::string>& kinds();  // "characters", "bytes", "bpe", "unigram"
    static bool learned(const std::string& kind) { return kind == "bpe" || kind == "unigram"; }
    // characters or bytes. `text` must be valid UTF-8 for characters (checked by the caller:
    // invalidUtf8Offset).
    static Tokenizer build(const std::string& kind, std::string_view text, bool padded = false);
    // bpe or unigram, never padded: `vocabSize` ids learned from `sentences` (the training
    // text's lines, without '\n'). Every character of `alphabet` (valid UTF-8: all the text,
    // validation included) becomes a piece too, each learned from a sentence of its own, so
    // any of the text encodes while none of its sequences outside `sentences` is learned.
    // SentencePieceError when SentencePiece refuses (too large a vocabulary: maxVocabulary()).
    static Tokenizer learn(const std::string& kind, const std::vector<std::string_view>& sentences, std::int64_t vocabSize,
                           std::string_view alphabet);
    // The smallest vocabulary learn() takes for `alphabet`: a piece per character, '\n', '\t'
    // and the unknown piece.
    static std::int64_t smallestVocabulary(std::string_view alphabet);
    // The inverse of serialize(); std::invalid_argument for anything else.
    static Tokenizer parse(std::string_view serialized);
    std::string serialize() const;

    const std::string& kind() const { return kind_; }
    // Ids in all, padding included.
    std::int64_t size() const { return static_cast<std::int64_t>(pieces_.size()); }
    bool padded() const { return padded_; }
    // The id padding takes: 0 when padded() (what TokenMask's pad_id defaults to), else -1.
    std::int64_t paddingId() const { return padded_ ? 0 : -1; }
    // TokenizeError for a character outside the vocabulary (naming it and its offset).
    std::vector<std::int64_t> encode(std::string_view text) const;
    // Ids outside [0, size()) throw std::out_of_range; padding decodes to nothing. Bytes may
    // decode to partial UTF-8.
    std::string decode(std::span<const std::int64_t> ids) const;
    // What token `id` stands for, as text (the character, the byte as UTF-8 when printable,
    // a SentencePiece piece with its '▁' as ' ', "\u2047" for its unknown piece; "" for padding).
    const std::string& piece(std::int64_t id) const { return pieces_.at(static_cast<std::size_t>(id)); }

private:
    std::int64_t firstId() const { return padded_ ? 1 : 0; }
    static Tokenizer fromModel(const std::string& kind, std::shared_ptr<const SentencePieceModel> model);

    std::string kind_;
    bool padded_ = false;
    std::vector<std::string> pieces_;  // id -> its text
    std::vector<char32_t> codePoints_;  // characters: id -> code point (sorted, for encode); learned: its characters
    std::shared_ptr<const SentencePieceModel> model_;  // bpe, unigram
};

}  // namespace ts
