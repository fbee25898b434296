#include "data/text_dataset.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "data/data_files.h"

namespace fs = std::filesystem;

namespace ts {

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

TextDataset::TextDataset(const std::string& path, const std::string& tokenizer, std::int64_t context)
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
    tokenizer_ = Tokenizer::build(tokenizer, all);
    for (const std::string& text : text_) {
        fileStart_.push_back(static_cast<std::int64_t>(tokens_.size()));
        for (std::int64_t id : tokenizer_.encode(text)) tokens_.push_back(static_cast<std::int32_t>(id));
    }
    const std::int64_t blocks = (static_cast<std::int64_t>(tokens_.size()) - 1) / context_;
    if (blocks < 1)
        throw DataError(path, -1, path + ": the text has " + std::to_string(tokens_.size()) + " tokens, too few for one block of context " +
                                      std::to_string(context_) + " and its next token; lower dataset.context");
    labels_.resize(std::size_t(blocks));
    for (std::int64_t i = 0; i < blocks; ++i) labels_[std::size_t(i)] = tokens_[std::size_t((i + 1) * context_)];
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

std::vector<std::int64_t> TextDataset::stretches(std::int64_t count) const
{
    std::vector<std::int64_t> group(static_cast<std::size_t>(size()));
    for (std::int64_t i = 0; i < size(); ++i) group[std::size_t(i)] = i * count / std::max<std::int64_t>(size(), 1);
    return group;
}

}  // namespace ts
