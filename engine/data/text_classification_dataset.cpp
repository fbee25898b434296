#include "data/text_classification_dataset.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "data/csv_dataset.h"
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

std::string notUtf8(char byte)
{
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02X", unsigned(static_cast<unsigned char>(byte)));
    return std::string("not UTF-8 text (byte 0x") + hex +
           "); save it as UTF-8 (iconv -f LATIN1 -t UTF-8 in > out), or use tokenizer: bytes";
}

// Adds the texts of one file to `out` under `label`: the whole file, or each stretch between
// lines holding only `separator` (a trailing '\r' allowed), then named "file:line".
void addFile(TextSamples& out, const std::string& file, std::int64_t label, const std::string& separator, bool utf8)
{
    const std::vector<std::uint8_t> bytes = readFileBytes(file);
    const std::string text(bytes.begin(), bytes.end());
    if (const std::int64_t bad = utf8 ? invalidUtf8Offset(text) : -1; bad >= 0)
        throw byteError(file, bad, notUtf8(text[std::size_t(bad)]));
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

TextSamples readTextFile(const std::string& file, const std::string& separator, bool utf8)
{
    TextSamples out;
    addFile(out, file, 0, separator, utf8);
    return out;
}

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

TextSamples readTextCsv(const std::string& path, const std::string& textColumn, const std::string& labelColumn,
                        const std::string& groupColumn, const std::vector<std::string>& classes, bool utf8)
{
    const std::vector<std::uint8_t> bytes = readFileBytes(path);
    // Spreadsheets often start UTF-8 files with a byte-order mark; it is not part of the header.
    const std::size_t bom = bytes.size() >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0;
    const std::string text(bytes.begin() + std::ptrdiff_t(bom), bytes.end());
    if (const std::int64_t bad = utf8 ? invalidUtf8Offset(text) : -1; bad >= 0) {
        const std::string_view before = std::string_view(text).substr(0, std::size_t(bad));
        const std::size_t lineStart = before.rfind('\n') + 1;  // npos + 1 = 0 on the first line
        const auto line = std::int64_t(std::count(before.begin(), before.end(), '\n')) + 1;
        const std::string where = path + ":" + std::to_string(line) + ":" + std::to_string(std::size_t(bad) - lineStart + 1);
        throw DataError(path, line, where + ": byte " + std::to_string(std::size_t(bad) + bom) + ": " + notUtf8(text[std::size_t(bad)]));
    }
    const std::vector<CsvRecord> records = parseCsv(text, path);
    if (records.empty()) throw lineError(path, 1, "the file is empty (expected a header row naming the text and label columns)");
    const std::vector<std::string> header = csvHeader(records[0]);
    const std::size_t textIndex = csvColumnIndex(header, textColumn, "text", path);
    const std::size_t labelIndex = csvColumnIndex(header, labelColumn, "label", path);
    const std::size_t groupIndex = groupColumn.empty() ? header.size() : csvColumnIndex(header, groupColumn, "group", path);
    if (labelIndex == textIndex)
        throw lineError(path, 1, "dataset.text_column and dataset.label_column both name " + quoteText(textColumn) +
                                     "; the class is in another column");

    TextSamples out;
    out.files = {path};
    std::vector<std::string> labels, groups;  // of the rows kept
    for (std::size_t r = 1; r < records.size(); ++r) {
        const CsvRecord& row = records[r];
        const std::string source = path + ":" + std::to_string(row.line);
        if (row.fields.size() != header.size())
            throw lineError(path, row.line, std::to_string(row.fields.size()) + " fields, but the header has " +
                                                std::to_string(header.size()) + "; quote a text that holds commas: \"a, b\"");
        std::string label = row.fields[labelIndex];
        label.erase(0, label.find_first_not_of(" \t"));
        label.erase(label.find_last_not_of(" \t") + 1);
        if (label.empty())
            throw lineError(path, row.line, "the label (column " + quoteText(labelColumn) + ") is empty; give the row its "
                                            "class or remove the row");
        if (!classes.empty() && std::find(classes.begin(), classes.end(), label) == classes.end()) continue;
        ++out.rows;
        if (blank(row.fields[textIndex])) {
            out.emptyRows.push_back(source);
            continue;
        }
        out.texts.push_back(row.fields[textIndex]);
        out.sources.push_back(source);
        labels.push_back(std::move(label));
        if (groupIndex < header.size()) groups.push_back(row.fields[groupIndex]);
    }
    if (classes.empty()) {
        out.labels = indexCsvValues(labels, out.classNames);
    } else {
        out.classNames = classes;
        std::set<std::string> seen;
        for (const std::string& name : classes)
            if (!seen.insert(name).second) throw DataError(path, -1, "dataset.classes names " + quoteText(name) + " twice");
        for (const std::string& label : labels)
            out.labels.push_back(std::find(classes.begin(), classes.end(), label) - classes.begin());
        std::vector<std::string> all, found;  // every class a row has, to say which there are
        for (std::size_t r = 1; r < records.size(); ++r) all.push_back(records[r].fields[labelIndex]);
        indexCsvValues(all, found);
        for (std::size_t c = 0; c < classes.size(); ++c)
            if (std::find(out.labels.begin(), out.labels.end(), std::int64_t(c)) == out.labels.end())
                throw DataError(path, -1, "dataset.classes names " + quoteText(classes[c]) + ", which no row of " + path +
                                              " has a text for (column " + quoteText(labelColumn) + "); its classes are: " +
                                              joined(found));
    }
    if (out.texts.empty())
        throw lineError(path, 2, "no texts after the header" +
                                     (out.emptyRows.empty() ? std::string() : " (every text cell is empty)"));
    if (!groups.empty()) {
        std::vector<std::string> distinct;
        out.groups = indexCsvValues(groups, distinct);
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
           std::to_string(tokenizer_.size() - 1) + " + padding" +
           (samples_.emptyRows.empty() ? "" : ", " + std::to_string(samples_.emptyRows.size()) + " empty left out") + ")";
}

std::vector<Message> textClassificationNotes(const TextClassificationDataset& data)
{
    std::vector<Message> notes;
    if (const std::vector<std::string>& empty = data.samples().emptyRows; !empty.empty())
        notes.push_back(makeMessage(MessageId::DataTextsEmpty,
                                    {std::to_string(empty.size()), std::to_string(data.samples().rows), empty.front()}));
    if (data.cutCount() > 0)
        notes.push_back(makeMessage(MessageId::DataTextsCut, {std::to_string(data.cutCount()), std::to_string(data.size()),
                                                              std::to_string(data.context()), std::to_string(data.longest())}));
    return notes;
}

}  // namespace ts
