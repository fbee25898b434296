// Language-modelling data: UTF-8 text (a file, or a folder's text files) as one stream of
// tokens cut into blocks of `context` tokens. Sample i is block i, tokens [i*context,
// (i+1)*context), and its targets the same block shifted by one token (the next token at each
// position), so consecutive blocks share no input token. labels() holds each block's last
// target, so samplers, splits and class counts work as for one-label data.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/tokenizer.h"

namespace ts {

class TextDataset : public Dataset {
public:
    // `path`: a file, or a folder whose regular files named *.txt or without an extension are
    // read in name order (fortune's category files; their .dat indexes are skipped). Throws
    // DataError for text that is not UTF-8 (file and byte offset), no text, or fewer than
    // context + 1 tokens.
    TextDataset(const std::string& path, const std::string& tokenizer, std::int64_t context);

    std::int64_t size() const override { return static_cast<std::int64_t>(labels_.size()); }
    Shape sampleShape() const override { return Shape{context_}; }
    Shape targetShape() const override { return Shape{context_}; }
    DType inputDType() const override { return DType::I64; }
    std::int64_t numClasses() const override { return tokenizer_.size(); }
    std::vector<std::string> classNames() const override;
    std::int64_t get(std::int64_t index, float* out) const override;
    void getTargets(std::int64_t index, std::int64_t* out) const override;
    const std::vector<std::int64_t>& labels() const override { return labels_; }
    std::string description() const override;
    std::string sampleSource(std::int64_t index) const override;  // "file:line" of the block's start

    const Tokenizer& tokenizer() const { return tokenizer_; }
    const std::vector<std::string>& files() const { return files_; }
    std::int64_t tokenCount() const { return static_cast<std::int64_t>(tokens_.size()); }
    // Which contiguous stretch of the text each block lies in: the split keeps stretches whole,
    // so validation text is never interleaved with training text (DatasetFiles::groups).
    std::vector<std::int64_t> stretches(std::int64_t count) const;

private:
    std::string path_;
    std::vector<std::string> files_;
    std::vector<std::int64_t> fileStart_;  // first token of each file
    std::vector<std::string> text_;         // each file's text (sampleSource counts its lines)
    Tokenizer tokenizer_;
    std::int64_t context_;
    std::vector<std::int32_t> tokens_;
    std::vector<std::int64_t> labels_;
};

// The text files a text dataset at `path` reads (see TextDataset); DataError when none.
std::vector<std::string> textFiles(const std::string& path);

}  // namespace ts
