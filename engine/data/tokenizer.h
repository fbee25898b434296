// How text becomes token ids and back. `characters`: one id per Unicode code point of the
// text it was built from, in code point order (a character-level language model's
// vocabulary); `bytes`: one id per byte value, 256 in all, so any text encodes. A tokenizer
// travels with a run's checkpoints as its serialized text (one line naming the kind, then the
// vocabulary), so generation decodes with the ids the model was trained on.
// A `padded` tokenizer (text classification, whose samples are padded to one length) keeps
// id 0 for padding and numbers the same vocabulary from 1; its serialized kind line says
// "padded", so a language model's ids (no padding) are never shifted.
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

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
    static const std::vector<std::string>& kinds();  // "characters", "bytes"
    // `text` must be valid UTF-8 for characters (checked by the caller: invalidUtf8Offset).
    static Tokenizer build(const std::string& kind, std::string_view text, bool padded = false);
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
    // What token `id` stands for, as text (the character, or the byte as UTF-8 when printable;
    // "" for padding).
    const std::string& piece(std::int64_t id) const { return pieces_.at(static_cast<std::size_t>(id)); }

private:
    std::int64_t firstId() const { return padded_ ? 1 : 0; }

    std::string kind_;
    bool padded_ = false;
    std::vector<std::string> pieces_;  // id -> its text
    std::vector<char32_t> codePoints_;  // characters: id -> code point (sorted, for encode)
};

}  // namespace ts
