#include "data/text_classification_dataset.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "data/data_files.h"
#include "data/text_dataset.h"
#include "tensor/quote_text.h"

namespace fs = std::filesystem;

namespace ts {

namespace {

std::vector<std::string> subFolders(const std::string& path)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory() && !name.starts_with(".")) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

bool blank(std::string_view text)
{
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

std::string_view withoutTrailingNewlines(std::string_view text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    return text;
}

// Adds the texts of one file to `out` under `label`: the whole file, or each stretch between
// lines holding only `separator` (a trailing '\r' allowed), then named "file:line".
void addFile(TextSamples& out, const std::string& file, std::int64_t label, const std::string& separator, bool utf8)
{
    const std::vector<std::uint8_t> bytes = readFileBytes(file);
    const std::string text(bytes.begin(), bytes.end());
    if (const std::int64_t bad = utf8 ? invalidUtf8Offset(text) : -1; bad >= 0) {
        char hex[3];
        std::snprintf(hex, sizeof hex, "%02X", unsigned(static_cast<unsigned char>(text[std::size_t(bad)])));
        throw byteError(file, bad, std::string("not UTF-8 text (byte 0x") + hex +
                                       "); save it as UTF-8 (iconv -f LATIN1 -t UTF-8 in > out), or use tokenizer: bytes");
    }
    const auto add = [&](std::string_view t, const std::string& source) {
        if (blank(t)) return;
        out.texts.emplace_back(withoutTrailingNewlines(t));
        out.labels.push_back(label);
        out.sources.push_back(source);
    };
    out.files.push_back(file);
    if (separator.empty()) return add(text, file);
    std::size_t start = 0, startLine = 1, line = 1;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t eol = std::min(text.find('\n', at), text.size());
        std::string_view content(text.data() + at, eol - at);
        if (content.ends_with('\r')) content.remove_suffix(1);
        if (content == separator) {
            add(std::string_view(text).substr(start, at - start), file + ":" + std::to_string(startLine));
            start = eol + 1, startLine = line + 1;
        }
        at = eol + 1, ++line;
    }
    if (start < text.size()) add(std::string_view(text).substr(start), file + ":" + std::to_string(startLine));
}

}  // namespace

TextSamples readTextFolder(const std::string& path, const std::vector<std::string>& classes, const std::string& separator,
                           bool utf8)
{
    if (const std::string why = whyNotAFolder(path); !why.empty())
        throw DataError(path, -1, path + ": " + why + "; a text_folder dataset is a folder of class folders, or of "
                                                      "files of texts, one file per class");
    const std::vector<std::string> folders = subFolders(path);
    const bool filesAreClasses = folders.empty();
    std::vector<std::string> classFiles;  // files as classes: their paths; the class is the name less ".txt"
    std::vector<std::string> found = folders;
    if (filesAreClasses) {
        classFiles = textFiles(path);  // DataError when there are none either
        found.clear();
        for (const std::string& f : classFiles) found.push_back(fs::path(f).stem().string());
        if (separator.empty())
            throw DataError(path, -1, path + " holds files, not class folders: each file is a class only with "
                                             "dataset.separator, the line between its texts (\"%\" for fortune files)");
    }

    TextSamples out;
    out.classNames = classes.empty() ? found : classes;
    std::set<std::string> seen;
    for (std::size_t label = 0; label < out.classNames.size(); ++label) {
        const std::string& name = out.classNames[label];
        if (!seen.insert(name).second)
            throw DataError(path, -1, "dataset.classes names " + quoteText(name) + " twice");
        const auto it = std::find(found.begin(), found.end(), name);
        if (it == found.end())
            throw DataError(path, -1, "dataset.classes names " + quoteText(name) + ", which " + path + " does not hold; its " +
                                          (filesAreClasses ? "files" : "class folders") + " are: " + joined(found));
        const std::size_t before = out.texts.size();
        if (filesAreClasses) {
            addFile(out, classFiles[std::size_t(it - found.begin())], std::int64_t(label), separator, utf8);
        } else {
            std::vector<std::string> files;
            try {
                files = textFiles(joinPath(path, name));
            } catch (const DataError&) {  // said below, as an empty class
            }
            for (const std::string& f : files) addFile(out, f, std::int64_t(label), separator, utf8);
        }
        if (out.texts.size() == before)
            throw DataError(path, -1, "class " + quoteText(name) + " (" + joinPath(path, name) + ") holds no text" +
                                          (filesAreClasses ? "" : " files (*.txt, or files without an extension)") +
                                          "; remove it or leave it out of dataset.classes");
    }
    return out;
}

TextClassificationDataset::TextClassificationDataset(TextSamples samples, const std::string& tokenizer, std::int64_t context,
                                                     std::string name)
    : samples_(std::move(samples)), context_(context), name_(std::move(name))
{
    if (context_ < 1)
        throw DataError(name_, -1, "dataset.context (the longest text in tokens) must be at least 1, got " + std::to_string(context_));
    std::string all;
    for (const std::string& t : samples_.texts) all += t;
    tokenizer_ = Tokenizer::build(tokenizer, all, /*padded=*/true);
    tokens_.assign(std::size_t(size() * context_), 0);
    for (std::int64_t i = 0; i < size(); ++i) {
        const std::vector<std::int64_t> ids = tokenizer_.encode(samples_.texts[std::size_t(i)]);
        const std::int64_t n = static_cast<std::int64_t>(ids.size());
        longest_ = std::max(longest_, n);
        cut_ += n > context_;
        std::copy_n(ids.begin(), std::min(n, context_), tokens_.begin() + i * context_);
    }
}

std::int64_t TextClassificationDataset::get(std::int64_t index, float* out) const
{
    const std::int32_t* ids = tokens_.data() + index * context_;
    for (std::int64_t t = 0; t < context_; ++t) out[t] = static_cast<float>(ids[t]);
    return samples_.labels[std::size_t(index)];
}

std::string TextClassificationDataset::description() const
{
    return name_ + " (" + std::to_string(size()) + " texts in " + std::to_string(numClasses()) + " classes, " +
           std::to_string(context_) + " " + tokenizer_.kind() + " tokens each, vocabulary " +
           std::to_string(tokenizer_.size() - 1) + " + padding)";
}

std::vector<Message> textClassificationNotes(const TextClassificationDataset& data)
{
    if (data.cutCount() == 0) return {};
    return {makeMessage(MessageId::DataTextsCut, {std::to_string(data.cutCount()), std::to_string(data.size()),
                                                  std::to_string(data.context()), std::to_string(data.longest())})};
}

}  // namespace ts
