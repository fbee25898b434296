// The bpe and unigram tokenizers (SentencePiece, data/sentencepiece_model.h): learned from a
// piece of the installed fortunes, they encode held-out text exactly as Python's SentencePiece
// does with the same model bytes (read back from our serialized form), decode to the text,
// survive serialize/parse, learn the same model twice; a text dataset keeps its validation
// text from the tokenizer; and bad input (a vocabulary too large or too small or missing, a
// damaged model, a character the model does not know) says what to change.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "data/dataset.h"
#include "data/subset_dataset.h"
#include "data/text_dataset.h"
#include "data/tokenizer.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

const std::string kFortunes = "/usr/share/games/fortunes/computers";  // the fortunes package (CI installs it)

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<std::string_view> lines(std::string_view text)
{
    std::vector<std::string_view> out;
    for (std::size_t from = 0; from < text.size();) {
        const std::size_t eol = std::min(text.find('\n', from), text.size());
        if (eol > from) out.push_back(text.substr(from, eol - from));
        from = eol + 1;
    }
    return out;
}

// `bytes` of `text` from `at`, moved to whole lines (so to whole characters too).
std::string wholeLines(const std::string& text, std::size_t at, std::size_t bytes)
{
    const std::size_t from = at == 0 ? 0 : text.find('\n', at) + 1;
    return text.substr(from, text.rfind('\n', from + bytes) + 1 - from);
}

template <class F> std::string dataError(F&& make)
{
    try {
        make();
    } catch (const DataError& e) {
        return e.what();
    }
    return "no DataError";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

class TstSentencePieceTokenizer : public QObject {
    Q_OBJECT
    std::string train_, heldOut_;

private slots:
    void initTestCase()
    {
        const std::string all = readFile(kFortunes);
        QVERIFY2(all.size() > 150'000, "the fortunes package is not installed (apt-get install fortunes)");
        train_ = wholeLines(all, 0, 24'000);
        heldOut_ = wholeLines(all, 120'000, 4'000);
    }

    // Python's SentencePiece reads our serialized tokenizer (its kind line, the model in
    // base64), encodes the held-out text to the same ids and decodes them to the same text.
    void encodesAsPythonSentencePiece_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("bpe") << "bpe";
        QTest::newRow("unigram") << "unigram";
    }
    void encodesAsPythonSentencePiece()
    {
        QFETCH(QString, kind);
        const Tokenizer t = Tokenizer::learn(kind.toStdString(), lines(train_), 400, train_ + heldOut_);
        QCOMPARE(t.size(), std::int64_t(400));
        const std::vector<std::int64_t> ids = t.encode(heldOut_);
        QVERIFY2(ids.size() * 3 < heldOut_.size() * 2, std::to_string(ids.size()).c_str());  // pieces longer than characters
        QCOMPARE(t.decode(ids), heldOut_);
        QCOMPARE(t.decode(t.encode(train_)), train_);
        std::string oneByOne;  // generation's way: a token at a time
        for (std::int64_t id : ids) oneByOne += t.decode(std::vector<std::int64_t>{id});
        QCOMPARE(oneByOne, heldOut_);

        QTemporaryDir dir;
        const QString model = dir.filePath("tokenizer.txt"), text = dir.filePath("held_out.txt");
        writeText(model.toStdString(), t.serialize());
        writeText(text.toStdString(), heldOut_);
        QProcess py;
        py.start("/usr/bin/python3", {"-c",
                                      "import sys, base64, sentencepiece as spm\n"
                                      "kind, model = open(sys.argv[1], 'rb').read().split(b'\\n', 1)\n"
                                      "assert kind.decode() == sys.argv[3], kind\n"
                                      "sp = spm.SentencePieceProcessor(model_proto=base64.b64decode(model, validate=True))\n"
                                      "text = open(sys.argv[2], encoding='utf-8', newline='').read()\n"
                                      "ids = sp.encode(text)\n"
                                      "assert sp.decode(ids) == text\n"
                                      "print(sp.get_piece_size(), *ids)\n",
                                      model, text, kind});
        QVERIFY(py.waitForFinished(60000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        std::istringstream out(py.readAllStandardOutput().toStdString());
        std::int64_t size = 0;
        out >> size;
        QCOMPARE(size, t.size());
        std::vector<std::int64_t> expected;
        for (std::int64_t id; out >> id;) expected.push_back(id);
        QCOMPARE(ids, expected);
    }

    void serializeParseAndDeterminism()
    {
        const Tokenizer t = Tokenizer::learn("unigram", lines(train_), 300, train_);
        const Tokenizer back = Tokenizer::parse(t.serialize());
        QCOMPARE(back.kind(), std::string("unigram"));
        QCOMPARE(back.size(), t.size());
        QCOMPARE(back.serialize(), t.serialize());
        for (std::int64_t id = 0; id < t.size(); ++id) QCOMPARE(back.piece(id), t.piece(id));
        QCOMPARE(back.encode(train_), t.encode(train_));
        QVERIFY(t.serialize().rfind("unigram\n", 0) == 0);
        QCOMPARE(Tokenizer::learn("unigram", lines(train_), 300, train_).serialize(), t.serialize());  // the same again
        QCOMPARE(t.piece(0), std::string("\u2047"));  // the unknown piece
        QCOMPARE(t.piece(1), std::string("\n"));
        QCOMPARE(t.piece(2), std::string("\t"));

        std::string damaged = t.serialize();
        damaged[damaged.size() / 2] = '!';
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tokenizer::parse(damaged));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tokenizer::parse("bpe\nAAAA"));  // base64, not a model
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tokenizer::parse("bpe padded\n" + t.serialize().substr(8)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tokenizer::build("bpe", train_));  // learned, not built
    }

    // A prompt with a character outside the vocabulary: named, with its byte offset.
    void unknownCharacter()
    {
        const Tokenizer t = Tokenizer::learn("bpe", lines(train_), 300, train_);
        try {
            t.encode("the computer \xE2\x98\x83");  // a snowman: not in the text
            QFAIL("no TokenizeError");
        } catch (const TokenizeError& e) {
            QCOMPARE(e.offset(), std::int64_t(13));
            QVERIFY2(contains(e.what(), "U+2603") && contains(e.what(), "byte 13"), e.what());
        }
    }

    // 100 chunks of one made-up word each, a chunk per stretch of the text: the tokenizer
    // learns as many pieces as the text can give, and the words of the validation stretches
    // are none of them, while those of the training stretches are.
    void validationTextNotLearned()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("words.txt").toStdString();
        std::string text;
        const auto word = [](int k) { return std::string("zq") + char('a' + k / 26) + char('a' + k % 26) + "vk"; };
        for (int k = 0; k < 100; ++k) {
            std::string chunk;
            for (int i = 0; i < 30; ++i) chunk += word(k) + (i == 29 ? "\n" : " ");
            text += chunk;  // 210 bytes: chunk k is stretch k exactly
        }
        writeText(path, text);
        const TextTokenizing opts{.tokenizer = "bpe", .vocabSize = 5000, .validationFraction = 0.2, .splitSeed = 7};
        const std::string tooMany = dataError([&] { TextDataset(path, opts, 8); });
        const std::string prefix = "at most about ";
        QVERIFY2(contains(tooMany, "dataset.vocab_size: 5000 is more than this text can give") && contains(tooMany, "lower it"),
                 tooMany.c_str());
        TextTokenizing most = opts;
        most.vocabSize = std::stoll(tooMany.substr(tooMany.find(prefix) + prefix.size()));
        const TextDataset d(path, most, 8);
        QCOMPARE(d.tokenizer().size(), most.vocabSize);
        std::set<std::string> pieces;
        for (std::int64_t id = 0; id < d.tokenizer().size(); ++id) pieces.insert(d.tokenizer().piece(id));
        std::set<std::int64_t> validation;
        for (std::int64_t i : splitGroups(d.stretches(), 0.2, 7).validation) validation.insert(d.stretches()[std::size_t(i)]);
        // Fewer than 20 of the 100: unlearned words take more tokens, so more blocks each.
        QVERIFY2(validation.size() >= 5 && validation.size() <= 20, std::to_string(validation.size()).c_str());
        int learned = 0;
        for (int k = 0; k < 100; ++k) {
            const bool piece = pieces.count(" " + word(k)) > 0;
            if (validation.count(k)) QVERIFY2(!piece, word(k).c_str());
            learned += piece;
        }
        QVERIFY2(learned >= 70, std::to_string(learned).c_str());  // of the 80 or more training words
        QCOMPARE(d.tokenizer().decode(std::vector<std::int64_t>(d.tokenizer().encode(text))), text);
    }

    void badVocabularySizes()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.txt").toStdString();
        writeText(path, train_);
        const std::int64_t smallest = Tokenizer::smallestVocabulary(train_);
        const std::string missing = dataError([&] { TextDataset(path, TextTokenizing{.tokenizer = "unigram"}, 16); });
        QVERIFY2(contains(missing, "dataset.vocab_size: the unigram tokenizer needs a vocabulary size, at least " +
                                       std::to_string(smallest)),
                 missing.c_str());
        const std::string few = dataError([&] { TextDataset(path, TextTokenizing{.tokenizer = "bpe", .vocabSize = 20}, 16); });
        QVERIFY2(contains(few, "dataset.vocab_size: 20 is fewer") && contains(few, "at least " + std::to_string(smallest)), few.c_str());
        // The smallest is enough: a piece per character.
        QCOMPARE(TextDataset(path, TextTokenizing{.tokenizer = "bpe", .vocabSize = smallest}, 16).tokenizer().size(), smallest);

        const std::string tiny = dir.filePath("tiny.txt").toStdString();
        writeText(tiny, "to be or not to be\n");
        const std::string tooMany = dataError([&] { TextDataset(tiny, TextTokenizing{.tokenizer = "bpe", .vocabSize = 512}, 2); });
        QVERIFY2(contains(tooMany, "dataset.vocab_size: 512 is more than this text can give (at most about"), tooMany.c_str());
    }

    // Language modelling only: a text_folder dataset is padded, and its split is by text.
    void textFolderRefusesLearnedTokenizers()
    {
        QTemporaryDir dir;
        writeText(dir.filePath("a.txt").toStdString(), "one\n");
        writeText(dir.filePath("b.txt").toStdString(), "two\n");
        DatasetSpec spec;
        spec.format = "text_folder";
        spec.path = dir.path().toStdString();
        spec.tokenizer = "bpe";
        spec.vocabSize = 100;
        const std::string why = dataError([&] { openDatasetFiles(spec, ""); });
        QVERIFY2(contains(why, "dataset.tokenizer: bpe") && contains(why, "characters or bytes"), why.c_str());
    }
};

QTEST_GUILESS_MAIN(TstSentencePieceTokenizer)
#include "tst_sentencepiece_tokenizer.moc"
