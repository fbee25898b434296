// Text statistics for the Datasets page (data/text_statistics.h): token counts, text and line
// lengths and their bins, against counts made here from the strings written to disk (std::map
// over characters, lengths by std::string::size of ASCII text).
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>

#include "text_file.h"
#include "data/dataset.h"
#include "data/text_statistics.h"
#include "data/tokenizer.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using test::writeText;

const std::vector<std::string> kJokes = {"Why did the chicken cross?", "To get\nto the other side.", "Knock knock."};
const std::vector<std::string> kFood = {"Eat your greens, dear, every single one of them.", "Pie."};

// A folder of two fortune files (texts between % lines), opened as format text_folder.
DatasetFiles openTopics(const QString& dir, std::int64_t context)
{
    auto fortunes = [](const std::vector<std::string>& texts) {
        std::string s;
        for (const auto& t : texts) s += t + "\n%\n";
        return s;
    };
    writeText(dir.toStdString() + "/jokes", fortunes(kJokes));
    writeText(dir.toStdString() + "/food", fortunes(kFood));
    DatasetSpec spec;
    spec.format = "text_folder";
    spec.path = dir.toStdString();
    spec.separator = "%";
    spec.classes = {"jokes", "food"};
    spec.context = context;
    return openDatasetFiles(spec, {});
}

std::vector<std::int64_t> allIndices(const Dataset& d)
{
    std::vector<std::int64_t> all(std::size_t(d.size()));
    std::iota(all.begin(), all.end(), 0);
    return all;
}

}  // namespace

class TstTextStatistics : public QObject {
    Q_OBJECT
private slots:
    void countsMatchTheCharactersWritten()
    {
        QTemporaryDir dir;
        const DatasetFiles files = openTopics(dir.path(), 64);  // longer than every text: nothing cut
        const Dataset& data = *files.train;
        const Tokenizer* tokenizer = textTokenizer(data);
        QVERIFY(tokenizer);
        QCOMPARE(tokenizer->paddingId(), 0);
        std::map<std::string, std::int64_t> expected;
        std::int64_t characters = 0;
        for (const auto* texts : {&kJokes, &kFood})
            for (const std::string& t : *texts)
                for (char c : t) ++expected[std::string(1, c)], ++characters;
        const TokenCounts counts = countTokens(data, allIndices(data), tokenizer->size(), tokenizer->paddingId());
        QCOMPARE(counts.samples, 5);
        QCOMPARE(counts.tokens, characters);
        QCOMPARE(counts.perId[0], 0);  // padding is never counted
        for (std::int64_t id = 1; id < tokenizer->size(); ++id)
            QCOMPARE(counts.perId[std::size_t(id)], expected[tokenizer->piece(id)]);
        // Sample 1 is the second joke: its tokens decode to it, padding left out.
        QCOMPARE(tokenizer->decode(sampleTokens(data, 1, tokenizer->paddingId())), kJokes[1]);
    }

    void lengthsAreBeforeTheCut()
    {
        QTemporaryDir dir;
        const DatasetFiles files = openTopics(dir.path(), 16);
        const Dataset& data = *files.train;
        const auto lengths = textLengths(data, allIndices(data));
        std::vector<std::int64_t> expected;
        for (const auto* texts : {&kJokes, &kFood})
            for (const std::string& t : *texts) expected.push_back(std::int64_t(t.size()));
        QCOMPARE(lengths, expected);
        // What the model sees is cut to 16 tokens: counts are of the first 16 characters.
        const TokenCounts counts = countTokens(data, std::vector<std::int64_t>{3}, textTokenizer(data)->size(), 0);
        QCOMPARE(counts.tokens, 16);
        QCOMPARE(textTokenizer(data)->decode(sampleTokens(data, 3, 0)), kFood[0].substr(0, 16));
    }

    void linesOfALanguageModelsBlocks()
    {
        QTemporaryDir dir;
        const std::string text = "ab\ncdefg\n\nhij\nklmnopqrstu\nvw\nxyz\n";
        writeText(dir.path().toStdString() + "/a.txt", text);
        DatasetSpec spec;
        spec.format = "text";
        spec.path = dir.path().toStdString();
        spec.context = 4;
        const DatasetFiles files = openDatasetFiles(spec, {});
        const Dataset& data = *files.train;
        const std::int64_t blocks = data.size();
        QVERIFY(blocks >= 6);
        // The lines of the text the blocks cover, split at '\n' (an empty line has length 0).
        auto linesOf = [](const std::string& s) {
            std::vector<std::int64_t> out;
            std::int64_t n = 0;
            for (char c : s) {
                if (c == '\n') out.push_back(std::exchange(n, 0));
                else ++n;
            }
            if (n > 0) out.push_back(n);
            return out;
        };
        QCOMPARE(textLengths(data, allIndices(data)), linesOf(text.substr(0, std::size_t(blocks * 4))));
        // Blocks 0 and 2 are not neighbours: the line breaks between them.
        std::vector<std::int64_t> expected = linesOf(text.substr(0, 4));
        for (std::int64_t n : linesOf(text.substr(8, 4))) expected.push_back(n);
        QCOMPARE(textLengths(data, std::vector<std::int64_t>{0, 2}), expected);
        // A stop asked for at the first progress call ends the count.
        const TokenCounts stopped = countTokens(data, allIndices(data), textTokenizer(data)->size(), -1,
                                                [](std::int64_t) { return false; });
        QVERIFY(stopped.stopped);
        QCOMPARE(stopped.samples, 0);
    }

    void binsAndCoverage()
    {
        QCOMPARE(lengthBinWidth(128, 16), 8);
        QCOMPARE(lengthBinWidth(130, 16), 10);
        QCOMPARE(lengthBinWidth(7, 16), 1);
        QCOMPARE(lengthBinWidth(900, 16), 100);
        const std::vector<std::int64_t> lengths = {0, 1, 8, 9, 16, 17, 20, 21, 500};
        const LengthBins bins = binLengths(lengths, 20, 8);  // (0, 8], (8, 16], (16, 20]
        QCOMPARE(bins.counts, (std::vector<std::int64_t>{3, 2, 2}));
        QCOMPARE(bins.over, 2);
        QCOMPARE(bins.first(1), 9);
        QCOMPARE(bins.last(1), 16);
        QCOMPARE(bins.last(2), 20);
        // 50 + 30 of 100 tokens: two ids make 80%, three make 90%.
        QCOMPARE(idsCovering({10, 50, 0, 30, 10}, 0.8), 2);
        QCOMPARE(idsCovering({10, 50, 0, 30, 10}, 0.9), 3);
        QCOMPARE(idsCovering({0, 0}, 0.9), 0);
    }
};

QTEST_GUILESS_MAIN(TstTextStatistics)
#include "tst_text_statistics.moc"
