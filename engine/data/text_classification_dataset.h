// Text classification data: UTF-8 texts with one class each. A folder is read in one of two
// layouts: a sub-folder per class holding one text per file (the usual layout), or, when it
// holds no sub-folders, a file per class whose texts are separated by a line holding only
// `separator` (fortune's "%"). Each text becomes `context` token ids of a padded tokenizer
// (data/tokenizer.h): id 0 fills a shorter text, a longer one is cut (cutCount()).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/tokenizer.h"

namespace ts {

// What a reader of labelled texts found, before tokenizing: the one store every layout and a
// CSV text column fill, so tokenizing, padding and notes are written once.
struct TextSamples {
    std::vector<std::string> classNames;
    std::vector<std::string> texts;
    std::vector<std::int64_t> labels;
    std::vector<std::string> sources;  // per text: its file, or "file:line" for a file of several
    std::vector<std::string> files;    // every file read
    std::vector<std::int64_t> groups;  // per text: its group (a CSV's group_column); empty: none
    std::vector<std::string> emptyRows;  // CSV rows with an empty text, left out: "file:line" each
    std::int64_t rows = 0;               // CSV data rows of the classes read, empty texts included
};

// The texts at `path` (a folder, either layout). `classes` picks which classes to read, in
// that order (empty: all, in name order). A file's texts are split at `separator` lines when it
// is given (required when files are the classes); texts of blank lines only are skipped.
// Throws DataError for a path that is not a folder, a missing separator, a class in `classes`
// that is not there (naming those that are), a class with no text, and text that is not
// UTF-8 (file and byte offset; only checked when `utf8` is true: the bytes tokenizer takes any).
TextSamples readTextFolder(const std::string& path, const std::vector<std::string>& classes,
                           const std::string& separator, bool utf8 = true);
// The texts of one file as readTextFolder reads a class's file: the whole file, or each stretch
// between lines holding only `separator` (sources "file:line"); every label 0.
TextSamples readTextFile(const std::string& file, const std::string& separator, bool utf8 = true);

// The texts of a CSV table (RFC 4180 quoting, a UTF-8 byte-order mark skipped): each row's cell
// in `textColumn` is a text, exactly as written, its cell in `labelColumn` (trimmed) the class,
// its cell in `groupColumn` (when given) its group. Classes: `classes` in that order, rows of
// other classes left out; empty: the labels found, sorted. Rows with a blank text are left out
// and listed (emptyRows); sources are "file:line", the line a row starts on. Throws DataError
// naming file:line for a missing column (listing the header's), a row of another width, an
// empty label, a class in `classes` no row has, and (when `utf8`) bytes that are not UTF-8 (line,
// column and byte offset), and for an unterminated quote (the line it opens on).
TextSamples readTextCsv(const std::string& path, const std::string& textColumn, const std::string& labelColumn,
                        const std::string& groupColumn, const std::vector<std::string>& classes, bool utf8 = true);

class TextClassificationDataset : public Dataset {
public:
    // Throws DataError when context < 1.
    TextClassificationDataset(TextSamples samples, const std::string& tokenizer, std::int64_t context, std::string name);

    std::int64_t size() const override { return static_cast<std::int64_t>(samples_.labels.size()); }
    Shape sampleShape() const override { return Shape{context_}; }
    DType inputDType() const override { return DType::I64; }
    std::int64_t paddingId() const override { return tokenizer_.paddingId(); }
    std::int64_t numClasses() const override { return static_cast<std::int64_t>(samples_.classNames.size()); }
    std::vector<std::string> classNames() const override { return samples_.classNames; }
    std::int64_t get(std::int64_t index, float* out) const override;
    const std::vector<std::int64_t>& labels() const override { return samples_.labels; }
    std::string description() const override;
    std::string sampleSource(std::int64_t index) const override { return samples_.sources.at(std::size_t(index)); }

    const Tokenizer& tokenizer() const { return tokenizer_; }
    const std::vector<std::string>& files() const { return samples_.files; }
    const TextSamples& samples() const { return samples_; }
    const std::string& text(std::int64_t index) const { return samples_.texts.at(std::size_t(index)); }
    std::int64_t context() const { return context_; }
    std::int64_t cutCount() const { return cut_; }  // texts longer than context, cut
    std::int64_t longest() const { return longest_; }  // the longest text's tokens

private:
    TextSamples samples_;
    Tokenizer tokenizer_;
    std::int64_t context_;
    std::string name_;
    std::vector<std::int32_t> tokens_;  // size() x context_, padded with 0
    std::int64_t cut_ = 0, longest_ = 0;
};

// What a run's log should say about the texts: how many were cut to the context, how many CSV
// rows were left out for an empty text.
std::vector<Message> textClassificationNotes(const TextClassificationDataset& data);

}  // namespace ts
