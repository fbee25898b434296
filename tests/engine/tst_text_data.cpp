// Text data for language models: the tokenizers (characters, bytes) against Python's own UTF-8
// handling, the text dataset's blocks and next-token targets, its split by stretches, the
// loader's i64 batches, and bad input (not UTF-8, empty, a context longer than the text)
// named with the file and byte offset. Also the installed fortunes, read whole.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

#include "text_file.h"
#include "data/dataset.h"
#include "data/loader.h"
#include "data/text_dataset.h"
#include "data/tokenizer.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using test::writeText;

// The DataError's message when `make` throws one; fails the test otherwise.
template <class F>
DataError dataError(F&& make)
{
    try {
        make();
    } catch (const DataError& e) {
        return e;
    }
    qFatal("no DataError");
}

}  // namespace

class TstTextData : public QObject {
    Q_OBJECT
private slots:
    void utf8Validation()
    {
        QCOMPARE(invalidUtf8Offset("plain ascii"), std::int64_t(-1));
        QCOMPARE(invalidUtf8Offset("na\xC3\xAFve \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80"), std::int64_t(-1));  // ï, 中文, 😀
        QCOMPARE(invalidUtf8Offset("abc\xFF"), std::int64_t(3));        // not a lead byte
        QCOMPARE(invalidUtf8Offset("ab\xC3"), std::int64_t(2));         // cut short
        QCOMPARE(invalidUtf8Offset("a\xC0\xAF"), std::int64_t(1));      // overlong '/'
        QCOMPARE(invalidUtf8Offset("x\xED\xA0\x80"), std::int64_t(1));  // a surrogate
        QCOMPARE(invalidUtf8Offset("\xF4\x90\x80\x80"), std::int64_t(0));  // past U+10FFFF
        QCOMPARE(invalidUtf8Offset("ok\xE4\xB8"), std::int64_t(2));
    }

    // Python: sorted(set("hello, wörld")) gives the vocabulary; the ids index it.
    void charactersRoundTrip()
    {
        const std::string text = "hello, w\xC3\xB6rld";
        const Tokenizer t = Tokenizer::build("characters", text);
        QCOMPARE(t.size(), std::int64_t(10));  // ' ', ',', 'd', 'e', 'h', 'l', 'o', 'r', 'w', 'ö'
        QCOMPARE(t.piece(0), std::string(" "));
        QCOMPARE(t.piece(9), std::string("\xC3\xB6"));
        const std::vector<std::int64_t> ids = t.encode(text);
        QCOMPARE(ids, (std::vector<std::int64_t>{4, 3, 5, 5, 6, 1, 0, 8, 9, 7, 5, 2}));
        QCOMPARE(t.decode(ids), text);
        const Tokenizer back = Tokenizer::parse(t.serialize());
        QCOMPARE(back.serialize(), t.serialize());
        QCOMPARE(back.encode("world"), t.encode("world"));
    }

    void charactersRefuseUnknownText()
    {
        const Tokenizer t = Tokenizer::build("characters", "abc");
        try {
            t.encode("cab\xE4\xB8\xAD");
            QFAIL("no error");
        } catch (const TokenizeError& e) {
            QCOMPARE(e.offset(), std::int64_t(3));
            QVERIFY2(std::string(e.what()).find("U+4E2D") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("vocabulary of 3 characters") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, t.decode(std::vector<std::int64_t>{0, 3}));
    }

    void bytesEncodeAnything()
    {
        const Tokenizer t = Tokenizer::build("bytes", "");
        QCOMPARE(t.size(), std::int64_t(256));
        const std::string text = "\xE4\xB8\xAD!";
        QCOMPARE(t.encode(text), (std::vector<std::int64_t>{0xE4, 0xB8, 0xAD, '!'}));
        QCOMPARE(t.decode(t.encode(text)), text);
        QCOMPARE(Tokenizer::parse("bytes\n").size(), std::int64_t(256));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tokenizer::parse("wordpiece\nabc"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tokenizer::parse("characters\nba"));  // not sorted
    }

    // Blocks of `context` tokens; the targets are the next tokens. "abcdefghij" with context 3:
    // blocks abc, def, ghi (j is only a target).
    void blocksAndTargets()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("t.txt").toStdString();
        writeText(file, "abcdefghij");
        const TextDataset d(file, "characters", 3);
        QCOMPARE(d.size(), std::int64_t(3));
        QCOMPARE(d.inputDType(), DType::I64);
        QCOMPARE(d.targetShape(), Shape{3});
        float in[3];
        std::int64_t targets[3];
        QCOMPARE(d.get(1, in), std::int64_t(6));  // the block's last target: 'g'
        QCOMPARE((std::vector<float>(in, in + 3)), (std::vector<float>{3, 4, 5}));
        d.getTargets(2, targets);
        QCOMPARE((std::vector<std::int64_t>(targets, targets + 3)), (std::vector<std::int64_t>{7, 8, 9}));
        QCOMPARE(d.tokenizer().decode(std::vector<std::int64_t>{7, 8, 9}), std::string("hij"));
    }

    void folderReadsTextFilesInOrder()
    {
        QTemporaryDir dir;
        const std::string root = dir.filePath("corpus").toStdString();
        writeText(root + "/b", "bbbb\n");
        writeText(root + "/a.txt", "aaaa\n");
        writeText(root + "/a.dat", std::string("\x00\xFF\x01", 3));  // fortune's index: skipped
        fs::create_symlink(root + "/b", root + "/b.u8");                // a link: skipped
        const TextDataset d(root, "characters", 4);
        QCOMPARE(d.files().size(), std::size_t(2));
        QCOMPARE(fs::path(d.files()[0]).filename().string(), std::string("a.txt"));
        QCOMPARE(d.tokenCount(), std::int64_t(10));
        // a.txt is tokens 0-4, b tokens 5-9. Block 1 of context 4 starts at token 4, the newline
        // ending a.txt's line 1.
        QCOMPARE(QString::fromStdString(d.sampleSource(1)).endsWith("a.txt:1"), true);
        const TextDataset two(root, "characters", 3);  // block 2 starts at token 6: b's line 1
        QVERIFY2(two.sampleSource(2).ends_with("/b:1"), two.sampleSource(2).c_str());
    }

    void badTextIsNamed()
    {
        QTemporaryDir dir;
        const std::string latin1 = dir.filePath("latin1.txt").toStdString();
        writeText(latin1, "caf\xE9 au lait");
        const DataError e = dataError([&] { TextDataset(latin1, "characters", 2); });
        QCOMPARE(e.file(), latin1);
        QCOMPARE(e.position(), std::int64_t(3));
        QVERIFY2(std::string(e.what()).find("byte 3") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("0xE9") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("tokenizer: bytes") != std::string::npos, e.what());

        const std::string empty = dir.filePath("empty.txt").toStdString();
        writeText(empty, "");
        QVERIFY(std::string(dataError([&] { TextDataset(empty, "characters", 2); }).what()).find("empty") != std::string::npos);

        const std::string shortText = dir.filePath("short.txt").toStdString();
        writeText(shortText, "abcd");
        const std::string why = dataError([&] { TextDataset(shortText, "characters", 4); }).what();
        QVERIFY2(why.find("4 tokens") != std::string::npos && why.find("context 4") != std::string::npos, why.c_str());

        const std::string noFiles = dir.filePath("nothing").toStdString();
        fs::create_directories(noFiles);
        QVERIFY(std::string(dataError([&] { TextDataset(noFiles, "characters", 2); }).what()).find("no text files") !=
                std::string::npos);
    }

    // openDataset: validation is whole stretches of the text, never blocks interleaved with
    // training ones; the batches are i64 tokens and [n, context] targets.
    void splitAndBatches()
    {
        QTemporaryDir dir;
        std::string text;
        for (int i = 0; i < 4000; ++i) text += char('a' + (i * 7) % 26);
        writeText(dir.filePath("t.txt").toStdString(), text);
        DatasetSpec spec;
        spec.format = "text";
        spec.path = dir.filePath("t.txt").toStdString();
        spec.context = 8;
        spec.validationFraction = 0.1;
        spec.numWorkers = 0;
        const DatasetSplits s = openDataset(spec, "", "");
        QCOMPARE(s.train->size() + s.validation->size(), std::int64_t(3999 / 8));
        QCOMPARE(Tokenizer::parse(s.tokenizer).size(), std::int64_t(26));
        // 100 stretches of about 5 blocks: the validation indices come in runs.
        std::int64_t runs = 0;
        for (std::size_t i = 0; i < s.validationFileIndex.size(); ++i)
            runs += i == 0 || s.validationFileIndex[i] != s.validationFileIndex[i - 1] + 1;
        QVERIFY2(runs <= 10 && runs >= 2, std::to_string(runs).c_str());

        LoaderOptions opt;
        opt.batchSize = 4;
        opt.shuffle = false;
        Loader loader(s.train, spec, s.trainStatistics, opt);
        loader.startEpoch(0);
        Batch b;
        QVERIFY(loader.next(b));
        QCOMPARE(b.inputs.dtype(), DType::I64);
        QCOMPARE(b.inputs.shape(), (Shape{4, 8}));
        QCOMPARE(b.labels.shape(), (Shape{4, 8}));
        const std::int64_t* x = b.inputs.data<std::int64_t>();
        const std::int64_t* y = b.labels.data<std::int64_t>();
        for (int i = 0; i < 4; ++i)
            for (int t = 0; t + 1 < 8; ++t) QCOMPARE(y[i * 8 + t], x[i * 8 + t + 1]);  // the next token
        QCOMPARE(x[0], std::int64_t(0));  // 'a'
        QCOMPARE(x[1], std::int64_t(7));  // 'h'
    }

    // The installed fortunes (Debian's fortunes package): 2.5 MB of UTF-8 in 43 category files.
    void fortunesReadWhole()
    {
        const std::string dir = "/usr/share/games/fortunes";
        if (!fs::is_directory(dir)) QSKIP("fortunes is not installed (apt-get install fortunes)");
        const TextDataset d(dir, "characters", 128);
        QVERIFY2(d.files().size() >= 40, std::to_string(d.files().size()).c_str());
        QVERIFY2(d.tokenCount() > 2'000'000, std::to_string(d.tokenCount()).c_str());
        QVERIFY2(d.tokenizer().size() > 90 && d.tokenizer().size() < 200, std::to_string(d.tokenizer().size()).c_str());
        QCOMPARE(d.size(), (d.tokenCount() - 1) / 128);
    }
};

QTEST_GUILESS_MAIN(TstTextData)
#include "tst_text_data.moc"
