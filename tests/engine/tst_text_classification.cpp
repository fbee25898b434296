// Text classification data (format text_folder) and the padding mask: the padded tokenizer
// (id 0 pads, the language model's ids unchanged), both folder layouts (a sub-folder per class,
// a file per class split at separator lines), padding and cutting to the context, the notes,
// openDataset's split and the loader's i64 batches with one label each, bad input named with
// its file (and byte offset), and TokenMask against a direct computation. The expected ids are
// worked out here from sorted character sets, as Python's sorted(set(text)) gives them.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "text_file.h"
#include "data/dataset.h"
#include "data/loader.h"
#include "data/text_classification_dataset.h"
#include "data/tokenizer.h"
#include "gradcheck.h"
#include "ops/op.h"
#include "ops/registry.h"

using namespace ts;
using namespace ts::test;
namespace fs = std::filesystem;

namespace {

using Ids = std::vector<std::int64_t>;

using test::writeText;

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

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Two classes as folders: neg/{a.txt, b}, pos/c.txt; a .dat file is not a text.
std::string classFolders(const QTemporaryDir& dir)
{
    const std::string root = dir.filePath("reviews").toStdString();
    writeText(root + "/neg/a.txt", "bad\n");
    writeText(root + "/neg/b", "awful");
    writeText(root + "/pos/c.txt", "good\n\n");
    writeText(root + "/pos/index.dat", "\xFF\xFE");
    return root;
}

// Two classes as files of texts separated by "%" lines (fortune's format), with fortune's
// .dat index and .u8 link beside them.
std::string separatorFiles(const QTemporaryDir& dir)
{
    const std::string root = dir.filePath("fortunes").toStdString();
    writeText(root + "/alpha", "one\n%\ntwo\nlines\n%\n \n%\nthree\n%\n");
    writeText(root + "/beta", "x\r\n%\r\ny");
    writeText(root + "/alpha.dat", "\x00\x01\xFF");
    fs::create_symlink("beta", root + "/beta.u8");
    return root;
}

Ids row(const float* x, std::int64_t n)
{
    Ids ids;
    for (std::int64_t i = 0; i < n; ++i) ids.push_back(std::int64_t(x[i]));
    return ids;
}

}  // namespace

class TstTextClassification : public QObject {
    Q_OBJECT
private slots:
    // sorted(set("hello, wörld")) = ' ', ',', 'd', 'e', 'h', 'l', 'o', 'r', 'w', 'ö': the
    // language model's ids are their indices; padded, each is one more and 0 pads.
    void paddedTokenizerShiftsIdsByOne()
    {
        const std::string text = "hello, w\xC3\xB6rld";
        const Ids plain{4, 3, 5, 5, 6, 1, 0, 8, 9, 7, 5, 2};
        const Tokenizer lm = Tokenizer::build("characters", text);
        QCOMPARE(lm.encode(text), plain);
        QCOMPARE(lm.paddingId(), std::int64_t(-1));
        QVERIFY(!contains(lm.serialize(), "padded"));

        const Tokenizer t = Tokenizer::build("characters", text, true);
        QVERIFY(t.padded());
        QCOMPARE(t.paddingId(), std::int64_t(0));
        QCOMPARE(t.size(), std::int64_t(11));
        QCOMPARE(t.piece(0), std::string());
        QCOMPARE(t.piece(10), std::string("\xC3\xB6"));
        Ids shifted;
        for (std::int64_t id : plain) shifted.push_back(id + 1);
        QCOMPARE(t.encode(text), shifted);
        Ids withPadding = shifted;
        withPadding.insert(withPadding.end(), {0, 0, 0});
        QCOMPARE(t.decode(withPadding), text);  // padding decodes to nothing

        QVERIFY(t.serialize().starts_with("characters padded\n"));
        const Tokenizer back = Tokenizer::parse(t.serialize());
        QVERIFY(back.padded());
        QCOMPARE(back.encode(text), shifted);
        QCOMPARE(back.serialize(), t.serialize());

        const Tokenizer bytes = Tokenizer::build("bytes", "", true);
        QCOMPARE(bytes.size(), std::int64_t(257));
        QCOMPARE(bytes.encode("A\xFF"), (Ids{'A' + 1, 256}));
        QCOMPARE(bytes.decode(Ids{0, 'A' + 1, 256}), std::string("A\xFF"));
        QCOMPARE(Tokenizer::parse("bytes padded\n").encode("A"), (Ids{'A' + 1}));
        QCOMPARE(Tokenizer::parse("bytes\n").encode("A"), (Ids{'A'}));
    }

    void classFoldersHoldOneTextPerFile()
    {
        QTemporaryDir dir;
        const std::string root = classFolders(dir);
        const TextSamples s = readTextFolder(root, {}, "");
        QCOMPARE(s.classNames, (std::vector<std::string>{"neg", "pos"}));
        QCOMPARE(s.texts, (std::vector<std::string>{"bad", "awful", "good"}));
        QCOMPARE(s.labels, (Ids{0, 0, 1}));
        QCOMPARE(s.sources.at(1), root + "/neg/b");
        QCOMPARE(s.files.size(), std::size_t(3));  // not index.dat

        // sorted(set("badawfulgood")) = a b d f g l o u w -> ids 1..9; 0 pads to 4 tokens.
        const TextClassificationDataset d(s, "characters", 4, "reviews");
        QCOMPARE(d.size(), std::int64_t(3));
        QCOMPARE(d.sampleShape(), (Shape{4}));
        QCOMPARE(d.inputDType(), DType::I64);
        QCOMPARE(d.targetShape(), Shape{});
        QCOMPARE(d.numClasses(), std::int64_t(2));
        QCOMPARE(d.tokenizer().size(), std::int64_t(10));
        float x[4];
        QCOMPARE(d.get(0, x), std::int64_t(0));
        QCOMPARE(row(x, 4), (Ids{2, 1, 3, 0}));  // "bad" + padding
        QCOMPARE(d.get(1, x), std::int64_t(0));
        QCOMPARE(row(x, 4), (Ids{1, 9, 4, 8}));  // "awful" cut to "awfu"
        QCOMPARE(d.get(2, x), std::int64_t(1));
        QCOMPARE(row(x, 4), (Ids{5, 7, 7, 3}));  // "good": exactly 4
        QCOMPARE(d.cutCount(), std::int64_t(1));
        QCOMPARE(d.longest(), std::int64_t(5));
        const std::vector<Message> notes = textClassificationNotes(d);
        QCOMPARE(notes.size(), std::size_t(1));
        QCOMPARE(notes[0].id, std::string("data.texts_cut"));
        QCOMPARE(notes[0].args, (std::vector<std::string>{"1", "3", "4", "5"}));
        QVERIFY2(contains(notes[0].text, "1 of 3 texts are longer than 4 tokens (the longest: 5)"), notes[0].text.c_str());
        QVERIFY(textClassificationNotes(TextClassificationDataset(s, "characters", 5, "reviews")).empty());
    }

    void separatorFilesAreClasses()
    {
        QTemporaryDir dir;
        const std::string root = separatorFiles(dir);
        const TextSamples s = readTextFolder(root, {}, "%");
        QCOMPARE(s.classNames, (std::vector<std::string>{"alpha", "beta"}));  // no .dat, no link
        QCOMPARE(s.texts, (std::vector<std::string>{"one", "two\nlines", "three", "x", "y"}));  // the blank one skipped
        QCOMPARE(s.labels, (Ids{0, 0, 0, 1, 1}));
        QCOMPARE(s.sources, (std::vector<std::string>{root + "/alpha:1", root + "/alpha:3", root + "/alpha:8",
                                                      root + "/beta:1", root + "/beta:3"}));

        // classes picks and orders: beta is class 0 here.
        const TextSamples picked = readTextFolder(root, {"beta", "alpha"}, "%");
        QCOMPARE(picked.classNames, (std::vector<std::string>{"beta", "alpha"}));
        QCOMPARE(picked.labels, (Ids{0, 0, 1, 1, 1}));
        QCOMPARE(readTextFolder(root, {"beta"}, "%").texts, (std::vector<std::string>{"x", "y"}));
    }

    // openDataset: the seeded split, the training split's class counts, i64 batches with one label each.
    void openDatasetSplitsAndLoads()
    {
        QTemporaryDir dir;
        const std::string root = dir.filePath("topics").toStdString();
        std::string a, b;
        for (int i = 0; i < 30; ++i) a += "apple pie " + std::to_string(i) + "\n%\n", b += "rocket " + std::to_string(i) + "\n%\n";
        writeText(root + "/food", a);
        writeText(root + "/space", b);
        DatasetSpec spec;
        spec.format = "text_folder";
        spec.path = root;
        spec.separator = "%";
        spec.context = 12;
        spec.validationFraction = 0.2;
        spec.numWorkers = 0;
        const DatasetSplits s = openDataset(spec, "", "");
        QCOMPARE(s.train->size() + s.validation->size(), std::int64_t(60));
        QCOMPARE(s.validation->size(), std::int64_t(12));
        QCOMPARE(s.train->classNames(), (std::vector<std::string>{"food", "space"}));
        QVERIFY(s.notes.empty());  // the longest, "apple pie 29", is 12 characters
        QVERIFY(contains(s.fingerprint, "food "));
        QCOMPARE(openDataset(spec, "", "").validationFileIndex, s.validationFileIndex);  // seeded

        LoaderOptions opt;
        opt.batchSize = 5;
        opt.shuffle = false;
        Loader loader(s.train, spec, s.trainStatistics, opt);
        loader.startEpoch(0);
        Batch batch;
        QVERIFY(loader.next(batch));
        QCOMPARE(batch.inputs.dtype(), DType::I64);
        QCOMPARE(batch.labels.shape(), (Shape{5}));
        // Cut after the batch's longest text (tst_text_batches); the cut part was padding.
        const std::int64_t longest = batch.inputs.shape()[1];
        QCOMPARE(batch.inputs.shape(), (Shape{5, longest}));
        QCOMPARE(batch.paddingId, std::int64_t(0));
        std::vector<float> x(12);
        for (std::int64_t i = 0; i < 5; ++i) {
            QCOMPARE(batch.labels.data<std::int64_t>()[i], s.train->get(i, x.data()));
            for (std::int64_t t = 0; t < 12; ++t)
                QCOMPARE(t < longest ? batch.inputs.data<std::int64_t>()[i * longest + t] : std::int64_t(0), std::int64_t(x[t]));
        }

        spec.context = 6;  // "apple pie 10".."29" and "rocket 10".."29" are longer
        const DatasetSplits cut = openDataset(spec, "", "");
        QCOMPARE(cut.notes.size(), std::size_t(1));
        QCOMPARE(cut.notes[0].args.at(0), std::string("60"));  // every text has more than 6 characters
    }

    void badInputIsNamed()
    {
        QTemporaryDir dir;
        const std::string root = separatorFiles(dir);
        const std::string missing = dataError([&] { readTextFolder(root, {"alpha", "gamma"}, "%"); }).what();
        QVERIFY2(contains(missing, "'gamma'") && contains(missing, "its files are: alpha, beta"), missing.c_str());
        const std::string twice = dataError([&] { readTextFolder(root, {"beta", "beta"}, "%"); }).what();
        QVERIFY2(contains(twice, "'beta' twice"), twice.c_str());
        const std::string noSeparator = dataError([&] { readTextFolder(root, {}, ""); }).what();
        QVERIFY2(contains(noSeparator, "dataset.separator"), noSeparator.c_str());

        const std::string folders = classFolders(dir);
        const std::string missingFolder = dataError([&] { readTextFolder(folders, {"neutral"}, ""); }).what();
        QVERIFY2(contains(missingFolder, "its class folders are: neg, pos"), missingFolder.c_str());
        fs::create_directories(folders + "/empty");
        writeText(folders + "/blank/only.txt", " \n\n");
        for (const char* name : {"empty", "blank"}) {
            const std::string empty = dataError([&] { readTextFolder(folders, {}, ""); }).what();
            QVERIFY2(contains(empty, "class 'blank'") || contains(empty, "class 'empty'"), empty.c_str());
            QVERIFY2(contains(empty, "holds no text"), empty.c_str());
            fs::remove_all(folders + "/" + name);
        }
        QCOMPARE(readTextFolder(folders, {}, "").classNames.size(), std::size_t(2));

        // Not UTF-8: the file and the byte offset of the first bad byte ("ok\n%\nbad " is 9 bytes).
        const std::string latin = dir.filePath("latin").toStdString();
        writeText(latin + "/one", "ok\n%\nbad \xFF\n");
        const DataError bad = dataError([&] { readTextFolder(latin, {}, "%"); });
        QCOMPARE(bad.file(), latin + "/one");
        QCOMPARE(bad.position(), std::int64_t(9));
        QVERIFY2(contains(bad.what(), "byte 9") && contains(bad.what(), "tokenizer: bytes"), bad.what());
        const TextSamples asBytes = readTextFolder(latin, {}, "%", /*utf8=*/false);  // the bytes tokenizer takes it
        const TextClassificationDataset bytes(asBytes, "bytes", 8, "latin");
        float x[8];
        bytes.get(1, x);
        QCOMPARE(row(x, 8), (Ids{'b' + 1, 'a' + 1, 'd' + 1, ' ' + 1, 0xFF + 1, 0, 0, 0}));

        const std::string notAFolder = dataError([&] { readTextFolder(latin + "/one", {}, "%"); }).what();
        QVERIFY2(contains(notAFolder, "text_folder"), notAFolder.c_str());
        const std::string context = dataError([&] { TextClassificationDataset(asBytes, "bytes", 0, "latin"); }).what();
        QVERIFY2(contains(context, "dataset.context"), context.c_str());
    }

    // TokenMask: 1 where the id differs from pad_id, as a direct loop says; no gradient; the
    // shape rule refuses floats and other ranks.
    void tokenMaskMarksRealTokens()
    {
        const Ids ids{3, 1, 0, 0, 0, 2, 2, 3, 1, 0};
        for (std::int64_t pad : {0, 3}) {
            const Tensor mask = runForward("TokenMask", {{"pad_id", pad}}, {indices(Shape{2, 5}, ids)}, {});
            QCOMPARE(mask.dtype(), DType::F32);
            QCOMPARE(mask.shape(), (Shape{2, 5}));
            for (std::size_t i = 0; i < ids.size(); ++i) QCOMPARE(mask.data<float>()[i], ids[i] == pad ? 0.0f : 1.0f);
        }
        // The default pad_id is 0, the padded tokenizer's.
        const Tensor byDefault = runForward("TokenMask", {}, {indices(Shape{2, 5}, ids)}, {});
        QCOMPARE(byDefault.data<float>()[2], 0.0f);
        QCOMPARE(byDefault.data<float>()[0], 1.0f);

        // Masked mean pooling then averages the real tokens only: sample 0 has 2 of 5.
        Tensor x = Tensor::empty(Shape{2, 5, 1});
        for (int i = 0; i < 10; ++i) x.data<float>()[i] = float(i + 1);
        const Tensor pooled = runForward("SequencePool", {{"mode", std::string("mean")}}, {x, byDefault}, {});
        QCOMPARE(pooled.data<float>()[0], (1.0f + 2.0f) / 2.0f);
        QCOMPARE(pooled.data<float>()[1], (6.0f + 7.0f + 8.0f + 9.0f) / 4.0f);

        const Op& op = *OpRegistry::builtin().find("TokenMask");
        QCOMPARE(op.category(), OpCategory::Structure);
        QVERIFY(!op.inputDifferentiable(0));
        const Attrs none;
        const std::vector<TensorSpec> floatsIn{{Shape{2, 5}, DType::F32}}, rank3{{Shape{2, 5, 1}, DType::I64}};
        QVERIFY_THROWS_EXCEPTION(OpError, op.inferOutput(none, floatsIn));
        QVERIFY_THROWS_EXCEPTION(OpError, op.inferOutput(none, rank3));
    }

    // Debian's fortunes: python3 -c "print([len([s for s in open('/usr/share/games/fortunes/'+c).read()
    //   .split('\n%\n') if s.strip()]) for c in ('food', 'love')])" gives [198, 150].
    void fortunesByCategory()
    {
        const std::string dir = "/usr/share/games/fortunes";
        if (!fs::is_directory(dir)) QSKIP("fortunes is not installed (apt-get install fortunes)");
        const TextSamples s = readTextFolder(dir, {"food", "love"}, "%");
        QCOMPARE(std::count(s.labels.begin(), s.labels.end(), 0), std::ptrdiff_t(198));
        QCOMPARE(std::count(s.labels.begin(), s.labels.end(), 1), std::ptrdiff_t(150));
        const std::string missing = dataError([&] { readTextFolder(dir, {"foood"}, "%"); }).what();
        QVERIFY2(contains(missing, "computers") && !contains(missing, ".dat") && !contains(missing, ".u8"), missing.c_str());
    }
};

QTEST_GUILESS_MAIN(TstTextClassification)
#include "tst_text_classification.moc"
