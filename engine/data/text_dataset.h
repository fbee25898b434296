// Language-modelling data: UTF-8 text (a file, or a folder's text files) as one stream of
// tokens cut into blocks of `context` tokens. Sample i is block i, tokens [i*context,
// (i+1)*context), and its targets the same block shifted by one token (the next token at each
// position), so consecutive blocks share no input token. labels() holds each block's last
// target, so samplers, splits and class counts work as for one-label data.
// The split (openDataset) keeps whole stretches of the text on one side. For characters and
// bytes a stretch is a hundredth of the blocks. A bpe or unigram tokenizer is learned from the
// training text alone, so there a stretch is a hundredth of the bytes, chosen for validation
// before the tokenizer exists: the same seeded choice splitGroups makes (see the constructor).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/tokenizer.h"

namespace ts {

// How a text dataset becomes tokens: the tokenizer's kind, and for bpe and unigram the
// vocabulary size (dataset.vocab_size) and the split that keeps validation text from it.
struct TextTokenizing {
    std::string tokenizer = "characters";
    std::int64_t vocabSize = 0;
    double validationFraction = 0.1;
    std::uint64_t splitSeed = 0;
};

class TextDataset : public Dataset {
public:
    // `path`: a file, or a folder whose regular files named *.txt or without an extension are
    // read in name order (fortune's category files; their .dat indexes are skipped). Throws
    // DataError for text that is not UTF-8 (file and byte offset), no text, or fewer than
    // context + 1 tokens; for bpe and unigram also for a vocabulary size missing, smaller than
    // the text's characters need, or larger than the training text can give.
    TextDataset(const std::string& path, const TextTokenizing& tokenizing, std::int64_t context);
    TextDataset(const std::string& path, const std::string& tokenizer, std::int64_t context)
        : TextDataset(path, TextTokenizing{.tokenizer = tokenizer}, context)
    {
    }

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
    // Which of 100 contiguous stretches of the text each block lies in: the split keeps
    // stretches whole, so validation text is never interleaved with training text
    // (DatasetFiles::groups). A learned tokenizer's: a block touching a stretch held out from
    // the tokenizer belongs to it, so no training block holds text the tokenizer never saw.
    const std::vector<std::int64_t>& stretches() const { return stretches_; }

private:
    void tokenize(const std::string& all, const TextTokenizing& tokenizing);
    // bpe, unigram: learns the tokenizer from the stretches not held out and tokenizes.
    void learnAndTokenize(const std::string& all, const TextTokenizing& tokenizing);
    void cutBlocks();

    std::string path_;
    std::vector<std::string> files_;
    std::vector<std::int64_t> fileStart_;  // first token of each file
    std::vector<std::string> text_;         // each file's text (sampleSource counts its lines)
    Tokenizer tokenizer_;
    std::int64_t context_;
    std::vector<std::int32_t> tokens_;
    std::vector<std::int64_t> labels_;
    std::vector<std::int64_t> stretches_;
    std::vector<std::int64_t> blockByte_;  // learned tokenizers: each block's first byte in the text (sampleSource)
};

// The text files a text dataset at `path` reads (see TextDataset); DataError when none.
std::vector<std::string> textFiles(const std::string& path);

}  // namespace ts
