#include "data/text_dataset.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <set>

#include "data/data_files.h"
#include "data/sentencepiece_model.h"
#include "data/subset_dataset.h"

namespace fs = std::filesystem;

namespace ts {

namespace {

constexpr std::int64_t kStretches = 100;

}  // namespace

std::vector<std::string> textFiles(const std::string& path)
{
    if (const std::string why = whyNotAFolder(path); !why.empty()) {
        if (const std::string notFile = whyNotAFile(path); !notFile.empty())
            throw DataError(path, -1, path + ": " + notFile + "; a text dataset is a UTF-8 file or a folder of them");
        return {path};
    }
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        const std::string ext = entry.path().extension().string();
        if (entry.is_symlink() || !entry.is_regular_file() || !(ext.empty() || ext == ".txt")) continue;
        files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    if (files.empty())
        throw DataError(path, -1, path + " holds no text files (*.txt, or files without an extension)");
    return files;
}

TextDataset::TextDataset(const std::string& path, const TextTokenizing& tokenizing, std::int64_t context)
    : path_(path), files_(textFiles(path)), context_(context)
{
    std::string all;
    for (const std::string& f : files_) {
        const std::vector<std::uint8_t> bytes = readFileBytes(f);
        std::string text(bytes.begin(), bytes.end());
        if (const std::int64_t bad = invalidUtf8Offset(text); bad >= 0)
            throw byteError(f, bad, "not UTF-8 text (byte 0x" + [&] {
                char hex[3];
                std::snprintf(hex, sizeof hex, "%02X", unsigned(static_cast<unsigned char>(text[std::size_t(bad)])));
                return std::string(hex);
            }() + "); save it as UTF-8 (iconv -f LATIN1 -t UTF-8 in > out), or use tokenizer: bytes");
        all += text;
        text_.push_back(std::move(text));
    }
    if (all.empty()) throw DataError(path, -1, path + ": the text is empty");
    if (Tokenizer::learned(tokenizing.tokenizer)) {
        learnAndTokenize(all, tokenizing);
        return;
    }
    tokenizer_ = Tokenizer::build(tokenizing.tokenizer, all);
    for (const std::string& text : text_) {
        fileStart_.push_back(static_cast<std::int64_t>(tokens_.size()));
        for (std::int64_t id : tokenizer_.encode(text)) tokens_.push_back(static_cast<std::int32_t>(id));
    }
    cutBlocks();
    stretches_.resize(std::size_t(size()));
    for (std::int64_t i = 0; i < size(); ++i) stretches_[std::size_t(i)] = i * kStretches / size();
}

void TextDataset::cutBlocks()
{
    const std::int64_t blocks = (static_cast<std::int64_t>(tokens_.size()) - 1) / context_;
    if (blocks < 1)
        throw DataError(path_, -1, path_ + ": the text has " + std::to_string(tokens_.size()) + " tokens, too few for one block of context " +
                                       std::to_string(context_) + " and its next token; lower dataset.context");
    labels_.resize(std::size_t(blocks));
    for (std::int64_t i = 0; i < blocks; ++i) labels_[std::size_t(i)] = tokens_[std::size_t((i + 1) * context_)];
}

// The tokenizer must not learn from validation text, yet which blocks are validation depends
// on the tokens. So the text is cut into 100 stretches of bytes first and the stretches
// splitGroups would hold out of 100 equal ones are kept from the tokenizer; a block touching
// a held-out stretch belongs to it. Blocks per stretch vary, so splitGroups over the blocks
// may choose a stretch more: it is then held out too and the tokenizer learned again, until
// every validation stretch is one the tokenizer never saw (the first time, almost always).
void TextDataset::learnAndTokenize(const std::string& all, const TextTokenizing& tk)
{
    const std::string& kind = tk.tokenizer;
    const std::int64_t smallest = Tokenizer::smallestVocabulary(all);
    if (tk.vocabSize <= 0)
        throw DataError(path_, -1, "dataset.vocab_size: the " + kind + " tokenizer needs a vocabulary size, at least " +
                                       std::to_string(smallest) + " for this text (a piece per character, one each for a "
                                       "line break, a tab and unknown text); 512 is a start");
    if (tk.vocabSize < smallest)
        throw DataError(path_, -1, "dataset.vocab_size: " + std::to_string(tk.vocabSize) + " is fewer than this text's " +
                                       std::to_string(smallest - 3) + " characters need (a piece each, and one each for a "
                                       "line break, a tab and unknown text); raise it to at least " + std::to_string(smallest));
    const auto n = static_cast<std::int64_t>(all.size());
    std::vector<std::int64_t> bound(kStretches + 1, n);  // stretch k: bytes [bound[k], bound[k + 1]), from a character on
    for (std::int64_t k = 0; k < kStretches; ++k) {
        std::int64_t b = k * n / kStretches;
        while (b < n && (static_cast<unsigned char>(all[std::size_t(b)]) & 0xC0) == 0x80) ++b;
        bound[std::size_t(k)] = b;
    }
    const auto stretchOf = [&](std::int64_t byte) {
        return std::int64_t(std::upper_bound(bound.begin(), bound.end() - 1, byte) - bound.begin()) - 1;
    };
    std::vector<std::int64_t> equal(kStretches);
    std::iota(equal.begin(), equal.end(), 0);
    std::set<std::int64_t> held;
    for (std::int64_t v : splitGroups(equal, tk.validationFraction, tk.splitSeed).validation) held.insert(v);

    for (;;) {
        std::vector<std::string_view> sentences;
        for (std::int64_t k = 0; k < kStretches; ++k) {
            if (held.count(k)) continue;
            const std::string_view stretch(all.data() + bound[std::size_t(k)], std::size_t(bound[std::size_t(k) + 1] - bound[std::size_t(k)]));
            for (std::size_t from = 0; from < stretch.size();) {
                const std::size_t eol = std::min(stretch.find('\n', from), stretch.size());
                if (eol > from) sentences.push_back(stretch.substr(from, eol - from));
                from = eol + 1;
            }
        }
        if (sentences.empty())
            throw DataError(path_, -1, path_ + ": " + std::to_string(n) + " bytes are too little text to learn a " + kind +
                                           " tokenizer from once validation is held out; add text, lower "
                                           "dataset.validation_fraction, or use tokenizer: characters");
        try {
            tokenizer_ = Tokenizer::learn(kind, sentences, tk.vocabSize, all);
        } catch (const SentencePieceError& e) {
            if (e.maxVocabulary() >= 0)
                throw DataError(path_, -1, "dataset.vocab_size: " + std::to_string(tk.vocabSize) +
                                               " is more than this text can give (at most about " +
                                               std::to_string(e.maxVocabulary()) + "); lower it");
            throw DataError(path_, -1, path_ + ": no " + kind + " tokenizer can be learned from this text (" + e.what() +
                                           "); use tokenizer: characters");
        }
        tokens_.clear();
        fileStart_.clear();
        std::vector<std::int64_t> tokenByte;  // each token's first byte in `all`, then the end
        std::int64_t at = 0;
        for (const std::string& text : text_) {
            fileStart_.push_back(static_cast<std::int64_t>(tokens_.size()));
            for (std::int64_t id : tokenizer_.encode(text)) {
                tokens_.push_back(static_cast<std::int32_t>(id));
                tokenByte.push_back(at);
                at += static_cast<std::int64_t>(tokenizer_.piece(id).size());
            }
        }
        tokenByte.push_back(at);
        cutBlocks();
        stretches_.resize(std::size_t(size()));
        blockByte_.resize(std::size_t(size()));
        for (std::int64_t i = 0; i < size(); ++i) {
            const std::int64_t first = tokenByte[std::size_t(i * context_)], end = tokenByte[std::size_t((i + 1) * context_ + 1)];
            std::int64_t group = stretchOf(first);
            for (std::int64_t k = group; k <= stretchOf(end - 1); ++k)
                if (held.count(k)) {
                    group = k;
                    break;
                }
            stretches_[std::size_t(i)] = group;
            blockByte_[std::size_t(i)] = first;
        }
        bool seen = false;
        for (std::int64_t v : splitGroups(stretches_, tk.validationFraction, tk.splitSeed).validation)
            seen |= held.insert(stretches_[std::size_t(v)]).second;
        if (!seen) return;
    }
}

std::vector<std::string> TextDataset::classNames() const
{
    std::vector<std::string> names;
    for (std::int64_t i = 0; i < tokenizer_.size(); ++i) names.push_back(tokenizer_.piece(i));
    return names;
}

std::int64_t TextDataset::get(std::int64_t index, float* out) const
{
    const std::int32_t* block = tokens_.data() + index * context_;
    for (std::int64_t t = 0; t < context_; ++t) out[t] = static_cast<float>(block[t]);
    return labels_[std::size_t(index)];
}

void TextDataset::getTargets(std::int64_t index, std::int64_t* out) const
{
    const std::int32_t* next = tokens_.data() + index * context_ + 1;
    for (std::int64_t t = 0; t < context_; ++t) out[t] = next[t];
}

std::string TextDataset::description() const
{
    return fs::path(path_).filename().string() + " (" + std::to_string(tokens_.size()) + " " + tokenizer_.kind() +
           " tokens, vocabulary " + std::to_string(tokenizer_.size()) + ", " + std::to_string(size()) + " blocks of " +
           std::to_string(context_) + ")";
}

std::string TextDataset::sampleSource(std::int64_t index) const
{
    if (!blockByte_.empty()) {  // a learned tokenizer: the block's first byte
        std::int64_t byte = blockByte_[std::size_t(index)];
        std::size_t file = 0;
        while (file + 1 < text_.size() && byte >= std::int64_t(text_[file].size())) byte -= std::int64_t(text_[file++].size());
        const auto lines = std::count(text_[file].begin(), text_[file].begin() + std::min<std::int64_t>(byte, std::int64_t(text_[file].size())), '\n');
        return files_[file] + ":" + std::to_string(lines + 1);
    }
    const std::int64_t first = index * context_;
    const std::size_t file = std::size_t(std::upper_bound(fileStart_.begin(), fileStart_.end(), first) - fileStart_.begin() - 1);
    // Count the lines before the block's first token, walking its file's text token by token.
    const std::string& text = text_[file];
    std::int64_t before = first - fileStart_[file], line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool startsToken = tokenizer_.kind() == "bytes" || (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
        if (startsToken && before-- == 0) break;
        line += text[i] == '\n';
    }
    return files_[file] + ":" + std::to_string(line);
}

}  // namespace ts
