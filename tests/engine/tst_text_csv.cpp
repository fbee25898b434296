// Text classification from a CSV table (format csv with dataset.text_column): RFC 4180 quoting
// read back cell for cell, Python's csv module as the independent reader (the same file, and a
// file its csv.writer wrote from random texts), the same tokens as the same texts in a
// text_folder layout, openDataset's split, notes and key, the experiment file's text_column,
// and bad input named with its place.
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

#include "data/csv_dataset.h"
#include "data/dataset.h"
#include "data/text_classification_dataset.h"
#include "io/yaml/experiment_yaml.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using Strings = std::vector<std::string>;

void writeText(const std::string& path, const std::string& text)
{
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

template <class F>
std::string dataError(F&& make)
{
    try {
        make();
    } catch (const DataError& e) {
        return e.what();
    }
    qFatal("no DataError");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A byte-order mark, CRLF ends, a comma, doubled quotes and a line break inside quotes, a quote
// inside an unquoted cell, empty and blank texts, a padded label, UTF-8, a text ending in a line
// break, blank lines at the end.
const std::string kTricky = "\xEF\xBB\xBFid,text,topic\r\n"
                            "1,\"plain, with a comma\",a\r\n"          // line 2
                            "2,\"say \"\"hi\"\"\",b\r\n"               // 3
                            "3,\"two\r\nlines\",a\r\n"                 // 4-5
                            "4,unquoted 5\" screen,b\r\n"              // 6
                            "5,\"\",a\r\n"                             // 7: empty
                            "6,  ,b\r\n"                               // 8: blank
                            "7,caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87, b \r\n"  // 9: "café 中文", label " b "
                            "8,\"ends with a break\n\",a\r\n"          // 10-11
                            "\r\n\r\n";

// Python's csv module on `path`: every row as [start line, cells...] (blank lines give no row).
QJsonArray pythonRows(const std::string& path)
{
    const char* script = "import csv, json, sys\n"
                         "rows, last = [], 0\n"
                         "with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:\n"
                         "    r = csv.reader(f)\n"
                         "    for row in r:\n"
                         "        if row: rows.append([last + 1] + row)\n"
                         "        last = r.line_num\n"
                         "print(json.dumps(rows))\n";
    QProcess python;
    python.start("/usr/bin/python3", {"-c", script, QString::fromStdString(path)});
    if (!python.waitForFinished(20000) || python.exitCode() != 0) qFatal("python3: %s", python.readAllStandardError().constData());
    return QJsonDocument::fromJson(python.readAllStandardOutput()).array();
}

TextSamples readTricky(const std::string& path, const Strings& classes = {})
{
    return readTextCsv(path, "text", "topic", "", classes);
}

}  // namespace

class TstTextCsv : public QObject {
    Q_OBJECT

private slots:
    void trickyQuotingReadsBackExactly()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.csv").toStdString();
        writeText(path, kTricky);
        const TextSamples s = readTricky(path);
        QCOMPARE(s.texts, (Strings{"plain, with a comma", "say \"hi\"", "two\r\nlines", "unquoted 5\" screen",
                                   "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87", "ends with a break\n"}));
        QCOMPARE(s.classNames, (Strings{"a", "b"}));
        QCOMPARE(s.labels, (std::vector<std::int64_t>{0, 1, 0, 1, 1, 0}));
        const auto at = [&](int line) { return path + ":" + std::to_string(line); };
        QCOMPARE(s.sources, (Strings{at(2), at(3), at(4), at(6), at(9), at(10)}));
        QCOMPARE(s.emptyRows, (Strings{at(7), at(8)}));
        QCOMPARE(s.rows, std::int64_t(8));
        QCOMPARE(s.files, Strings{path});

        // dataset.classes picks and orders the classes, and leaves the other rows out.
        const TextSamples onlyB = readTricky(path, {"b"});
        QCOMPARE(onlyB.texts, (Strings{"say \"hi\"", "unquoted 5\" screen", "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87"}));
        QCOMPARE(onlyB.labels, (std::vector<std::int64_t>{0, 0, 0}));
        QCOMPARE(onlyB.emptyRows, Strings{at(8)});
        QCOMPARE(readTricky(path, {"b", "a"}).labels, (std::vector<std::int64_t>{1, 0, 1, 0, 0, 1}));
    }

    // Python's csv module reads the same cells from the same bytes, and its rows start on the
    // lines the sources name.
    void pythonReadsTheSameCells()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.csv").toStdString();
        writeText(path, kTricky);
        const QJsonArray rows = pythonRows(path);
        const std::vector<CsvRecord> records = parseCsv(kTricky.substr(3), path);
        QCOMPARE(std::size_t(rows.size()), records.size());
        for (std::size_t r = 0; r < records.size(); ++r) {
            const QJsonArray row = rows[int(r)].toArray();
            QCOMPARE(std::int64_t(row[0].toInt()), records[r].line);
            QCOMPARE(std::size_t(row.size() - 1), records[r].fields.size());
            for (std::size_t c = 0; c < records[r].fields.size(); ++c)
                QCOMPARE(QString::fromStdString(records[r].fields[c]), row[int(c) + 1].toString());
        }
    }

    // 300 random texts of commas, quotes, line breaks and UTF-8, written by Python's
    // csv.writer (quoting where needed) and read back by both.
    void pythonWrittenTextsReadBack()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("random.csv").toStdString();
        const char* script = "import csv, random, sys\n"
                             "random.seed(40)\n"
                             "parts = ['a', 'b', ' ', ',', '\"', '\\n', '\\r\\n', '\\u00e9', '\\u4e2d', ';', \"'\"]\n"
                             "with open(sys.argv[1], 'w', newline='', encoding='utf-8') as f:\n"
                             "    w = csv.writer(f)\n"
                             "    w.writerow(['label', 'body'])\n"
                             "    for i in range(300):\n"
                             "        text = 'x' + ''.join(random.choice(parts) for _ in range(random.randint(0, 12)))\n"
                             "        w.writerow([random.choice(['neg', 'pos', 'mixed']), text])\n";
        QProcess python;
        python.start("/usr/bin/python3", {"-c", script, QString::fromStdString(path)});
        QVERIFY(python.waitForFinished(20000) && python.exitCode() == 0);
        const QJsonArray rows = pythonRows(path);
        QCOMPARE(rows.size(), 301);
        const TextSamples s = readTextCsv(path, "body", "label", "", {});
        QCOMPARE(s.classNames, (Strings{"mixed", "neg", "pos"}));
        QCOMPARE(s.texts.size(), std::size_t(300));
        for (int r = 1; r < rows.size(); ++r) {
            const QJsonArray row = rows[r].toArray();
            QCOMPARE(QString::fromStdString(s.texts[std::size_t(r - 1)]), row[2].toString());
            QCOMPARE(QString::fromStdString(s.classNames[std::size_t(s.labels[std::size_t(r - 1)])]), row[1].toString());
            QCOMPARE(s.sources[std::size_t(r - 1)], path + ":" + std::to_string(row[0].toInt()));
        }
    }

    // The same texts as a CSV and as class folders become the same tokens with the same labels.
    void sameTokensAsTextFolder()
    {
        QTemporaryDir dir;
        const std::vector<std::pair<std::string, std::string>> texts = {
            {"ham", "lunch at noon, \"as usual\""}, {"spam", "WIN a prize!\nclick now"}, {"ham", "caf\xC3\xA9 at 3"},
            {"spam", "cheap, cheap, cheap"},      {"ham", "see you"}};
        std::string csv = "label,text\n";
        for (std::size_t i = 0; i < texts.size(); ++i) {
            std::string quoted;
            for (char c : texts[i].second) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
            csv += texts[i].first + ",\"" + quoted + "\"\n";
            writeText(dir.filePath("folder").toStdString() + "/" + texts[i].first + "/" + std::to_string(i) + ".txt", texts[i].second);
        }
        writeText(dir.filePath("t.csv").toStdString(), csv);
        const TextClassificationDataset fromCsv(readTextCsv(dir.filePath("t.csv").toStdString(), "text", "label", "", {}),
                                                "characters", 20, "csv");
        const TextClassificationDataset fromFolder(readTextFolder(dir.filePath("folder").toStdString(), {}, ""), "characters", 20,
                                                   "folder");
        QCOMPARE(fromCsv.size(), std::int64_t(texts.size()));
        QCOMPARE(fromCsv.classNames(), fromFolder.classNames());
        QCOMPARE(fromCsv.tokenizer().size(), fromFolder.tokenizer().size());
        QCOMPARE(fromCsv.cutCount(), fromFolder.cutCount());
        QCOMPARE(fromCsv.cutCount(), std::int64_t(2));  // "lunch at noon, ..." has 25 characters, "WIN ..." 22
        for (std::int64_t i = 0; i < fromCsv.size(); ++i) {
            std::int64_t j = 0;
            while (j < fromFolder.size() && fromFolder.text(j) != fromCsv.text(i)) ++j;
            QVERIFY2(j < fromFolder.size(), fromCsv.text(i).c_str());
            std::vector<float> a(20), b(20);
            QCOMPARE(fromCsv.get(i, a.data()), fromFolder.get(j, b.data()));
            QCOMPARE(a, b);
        }
    }

    // Through openDataset: the seeded split keeps groups whole, the notes count empty texts,
    // the key tells a text CSV from a table.
    void openDatasetSplitsNotesAndKey()
    {
        QTemporaryDir dir;
        std::string csv = "author,text,topic\n";
        for (int i = 0; i < 40; ++i)
            csv += "writer" + std::to_string(i % 8) + ",\"text " + std::to_string(i) + ", quoted\"," + (i % 2 ? "odd" : "even") + "\n";
        csv += "writer0,,odd\n";  // line 42
        writeText(dir.filePath("t.csv").toStdString(), csv);
        DatasetSpec spec;
        spec.format = "csv";
        spec.path = dir.filePath("t.csv").toStdString();
        spec.textColumn = "text";
        spec.labelColumn = "topic";
        spec.groupColumn = "author";
        spec.context = 16;
        spec.validationFraction = 0.25;
        spec.numWorkers = 0;
        const DatasetSplits s = openDataset(spec, "", "");
        QCOMPARE(s.train->size() + s.validation->size(), std::int64_t(40));
        QCOMPARE(s.validation->size(), std::int64_t(10));  // 2 of 8 authors, 5 texts each
        QCOMPARE(s.train->classNames(), (Strings{"even", "odd"}));
        QCOMPARE(s.train->inputDType(), DType::I64);
        QCOMPARE(s.notes.size(), std::size_t(1));
        QCOMPARE(s.notes[0].id, std::string("data.texts_empty"));
        QCOMPARE(s.notes[0].args, (Strings{"1", "41", spec.path + ":42"}));
        QVERIFY2(contains(s.notes[0].text, "1 of 41 rows have an empty text"), s.notes[0].text.c_str());
        std::set<std::string> trainAuthors;
        for (std::int64_t i : s.trainFileIndex) trainAuthors.insert("writer" + std::to_string(i % 8));
        for (std::int64_t i : s.validationFileIndex) QVERIFY(!trainAuthors.count("writer" + std::to_string(i % 8)));

        const std::string key = datasetKey(spec, "");
        QVERIFY2(contains(key, "\ntext=text\ntokenizer=characters\ncontext=16"), key.c_str());
        DatasetSpec table = spec;
        table.textColumn.clear();
        QVERIFY(!contains(datasetKey(table, ""), "text="));
        QVERIFY(!contains(datasetKey(table, ""), "tokenizer="));  // a table's key is as it was
        spec.classes = {"odd"};
        QVERIFY(datasetKey(spec, "") != key);
    }

    // text_column in an experiment file: the model's inputs implied (token ids, a class), the
    // option read and written back, feature_columns refused beside it.
    void experimentFileReadsTextColumn()
    {
        const std::string file = "dataset: {format: csv, path: t.csv, text_column: body, label_column: topic, context: 16}\n"
                                 "model:\n  nodes:\n"
                                 "    - {name: embed, op: Embedding, inputs: [tokens], num_embeddings: 30, embedding_dim: 8}\n"
                                 "    - {name: pool, op: SequencePool, mode: mean}\n"
                                 "    - {name: classifier, op: Linear, out_features: 2}\n"
                                 "    - {name: loss, op: CrossEntropy, inputs: [classifier, label]}\n";
        const ExperimentSpec spec = parseExperiment(file, "texts.yaml");
        QCOMPARE(spec.dataset.textColumn, std::string("body"));
        QCOMPARE(spec.model.inputs.size(), std::size_t(2));
        QCOMPARE(spec.model.inputs[0].name, std::string("tokens"));
        QCOMPARE(spec.model.inputs[0].shape, (Shape{16}));
        QCOMPARE(spec.model.inputs[0].dtype, DType::I64);
        QVERIFY(contains(experimentToYaml(spec), "text_column: body"));
        QCOMPARE(parseExperiment(experimentToYaml(spec), "again.yaml").dataset, spec.dataset);
        std::string why;
        try {
            std::string withFeatures = file;
            withFeatures.replace(withFeatures.find("context"), 0, "feature_columns: [a], ");
            parseExperiment(withFeatures, "texts.yaml");
        } catch (const std::exception& e) {
            why = e.what();
        }
        QVERIFY2(contains(why, "texts.yaml:1:") && contains(why, "leave feature_columns out"), why.c_str());
    }

    void badInputIsNamed()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.csv").toStdString();
        writeText(path, kTricky);

        std::string e = dataError([&] { readTextCsv(path, "body", "topic", "", {}); });
        QVERIFY2(contains(e, path + ":1: no text column 'body'; the columns are 'id', 'text', 'topic'"), e.c_str());
        e = dataError([&] { readTextCsv(path, "text", "", "", {}); });
        QVERIFY2(contains(e, path + ":1: no label column given (dataset.label_column); the columns are 'id'"), e.c_str());
        e = dataError([&] { readTextCsv(path, "text", "text", "", {}); });
        QVERIFY2(contains(e, "both name 'text'"), e.c_str());
        e = dataError([&] { readTricky(path, {"a", "sport"}); });
        QVERIFY2(contains(e, "dataset.classes names 'sport', which no row of " + path) && contains(e, "its classes are: a, b"),
                 e.c_str());
        e = dataError([&] { readTricky(path, {"a", "a"}); });
        QVERIFY2(contains(e, "dataset.classes names 'a' twice"), e.c_str());

        writeText(path, "text,topic\nfine,a\n,b\nalso fine,\n");
        e = dataError([&] { readTricky(path); });
        QVERIFY2(contains(e, path + ":4: the label (column 'topic') is empty"), e.c_str());
        writeText(path, "text,topic\nfine,a\nnot, quoted,b\n");
        e = dataError([&] { readTricky(path); });
        QVERIFY2(contains(e, path + ":3: 3 fields, but the header has 2; quote a text that holds commas"), e.c_str());
        writeText(path, "text,topic\n\"\",a\n  ,b\n\n");
        e = dataError([&] { readTricky(path); });
        QVERIFY2(contains(e, path + ":2: no texts after the header (every text cell is empty)"), e.c_str());

        // Latin-1 "é" on line 3, its 5th byte; the file's byte 25 (from 0: a byte-order mark, 11 + 7 + 4 bytes before it).
        writeText(path, "\xEF\xBB\xBFtext,topic\nfine,a\n\"caf\xE9\",b\n");
        e = dataError([&] { readTricky(path); });
        QVERIFY2(contains(e, path + ":3:5: byte 25: not UTF-8 text (byte 0xE9)") && contains(e, "iconv") &&
                     contains(e, "tokenizer: bytes"),
                 e.c_str());
        QCOMPARE(readTextCsv(path, "text", "topic", "", {}, /*utf8=*/false).texts[1], std::string("caf\xE9"));

        writeText(path, "text,topic\nfine,a\n\"never closed,b\nmore,a\n");
        e = dataError([&] { readTricky(path); });
        QVERIFY2(contains(e, path + ":3: a quoted field is never closed"), e.c_str());

        // openDataset's own: features, a learned tokenizer.
        writeText(path, "text,topic\nfine,a\n");
        DatasetSpec spec;
        spec.format = "csv";
        spec.path = path;
        spec.textColumn = "text";
        spec.labelColumn = "topic";
        spec.featureColumns = {"x"};
        e = dataError([&] { openDataset(spec, "", ""); });
        QVERIFY2(contains(e, "leave feature_columns out"), e.c_str());
        spec.featureColumns.clear();
        spec.tokenizer = "bpe";
        e = dataError([&] { openDataset(spec, "", ""); });
        QVERIFY2(contains(e, "a csv of texts takes characters or bytes"), e.c_str());
    }
};

QTEST_GUILESS_MAIN(TstTextCsv)
#include "tst_text_csv.moc"
