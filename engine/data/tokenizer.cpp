#include "data/tokenizer.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "data/sentencepiece_model.h"

namespace ts {

namespace {

// Decodes the code point at text[i] (valid UTF-8 assumed only where said), advancing i;
// returns -1 for an invalid sequence (i is left at its first byte).
std::int64_t nextCodePoint(std::string_view text, std::size_t& i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) return ++i, b0;
    int extra = 0;
    std::uint32_t cp = 0, min = 0;
    if ((b0 & 0xE0) == 0xC0) extra = 1, cp = b0 & 0x1F, min = 0x80;
    else if ((b0 & 0xF0) == 0xE0) extra = 2, cp = b0 & 0x0F, min = 0x800;
    else if ((b0 & 0xF8) == 0xF0) extra = 3, cp = b0 & 0x07, min = 0x10000;
    else return -1;
    if (i + std::size_t(extra) >= text.size()) return -1;  // cut short by the end
    for (int k = 1; k <= extra; ++k) {
        const unsigned char b = byte(i + std::size_t(k));
        if ((b & 0xC0) != 0x80) return -1;
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
    i += std::size_t(extra) + 1;
    return cp;
}

std::string utf8(char32_t cp)
{
    std::string s;
    if (cp < 0x80) s += char(cp);
    else if (cp < 0x800) s += char(0xC0 | (cp >> 6)), s += char(0x80 | (cp & 0x3F));
    else if (cp < 0x10000)
        s += char(0xE0 | (cp >> 12)), s += char(0x80 | ((cp >> 6) & 0x3F)), s += char(0x80 | (cp & 0x3F));
    else
        s += char(0xF0 | (cp >> 18)), s += char(0x80 | ((cp >> 12) & 0x3F)), s += char(0x80 | ((cp >> 6) & 0x3F)),
            s += char(0x80 | (cp & 0x3F));
    return s;
}

std::string describeCodePoint(char32_t cp)
{
    char hex[16];
    std::snprintf(hex, sizeof hex, "U+%04X", unsigned(cp));
    return cp >= 0x20 && cp != 0x7F ? "'" + utf8(cp) + "' (" + hex + ")" : std::string(hex);
}

std::set<char32_t> codePointsOf(std::string_view validUtf8)
{
    std::set<char32_t> seen;
    for (std::size_t i = 0; i < validUtf8.size();) {
        const std::int64_t cp = nextCodePoint(validUtf8, i);
        if (cp < 0) throw TokenizeError(std::int64_t(i), "the text is not UTF-8 at byte " + std::to_string(i));
        seen.insert(char32_t(cp));
    }
    return seen;
}

// The model's bytes in the checkpoint's text metadata.
std::string base64(const std::string& bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), int(bytes.size()));
    out.resize(std::size_t(n));
    return out;
}

std::string unbase64(std::string_view text)
{
    if (text.size() % 4 != 0) throw std::invalid_argument("the tokenizer's model is not base64");
    std::string out(3 * (text.size() / 4), '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()), int(text.size()));
    if (n < 0) throw std::invalid_argument("the tokenizer's model is not base64");
    out.resize(std::size_t(n) - std::size_t(std::count(text.end() - std::min<std::size_t>(2, text.size()), text.end(), '=')));
    return out;
}

// SentencePiece learns from at most about this much text, so opening a large text stays quick:
// unigram on all of the fortunes' 2.5 MB took 10 s, on a third of its lines 3 s.
constexpr std::size_t kLearnBytes = 1'000'000;

}  // namespace

std::int64_t invalidUtf8Offset(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();)
        if (nextCodePoint(text, i) < 0) return static_cast<std::int64_t>(i);
    return -1;
}

const std::vector<std::string>& Tokenizer::kinds()
{
    static const std::vector<std::string> k{"characters", "bytes", "bpe", "unigram"};
    return k;
}

Tokenizer Tokenizer::build(const std::string& kind, std::string_view text, bool padded)
{
    Tokenizer t;
    t.kind_ = kind;
    t.padded_ = padded;
    if (padded) t.pieces_.emplace_back();  // id 0
    if (kind == "bytes") {
        for (int b = 0; b < 256; ++b) t.pieces_.push_back(b < 0x80 ? std::string(1, char(b)) : utf8(char32_t(b)));
        return t;
    }
    if (learned(kind)) throw std::invalid_argument("a " + kind + " tokenizer is learned from text with a vocabulary size");
    if (kind != "characters") throw std::invalid_argument("unknown tokenizer '" + kind + "' (characters or bytes)");
    const std::set<char32_t> seen = codePointsOf(text);
    t.codePoints_.assign(seen.begin(), seen.end());
    for (char32_t cp : t.codePoints_) t.pieces_.push_back(utf8(cp));
    return t;
}

std::int64_t Tokenizer::smallestVocabulary(std::string_view alphabet)
{
    const std::set<char32_t> chars = codePointsOf(alphabet);
    return std::int64_t(chars.size()) - std::int64_t(chars.count(U'\n') + chars.count(U'\t')) + 3;
}

Tokenizer Tokenizer::learn(const std::string& kind, const std::vector<std::string_view>& sentences, std::int64_t vocabSize,
                           std::string_view alphabet)
{
    if (!learned(kind)) throw std::invalid_argument("unknown learned tokenizer '" + kind + "' (bpe or unigram)");
    std::size_t bytes = 0;
    for (std::string_view s : sentences) bytes += s.size();
    const std::size_t every = bytes / kLearnBytes + 1;  // evenly spaced lines: the same ones every time
    std::vector<std::string_view> used;
    std::set<char32_t> covered;
    for (std::size_t i = 0; i < sentences.size(); i += every) {
        used.push_back(sentences[i]);
        const std::set<char32_t> chars = codePointsOf(sentences[i]);
        covered.insert(chars.begin(), chars.end());
    }
    std::vector<std::string> single;  // the alphabet's other characters, a sentence each
    for (char32_t cp : codePointsOf(alphabet))
        if (cp != U'\n' && cp != U'\t' && !covered.count(cp)) single.push_back(utf8(cp));
    for (const std::string& c : single) used.push_back(c);
    return fromModel(kind, std::make_shared<const SentencePieceModel>(trainSentencePiece(kind, used, vocabSize)));
}

Tokenizer Tokenizer::fromModel(const std::string& kind, std::shared_ptr<const SentencePieceModel> model)
{
    Tokenizer t;
    t.kind_ = kind;
    std::set<char32_t> chars{U'\n', U'\t'};
    for (std::int64_t id = 0; id < model->size(); ++id) {
        std::string p = id == model->unknownId() ? std::string("\u2047") : model->piece(id);
        for (std::size_t at; (at = p.find("\u2581")) != std::string::npos;) p.replace(at, 3, " ");
        std::size_t end = 0;
        const std::int64_t cp = id == model->unknownId() || p.empty() ? -1 : nextCodePoint(p, end);
        if (cp >= 0 && end == p.size()) chars.insert(char32_t(cp));  // a piece of one character
        t.pieces_.push_back(std::move(p));
    }
    t.codePoints_.assign(chars.begin(), chars.end());
    t.model_ = std::move(model);
    return t;
}

std::string Tokenizer::serialize() const
{
    std::string s = kind_ + (padded_ ? " padded\n" : "\n");
    if (model_) return s + base64(model_->serialized());
    if (kind_ == "characters")
        for (const std::string& p : pieces_) s += p;
    return s;
}

Tokenizer Tokenizer::parse(std::string_view serialized)
{
    const std::size_t eol = serialized.find('\n');
    if (eol == std::string_view::npos) throw std::invalid_argument("a tokenizer starts with its kind on a line of its own");
    std::string kind(serialized.substr(0, eol));
    const std::string_view rest = serialized.substr(eol + 1);
    const bool padded = kind.ends_with(" padded");
    if (padded) kind.resize(kind.size() - std::string_view(" padded").size());
    if (kind == "bytes" && rest.empty()) return build(kind, {}, padded);
    if (learned(kind) && !padded) {
        Tokenizer t = fromModel(kind, std::make_shared<const SentencePieceModel>(unbase64(rest)));
        if (t.serialize() != serialized) throw std::invalid_argument("the tokenizer's model is not in base64 as serialize() writes it");
        return t;
    }
    if (kind != "characters") throw std::invalid_argument("unknown tokenizer '" + kind + "' (characters or bytes)");
    if (const std::int64_t bad = invalidUtf8Offset(rest); bad >= 0)
        throw std::invalid_argument("the tokenizer's vocabulary is not UTF-8 at byte " + std::to_string(bad));
    Tokenizer t = build(kind, rest, padded);
    if (t.serialize() != serialized)  // sorted, each character once: what build() writes
        throw std::invalid_argument("the tokenizer's vocabulary is not in code point order or repeats a character");
    return t;
}

std::vector<std::int64_t> Tokenizer::encode(std::string_view text) const
{
    std::vector<std::int64_t> ids;
    ids.reserve(text.size());
    if (kind_ == "bytes") {
        for (char c : text) ids.push_back(firstId() + static_cast<unsigned char>(c));
        return ids;
    }
    if (model_) {
        ids = model_->encode(text);
        if (std::find(ids.begin(), ids.end(), model_->unknownId()) == ids.end()) return ids;
    }
    for (std::size_t i = 0; i < text.size();) {  // characters, or the character a model does not know
        const std::size_t at = i;
        const std::int64_t cp = nextCodePoint(text, i);
        if (cp < 0) throw TokenizeError(std::int64_t(at), "the text is not UTF-8 at byte " + std::to_string(at));
        const auto it = std::lower_bound(codePoints_.begin(), codePoints_.end(), char32_t(cp));
        if (it == codePoints_.end() || *it != char32_t(cp))
            throw TokenizeError(std::int64_t(at), "the character " + describeCodePoint(char32_t(cp)) + " at byte " +
                                                      std::to_string(at) + " is not in the model's vocabulary of " +
                                                      std::to_string(codePoints_.size()) + " characters");
        if (!model_) ids.push_back(firstId() + (it - codePoints_.begin()));
    }
    if (model_) throw TokenizeError(0, "the text holds a piece the " + kind_ + " model does not know");  // not reached
    return ids;
}

std::string Tokenizer::decode(std::span<const std::int64_t> ids) const
{
    std::string s;
    for (std::int64_t id : ids) {
        if (id < 0 || id >= size())
            throw std::out_of_range("token id " + std::to_string(id) + " is outside the vocabulary [0, " +
                                    std::to_string(size()) + ")");
        if (id < firstId()) continue;  // padding
        s += kind_ == "bytes" ? std::string(1, char(id - firstId())) : pieces_[std::size_t(id)];
    }
    return s;
}

}  // namespace ts
