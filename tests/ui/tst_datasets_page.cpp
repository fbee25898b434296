// The Datasets page (issue 14): the sample grid's model on a small IDX dataset written here and on
// the real Fashion-MNIST (counts, filters, thumbnails decoded off the UI thread), the detail
// view's pixel statistics, a CSV's column statistics, bad input (corrupt, missing, ragged,
// a broken image), the experiment edits the page sends, and the label marks it keeps in the store.
// Offscreen platform, a scratch HOME and one temporary workspace per test.
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QListView>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <atomic>
#include <cmath>
#include <fstream>
#include <mutex>
#include <set>

#include "data/dataset.h"
#include "data/subset_dataset.h"
#include "scratch_home.h"
#include "store/label_overlay.h"
#include "ui/datasets/dataset_list.h"
#include "ui/datasets/dataset_open_dialog.h"
#include "ui/datasets/dataset_opener.h"
#include "ui/datasets/datasets_page.h"
#include "ui/datasets/sample_detail.h"
#include "ui/datasets/sample_grid_model.h"
#include "ui/datasets/sample_ref.h"
#include "ui/datasets/table_columns.h"
#include "ui/datasets/thumbnail_cache.h"
#include "widgets/image_grid.h"

using namespace ts;
using namespace ts::ui;

namespace {

const QString kFashion = QStringLiteral("/usr/share/datasets/fashion-mnist");

void put32(std::ofstream& out, std::uint32_t v)
{
    const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    out.write(b, 4);
}

// The pixel of image i at (y, x): a pattern every test can recompute.
std::uint8_t pixel(int i, int y, int x) { return std::uint8_t((i * 37 + y * 11 + x * 5) % 256); }

// An IDX dataset of `train` + `test` images of rows x cols; labels i % classes.
void writeIdx(const QString& dir, int train, int test, int rows, int cols, int classes)
{
    QDir().mkpath(dir);
    auto write = [&](const char* images, const char* labels, int n, int offset) {
        std::ofstream im((dir + "/" + images).toStdString(), std::ios::binary);
        put32(im, 0x803);
        put32(im, std::uint32_t(n));
        put32(im, std::uint32_t(rows));
        put32(im, std::uint32_t(cols));
        for (int i = 0; i < n; ++i)
            for (int y = 0; y < rows; ++y)
                for (int x = 0; x < cols; ++x) im.put(char(pixel(i + offset, y, x)));
        std::ofstream lb((dir + "/" + labels).toStdString(), std::ios::binary);
        put32(lb, 0x801);
        put32(lb, std::uint32_t(n));
        for (int i = 0; i < n; ++i) lb.put(char((i + offset) % classes));
    };
    write("train-images-idx3-ubyte", "train-labels-idx1-ubyte", train, 0);
    if (test > 0) write("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", test, 1000);
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// Records the threads get() runs on, around a real dataset.
class ThreadRecorder : public Dataset {
public:
    explicit ThreadRecorder(std::shared_ptr<const Dataset> d) : m_d(std::move(d)) {}
    std::int64_t size() const override { return m_d->size(); }
    Shape sampleShape() const override { return m_d->sampleShape(); }
    std::int64_t numClasses() const override { return m_d->numClasses(); }
    std::vector<std::string> classNames() const override { return m_d->classNames(); }
    std::int64_t get(std::int64_t index, float* out) const override
    {
        {
            std::lock_guard lock(m_mutex);
            m_threads.insert(QThread::currentThread());
        }
        ++m_calls;
        return m_d->get(index, out);
    }
    const std::vector<std::int64_t>& labels() const override { return m_d->labels(); }
    std::string description() const override { return m_d->description(); }
    std::set<QThread*> threads() const
    {
        std::lock_guard lock(m_mutex);
        return m_threads;
    }
    int calls() const { return m_calls; }

private:
    std::shared_ptr<const Dataset> m_d;
    mutable std::mutex m_mutex;
    mutable std::set<QThread*> m_threads;
    mutable std::atomic<int> m_calls{0};
};

std::vector<std::int64_t> countLabels(const std::vector<std::int64_t>& labels, std::int64_t classes)
{
    std::vector<std::int64_t> out(std::size_t(classes), 0);
    for (auto l : labels) ++out[std::size_t(l)];
    return out;
}

bool waitOpened(DatasetsPage& page)
{
    QSignalSpy opened(&page, &DatasetsPage::datasetOpened);
    return page.isOpening() ? opened.wait(30000) : true;
}

// An image folder: `classes` sub-folders of `perClass` 5x4 PNG images each.
void writeClassFolders(const QString& root, const QStringList& classes, int perClass)
{
    for (const QString& cls : classes) {
        QDir().mkpath(root + "/" + cls);
        for (int i = 0; i < perClass; ++i) {
            QImage image(5, 4, QImage::Format_RGB888);
            image.fill(QColor(20 * i, 90, 160));
            image.save(QString("%1/%2/%3.png").arg(root, cls).arg(i));
        }
    }
}

// The page's open dialog once it is shown (the one before it closed and was deleted).
DatasetOpenDialog* openDialogOf(DatasetsPage& page)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    const auto dialogs = page.findChildren<DatasetOpenDialog*>();
    return dialogs.size() == 1 ? dialogs.front() : nullptr;
}

void chooseFormat(DatasetsPage& page, const QString& format)
{
    auto* box = page.findChild<QComboBox*>("datasetFormat");
    const int index = box->findData(format);
    box->setCurrentIndex(index);
    emit box->activated(index);
}

}  // namespace

class TestDatasetsPage : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> m_dir;
    Workspace m_ws;

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_ws = Workspace::open((m_dir->path() + "/workspace").toStdString());
    }

    void formatsAreGuessedFromNames()
    {
        const QString d = m_dir->path();
        writeIdx(d + "/idx", 4, 0, 3, 3, 2);
        QCOMPARE(guessDatasetFormat(d + "/idx"), QString("idx"));
        QCOMPARE(guessDatasetFormat(d + "/idx/train-images-idx3-ubyte"), QString("idx"));
        QCOMPARE(datasetPathFor(d + "/idx/train-images-idx3-ubyte", "idx"), QFileInfo(d + "/idx").absoluteFilePath());
        QDir().mkpath(d + "/cifar");
        writeText(d + "/cifar/data_batch_1.bin", "x");
        QCOMPARE(guessDatasetFormat(d + "/cifar"), QString("cifar10"));
        writeText(d + "/t.csv", "a,label\n1,0\n");
        QCOMPARE(guessDatasetFormat(d + "/t.csv"), QString("csv"));
        QDir().mkpath(d + "/images/cat");
        writeText(d + "/images/cat/a.png", "not really");
        QCOMPARE(guessDatasetFormat(d + "/images"), QString("image_folder"));
        QDir().mkpath(d + "/nothing");
        QCOMPARE(guessDatasetFormat(d + "/nothing"), QString());
        QCOMPARE(guessDatasetFormat(d + "/missing"), QString());
    }

    // Counts and filters of the grid model against what the test wrote; thumbnails decoded on
    // worker threads, pixel for pixel the Dataset's get().
    void gridModelOnGeneratedIdx()
    {
        const QString dir = m_dir->path() + "/digits";
        writeIdx(dir, 30, 12, 4, 5, 3);
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = dir.toStdString();
        spec.validationFraction = 0.2;
        spec.splitSeed = 7;
        const OpenedDataset opened = openDatasetNow(spec, {});
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        auto files = std::make_shared<DatasetFiles>(*opened.files);
        auto recorder = std::make_shared<ThreadRecorder>(files->train);
        files->train = recorder;

        ThumbnailLoader loader;
        SampleGridModel model(&loader);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDataset(files, opened.split);
        QCOMPARE(model.rowCount(), 30);  // the training files by default
        QCOMPARE(model.classNames(), QStringList({"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}));
        const SplitIndices split = splitIndices(30, 0.2, 7);  // the engine's own carving
        QCOMPARE(opened.split.validation, split.validation);
        model.setFilter({SplitView::Validation, -1});
        QCOMPARE(model.rowCount(), int(split.validation.size()));
        for (int r = 0; r < model.rowCount(); ++r) QCOMPARE(model.sampleAt(r).index, split.validation[std::size_t(r)]);
        QCOMPARE(model.index(0).data(SampleGridModel::SplitRole).toString(), QString("validation"));
        model.setFilter({SplitView::Test, -1});
        QCOMPARE(model.rowCount(), 12);
        model.setFilter({SplitView::All, -1});
        QCOMPARE(model.rowCount(), 42);
        for (int c = 0; c < 3; ++c) {
            model.setFilter({SplitView::TrainingFiles, c});
            QCOMPARE(model.rowCount(), 10);
            for (int r = 0; r < model.rowCount(); ++r) QCOMPARE(model.index(r).data(SampleGridModel::LabelRole).toLongLong(), qint64(c));
        }
        const auto trainCounts = model.classCounts(SplitView::Train);
        std::vector<std::int64_t> expected(10, 0);
        for (auto i : split.train) ++expected[std::size_t(i % 3)];
        QCOMPARE(trainCounts, expected);

        // A given list (a finding's pair) keeps its order.
        model.setFilter(SampleFilter::list("pair", {{SampleSource::Test, 3}, {SampleSource::Train, 17}}));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.sampleAt(0), (GridSample{SampleSource::Test, 3}));
        QCOMPARE(model.index(1).data(Qt::DisplayRole).toString(), QString("2 #17"));

        // Thumbnails: nothing on the first ask, then the image arrives from a worker thread.
        model.setFilter({SplitView::TrainingFiles, -1});
        const QModelIndex i5 = model.index(5);
        QVERIFY(!i5.data(Qt::DecorationRole).isValid());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QTRY_VERIFY_WITH_TIMEOUT(i5.data(Qt::DecorationRole).isValid(), 10000);
        QVERIFY(!changed.isEmpty());
        const QImage image = i5.data(Qt::DecorationRole).value<QImage>();
        QCOMPARE(image.size(), QSize(5, 4));
        std::vector<float> values(20);
        opened.files->train->get(5, values.data());
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 5; ++x) {
                QCOMPARE(qGray(image.pixel(x, y)), int(pixel(5, y, x)));
                QCOMPARE(qGray(image.pixel(x, y)), int(std::lround(values[std::size_t(y * 5 + x)] * 255)));
            }
        const std::set<QThread*> threads = recorder->threads();
        QVERIFY(!threads.empty());
        QVERIFY(!threads.count(QThread::currentThread()));  // never decoded on the UI thread
        // Cached: asking again decodes nothing more, at any zoom (a 5x4 image has one entry).
        const int calls = recorder->calls();
        model.setThumbnailSize(140);
        QVERIFY(i5.data(Qt::DecorationRole).isValid());
        QCOMPARE(recorder->calls(), calls);
    }

    // The real Fashion-MNIST: 60,000 + 10,000 rows, class filters equal to the labels' counts.
    void gridModelOnFashionMnist()
    {
        if (!QFile::exists(kFashion + "/train-images-idx3-ubyte.gz")) QSKIP("Fashion-MNIST is not installed");
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = kFashion.toStdString();
        const OpenedDataset opened = openDatasetNow(spec, {});
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        ThumbnailLoader loader;
        SampleGridModel model(&loader);
        model.setDataset(opened.files, opened.split);
        QCOMPARE(model.rowCount(), 60000);
        QCOMPARE(model.className(9), QString("Ankle boot"));
        model.setFilter({SplitView::Test, -1});
        QCOMPARE(model.rowCount(), 10000);
        model.setFilter({SplitView::All, -1});
        QCOMPARE(model.rowCount(), 70000);
        const auto trainCounts = countLabels(opened.files->train->labels(), 10);
        const auto testCounts = countLabels(opened.files->test->labels(), 10);
        for (int c = 0; c < 10; ++c) {
            model.setFilter({SplitView::TrainingFiles, c});
            QCOMPARE(model.rowCount(), int(trainCounts[std::size_t(c)]));
            QCOMPARE(model.rowCount(), 6000);
            model.setFilter({SplitView::Test, c});
            QCOMPARE(model.rowCount(), int(testCounts[std::size_t(c)]));
        }
        // The validation split as openDataset carves it (10 % by default, seed 0).
        const DatasetSplits splits = openDataset(spec, {}, {});
        model.setFilter({SplitView::Validation, -1});
        QCOMPARE(model.rowCount(), int(splits.validation->size()));
        const auto* subset = dynamic_cast<const SubsetDataset*>(splits.validation.get());
        QVERIFY(subset);
        QCOMPARE(model.sampleAt(0).index, subset->indices().front());
        QCOMPARE(model.sampleAt(model.rowCount() - 1).index, subset->indices().back());
        // One thumbnail, against get().
        model.setFilter({SplitView::Test, -1});
        const QModelIndex i = model.index(1234);
        QTRY_VERIFY_WITH_TIMEOUT(i.data(Qt::DecorationRole).isValid(), 10000);
        const QImage image = i.data(Qt::DecorationRole).value<QImage>();
        std::vector<float> values(784);
        opened.files->test->get(1234, values.data());
        QCOMPARE(image.size(), QSize(28, 28));
        for (int p : {0, 300, 406, 783}) QCOMPARE(qGray(image.pixel(p % 28, p / 28)), int(std::lround(values[std::size_t(p)] * 255)));
    }

    // The detail view's statistics against values computed here from the bytes written.
    void detailStatistics()
    {
        const QString dir = m_dir->path() + "/digits";
        writeIdx(dir, 6, 0, 7, 9, 2);
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = dir.toStdString();
        const OpenedDataset opened = openDatasetNow(spec, {});
        QVERIFY(opened.ok());
        SampleDetail detail;
        detail.resize(300, 400);
        detail.show();
        QSignalSpy decoded(&detail, &SampleDetail::decodedChanged);
        detail.showSample(opened.files->train, 4, "Training file sample 4", {}, {"zero", "one"});
        QVERIFY(decoded.wait(10000));
        double sum = 0, lo = 1e9, hi = -1e9;
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 9; ++x) {
                const double v = pixel(4, y, x) / 255.0;
                sum += v, lo = std::min(lo, v), hi = std::max(hi, v);
            }
        const double mean = sum / 63;
        double sq = 0;
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 9; ++x) sq += std::pow(pixel(4, y, x) / 255.0 - mean, 2);
        const double stddev = std::sqrt(sq / 63);
        QCOMPARE(detail.decoded().channels.size(), std::size_t(1));
        const ChannelStatistics& s = detail.decoded().channels[0];
        QVERIFY(std::abs(s.min - lo) < 1e-6 && std::abs(s.max - hi) < 1e-6);
        QVERIFY2(std::abs(s.mean - mean) < 1e-6, qPrintable(QString::number(s.mean)));
        QVERIFY(std::abs(s.stddev - stddev) < 1e-6);
        QCOMPARE(detail.statisticsTable()->columnCount(), 1);
        QCOMPARE(detail.statisticsTable()->item(2, 0)->text(), QLocale().toString(mean, 'f', 4));
        QVERIFY2(detail.text().contains("Label: zero (class 0)"), qPrintable(detail.text()));
        // Magnified by whole pixels, nearest neighbour: every source pixel an equal square.
        const QImage shown = detail.shownImage();
        QVERIFY(shown.width() % 9 == 0 && shown.width() / 9 >= 2);
        const int f = shown.width() / 9;
        QCOMPARE(shown.height(), 7 * f);
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 9; ++x) {
                QCOMPARE(qGray(shown.pixel(x * f, y * f)), int(pixel(4, y, x)));
                QCOMPARE(qGray(shown.pixel(x * f + f - 1, y * f + f - 1)), int(pixel(4, y, x)));
            }
        // RGB: one row per channel.
        const float rgb[12] = {0, 1, 0.5f, 0.5f, 0.2f, 0.2f, 0.2f, 0.2f, 1, 0, 1, 0};
        const auto st = pixelStatistics(rgb, Shape{3, 2, 2});
        QCOMPARE(st.size(), std::size_t(3));
        QCOMPARE(st[0].mean, 0.5);
        QVERIFY(std::abs(st[0].stddev - std::sqrt(0.125)) < 1e-9);
        QVERIFY(std::abs(st[1].stddev) < 1e-7);
        QCOMPARE(st[2].min, 0.0);
    }

    // A CSV's column statistics against a small table written here.
    void csvColumnStatistics()
    {
        const QString path = m_dir->path() + "/t.csv";
        writeText(path, "height,colour,weight,label\n"
                        "1.5,red,10,a\n"
                        "2.5,blue,,b\n"
                        "4,red,30,a\n"
                        "NA,green,20,c\n"
                        "0.5,red,40,b\n");
        const CsvTable t = readCsvTable(path.toStdString());
        QCOMPARE(t.header, QStringList({"height", "colour", "weight", "label"}));
        QCOMPARE(t.records.size(), std::size_t(5));
        QCOMPARE(t.raggedRows, std::int64_t(0));
        const CsvColumn& h = t.columns[0];
        QCOMPARE(h.type, CsvColumn::Type::Number);
        QCOMPARE(h.missing, std::int64_t(1));
        QCOMPARE(h.min, 0.5);
        QCOMPARE(h.max, 4.0);
        QCOMPARE(h.mean, (1.5 + 2.5 + 4 + 0.5) / 4);
        std::int64_t inBins = 0;
        for (auto n : h.histogram) inBins += n;
        QCOMPARE(inBins, std::int64_t(4));
        QCOMPARE(h.histogram.front(), std::int64_t(1));  // 0.5
        QCOMPARE(h.histogram.back(), std::int64_t(1));   // 4
        const CsvColumn& c = t.columns[1];
        QCOMPARE(c.type, CsvColumn::Type::Text);
        QCOMPARE(c.distinct, std::int64_t(3));
        QCOMPARE(c.histogram, (std::vector<std::int64_t>{3, 1, 1}));
        QCOMPARE(t.columns[2].type, CsvColumn::Type::Integer);
        QCOMPARE(t.columns[2].missing, std::int64_t(1));
        QCOMPARE(t.columns[2].mean, 25.0);
        QCOMPARE(guessLabelColumn(t.header), QString("label"));

        // The model: the label is no feature; numeric columns are features by default.
        DatasetSpec spec;
        spec.format = "csv";
        spec.labelColumn = "label";
        TableColumnsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(std::make_shared<CsvTable>(t), spec);
        QCOMPARE(model.featureColumns(), QStringList({"height", "weight"}));
        QCOMPARE(model.index(3, TableColumnsModel::UseColumn).data().toString(), QString("label"));
        QCOMPARE(model.index(0, TableColumnsModel::MeanColumn).data().toString(), QLocale().toString(2.125, 'g', 6));
        QCOMPARE(model.index(2, TableColumnsModel::MissingColumn).data().toString(), QString("1"));
        const QList<double> bars = model.index(1, TableColumnsModel::HistogramColumn).data(TableColumnsModel::HistogramRole).value<QList<double>>();
        QCOMPARE(bars, (QList<double>{1.0, 1.0 / 3, 1.0 / 3}));
        QSignalSpy edited(&model, &TableColumnsModel::choiceEdited);
        QVERIFY(model.setData(model.index(2, TableColumnsModel::UseColumn), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(model.applyTo(spec).featureColumns, (std::vector<std::string>{"height"}));
        model.setLabelColumn("colour");
        QCOMPARE(model.applyTo(spec).labelColumn, std::string("colour"));
    }

    // The page on a CSV of the experiment: the table shown, a feature unchecked goes to the experiment.
    void csvTableEditsTheExperiment()
    {
        const QString path = m_dir->path() + "/iris.csv";
        writeText(path, "a,b,c,species\n1,2,3,x\n2,3,4,y\n3,4,5,x\n4,5,6,y\n5,6,7,x\n");
        ExperimentSpec exp;
        exp.sourceFile = (m_dir->path() + "/exp.yaml").toStdString();
        exp.dataset.format = "csv";
        exp.dataset.path = "iris.csv";  // relative to the experiment's folder
        exp.dataset.labelColumn = "species";
        exp.dataset.validationFraction = 0.2;
        DatasetsPage page(m_ws);
        QSignalSpy edits(&page, &DatasetsPage::experimentEdited);
        page.setExperiment(exp);
        QVERIFY(waitOpened(page));
        QVERIFY2(page.opened().ok(), qPrintable(page.opened().error));
        QVERIFY(page.showsExperimentDataset());
        QCOMPARE(page.columnsModel()->rowCount(), 4);
        QCOMPARE(page.rowsModel()->rowCount(), 5);
        QVERIFY(page.columnsView()->isVisibleTo(&page));
        QVERIFY(!page.grid()->isVisibleTo(&page));
        auto* columns = page.columnsModel();
        QVERIFY(columns->setData(columns->index(1, TableColumnsModel::UseColumn), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(edits.count(), 1);
        const ExperimentSpec sent = edits.last().at(0).value<ExperimentSpec>();
        QCOMPARE(sent.dataset.featureColumns, (std::vector<std::string>{"a", "c"}));
        QCOMPARE(sent.dataset.path, std::string("iris.csv"));
        QVERIFY(waitOpened(page));  // reopened with the new columns
        QVERIFY(page.opened().ok());
        QCOMPARE(page.opened().files->train->sampleShape(), (Shape{2}));
    }

    void corruptAndMissingFilesGiveTheMessage()
    {
        DatasetsPage page(m_ws);
        // A missing folder.
        page.openPath(m_dir->path() + "/nowhere", "idx");
        QVERIFY(waitOpened(page));
        QVERIFY(!page.opened().ok());
        QVERIFY2(page.message().contains("nowhere/train-images-idx3-ubyte"), qPrintable(page.message()));
        QVERIFY(page.message().contains("open another folder"));
        // A damaged image file: the reader's byte offset.
        const QString dir = m_dir->path() + "/broken";
        writeIdx(dir, 5, 0, 3, 3, 2);
        QFile f(dir + "/train-images-idx3-ubyte");
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.write("\x00\x00\x09\x99", 4);  // a wrong magic
        f.close();
        page.openPath(dir);
        QVERIFY(waitOpened(page));
        QVERIFY(!page.opened().ok());
        QVERIFY2(page.message().contains("train-images-idx3-ubyte: byte 0"), qPrintable(page.message()));
        QVERIFY(page.message().contains("damaged"));
        QCOMPARE(page.gridModel()->rowCount(), 0);
        // A CSV with a ragged row: the line, and the table still shows its columns.
        const QString csv = m_dir->path() + "/ragged.csv";
        writeText(csv, "x,y,label\n1,2,a\n3,4\n5,6,b\n");
        page.openPath(csv);
        QVERIFY(waitOpened(page));
        QVERIFY(!page.opened().ok());
        QVERIFY2(page.message().contains("ragged.csv:3"), qPrintable(page.message()));
        QVERIFY(page.message().contains("first on line 3"));
        QCOMPARE(page.columnsModel()->rowCount(), 3);
        QVERIFY(page.rowsModel()->index(1, 0).data(Qt::BackgroundRole).isValid());  // the ragged row marked
    }

    // An image folder with one damaged file: a broken cell with the reader's message; the rest shows.
    void brokenImageCell()
    {
        const QString root = m_dir->path() + "/pictures";
        for (const char* cls : {"cats", "dogs"}) {
            QDir().mkpath(root + "/" + cls);
            for (int i = 0; i < 2; ++i) {
                QImage image(6, 4, QImage::Format_RGB888);
                image.fill(QColor(10 + 40 * i, 100, 200));
                QVERIFY(image.save(QString("%1/%2/%3.png").arg(root, cls).arg(i)));
            }
        }
        writeText(root + "/dogs/2.png", "\x89PNG\r\n\x1a\n broken");
        // A 20,000 x 20,000 PNG: a real header and an empty IDAT (the reader refuses before any pixel).
        {
            auto chunk = [](const QByteArray& type, const QByteArray& data) {
                const QByteArray body = type + data;
                quint32 crc = 0xFFFFFFFFu;  // PNG's CRC-32 (ISO 3309), bit by bit
                for (char byte : body) {
                    crc ^= quint8(byte);
                    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
                }
                crc ^= 0xFFFFFFFFu;
                QByteArray out;
                for (quint32 v : {quint32(data.size())}) out.append(char(v >> 24)).append(char(v >> 16)).append(char(v >> 8)).append(char(v));
                out += body;
                return out.append(char(crc >> 24)).append(char(crc >> 16)).append(char(crc >> 8)).append(char(crc));
            };
            QByteArray ihdr;
            for (quint32 v : {20000u, 20000u}) ihdr.append(char(v >> 24)).append(char(v >> 16)).append(char(v >> 8)).append(char(v));
            ihdr.append("\x08\x00\x00\x00\x00", 5);  // 8-bit gray, no interlace
            writeText(root + "/cats/huge.png", QByteArray("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", {}) + chunk("IEND", {}));
        }
        DatasetsPage page(m_ws);
        page.resize(1100, 700);
        page.show();
        page.openPath(root);
        QVERIFY(waitOpened(page));
        QVERIFY2(page.opened().ok(), qPrintable(page.opened().error));
        QCOMPARE(page.opened().spec.imageShape, (std::vector<std::int64_t>{3, 4, 6}));  // the first image's
        SampleGridModel* model = page.gridModel();
        QCOMPARE(model->rowCount(), 6);  // cats/0, cats/1, cats/huge, dogs/0, dogs/1, dogs/2
        for (int r = 0; r < 6; ++r) model->index(r).data(Qt::DecorationRole);
        QTRY_VERIFY_WITH_TIMEOUT(!model->index(5).data(SampleGridModel::ErrorRole).toString().isEmpty(), 10000);
        QVERIFY2(model->index(5).data(SampleGridModel::ErrorRole).toString().contains("dogs/2.png"),
                 qPrintable(model->index(5).data(SampleGridModel::ErrorRole).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(!model->index(2).data(SampleGridModel::ErrorRole).toString().isEmpty(), 10000);
        const QString huge = model->index(2).data(SampleGridModel::ErrorRole).toString();
        QVERIFY2(huge.contains("huge.png") && huge.contains("too large"), qPrintable(huge));
        QTRY_VERIFY_WITH_TIMEOUT(model->index(0).data(Qt::DecorationRole).isValid(), 10000);
        const QImage good = model->index(0).data(Qt::DecorationRole).value<QImage>();
        QCOMPARE(good.pixelColor(2, 2), QColor(10, 100, 200));
        QVERIFY(model->index(5).data(Qt::DecorationRole).isValid());  // the broken-image cell
        // The detail view says why, and names the file.
        page.grid()->view()->setCurrentIndex(model->index(5));
        QTRY_VERIFY_WITH_TIMEOUT(!page.detail()->isDecoding() && !page.detail()->decoded().error.isEmpty(), 10000);
        QVERIFY2(page.detail()->text().contains("dogs/2.png"), qPrintable(page.detail()->text()));
    }

    // Dropping a folder opens it; the page remembers it in the store's catalog.
    void dropOpensAndRemembers()
    {
        const QString dir = m_dir->path() + "/digits";
        writeIdx(dir, 8, 4, 3, 3, 2);
        DatasetsPage page(m_ws);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(dir)});
        QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&page, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&page, &drop);
        QVERIFY(waitOpened(page));
        QVERIFY(page.opened().ok());
        QCOMPARE(page.gridModel()->rowCount(), 8);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy() && page.datasetList()->records().size() == 1, 10000);
        const DatasetRecord r = page.datasetList()->records().front();
        QCOMPARE(r.format, std::string("idx"));
        QCOMPARE(r.samples, std::int64_t(12));
        // Reopening from the list gives the same dataset.
        const DatasetSpec again = specOfRecord(r);
        QCOMPARE(again.format, std::string("idx"));
        QCOMPARE(QString::fromStdString(again.path), QFileInfo(dir).absoluteFilePath());
        QCOMPARE(datasetKey(again, {}), r.key);
    }

    // The experiment's dataset: a split edit is sent as the experiment and re-carves the grid;
    // a histogram bar filters it; "New model" carries the dataset's shape and classes.
    void experimentEditsAndNewModel()
    {
        const QString dir = m_dir->path() + "/digits";
        writeIdx(dir, 40, 10, 6, 6, 4);
        ExperimentSpec exp;
        exp.sourceFile = (m_dir->path() + "/exp.yaml").toStdString();
        exp.dataset.format = "idx";
        exp.dataset.path = "digits";
        exp.dataset.validationFraction = 0.25;
        DatasetsPage page(m_ws);
        QSignalSpy edits(&page, &DatasetsPage::experimentEdited);
        page.setExperiment(exp);
        QVERIFY(waitOpened(page));
        QVERIFY(page.showsExperimentDataset());
        page.setFilter({SplitView::Validation, -1});
        QCOMPARE(page.gridModel()->rowCount(), 10);
        DatasetSpec edited = exp.dataset;
        edited.validationFraction = 0.5;
        page.applyDatasetEdit(edited);
        QCOMPARE(edits.count(), 1);
        QCOMPARE(edits.last().at(0).value<ExperimentSpec>().dataset.validationFraction, 0.5);
        QVERIFY(!page.isOpening());  // the same files: re-carved, not reopened
        QCOMPARE(page.gridModel()->rowCount(), 20);
        // The Train page echoing the edit back changes nothing and sends nothing.
        ExperimentSpec echoed = exp;
        echoed.dataset = edited;
        page.setExperiment(echoed);
        QVERIFY(!page.isOpening());
        QCOMPARE(edits.count(), 1);
        page.showClass("test", 2);
        QCOMPARE(page.gridModel()->rowCount(), 2);  // test labels (1000 + i) % 4: i = 2 and 6
        // A health finding's samples as the report hands them over: pairs side by side.
        page.showSampleRefs("leaks", {SampleRef{"train", 4, 7, "test"}, SampleRef{"test", 1, -1, {}}, SampleRef{"nowhere", 1, -1, {}}});
        QCOMPARE(page.gridModel()->rowCount(), 3);
        QCOMPARE(page.gridModel()->sampleAt(0), (GridSample{SampleSource::Train, 4}));
        QCOMPARE(page.gridModel()->sampleAt(1), (GridSample{SampleSource::Test, 7}));
        QCOMPARE(page.gridModel()->sampleAt(2), (GridSample{SampleSource::Test, 1}));
        QVERIFY(page.grid()->title().contains("leaks"));
        const auto newModel = page.experimentForNewModel();
        QVERIFY(newModel);
        QCOMPARE(newModel->dataset.path, std::string("digits"));
        bool sawImage = false;
        for (const auto& input : newModel->model.inputs)
            if (input.name == "image") sawImage = input.shape == Shape{1, 6, 6};
        QVERIFY(sawImage);
        QSignalSpy newModels(&page, &DatasetsPage::newModelRequested);
        page.newModelAction()->trigger();
        QCOMPARE(newModels.count(), 1);
    }

    // 1280x800 at scale 1.5 leaves about 850x530 for the window, 650x450 for the page beside the
    // sidebar under the menus: the page, its panels and its table view must fit in that.
    void pageFitsASmallWindow()
    {
        DatasetsPage page(m_ws);
        page.show();
        const QSize min = page.minimumSizeHint();
        QString parts;
        for (QWidget* w : page.findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
            parts += QString("%1 %2x%3; ").arg(w->metaObject()->className()).arg(w->minimumSizeHint().width()).arg(w->minimumSizeHint().height());
        for (int i = 0; i < page.sidePanels()->count(); ++i)
            parts += QString("tab %1 %2x%3; ").arg(page.sidePanels()->tabText(i)).arg(page.sidePanels()->widget(i)->minimumSizeHint().width())
                         .arg(page.sidePanels()->widget(i)->minimumSizeHint().height());
        QVERIFY2(min.width() <= 500 && min.height() <= 420, qPrintable(QString("%1x%2: %3").arg(min.width()).arg(min.height()).arg(parts)));
    }

    // The page on Fashion-MNIST in the window's room at 1280x800 (beside the sidebar), the grid's
    // thumbnails arrived and a sample in detail: build/screenshots/datasets_page[_scaled].png.
    void screenshotOnFashionMnist()
    {
        if (!QFile::exists(kFashion + "/train-images-idx3-ubyte.gz")) QSKIP("Fashion-MNIST is not installed");
        DatasetsPage page(m_ws);
        page.resize(QSize(1090, 730) / qMax(1.0, qgetenv("QT_SCALE_FACTOR").toDouble()));
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.openPath(kFashion);
        QVERIFY(waitOpened(page));
        QVERIFY(page.opened().ok());
        page.grid()->view()->setCurrentIndex(page.gridModel()->index(0));
        QTRY_VERIFY_WITH_TIMEOUT(!page.detail()->isDecoding() && !page.detail()->decoded().image.isNull(), 10000);
        page.grid()->view()->viewport()->repaint();
        QTRY_VERIFY_WITH_TIMEOUT(page.thumbnails()->queuedCount() == 0 && page.gridModel()->index(5).data(Qt::DecorationRole).isValid(), 10000);
        page.thumbnails()->waitForIdle();
        QCoreApplication::processEvents();
        QDir().mkpath(TS_SCREENSHOT_DIR);
        const QString name = qEnvironmentVariableIsSet("QT_SCALE_FACTOR") ? "datasets_page_scaled.png" : "datasets_page.png";
        QVERIFY(page.grab().save(QString(TS_SCREENSHOT_DIR) + "/" + name));

        // A table: its columns with their histograms, and its rows.
        QString csv = "age,height,colour,score,label\n";
        for (int i = 0; i < 300; ++i)
            csv += QString("%1,%2,%3,%4,%5\n").arg(20 + i % 47).arg(150 + (i * 7919) % 50).arg(QStringList{"red", "green", "blue"}[i % 3])
                       .arg(i % 11 ? QString::number(std::sin(i) * 10, 'f', 2) : QString()).arg(i % 4);
        writeText(m_dir->path() + "/table.csv", csv.toUtf8());
        page.openPath(m_dir->path() + "/table.csv");
        QVERIFY(waitOpened(page));
        QVERIFY2(page.opened().ok(), qPrintable(page.opened().error));
        // The reader judges features by the first row: "score" (empty there) is not one.
        QCOMPARE(page.columnsModel()->featureColumns(), QStringList({"age", "height"}));
        QVERIFY(page.grab().save(QString(TS_SCREENSHOT_DIR) + "/" + QString(name).replace("page", "page_table")));
    }

    // Relabel and exclude write the store's label overlay; the grid marks those samples.
    void marksGoToTheOverlay()
    {
        const QString dir = m_dir->path() + "/digits";
        writeIdx(dir, 10, 0, 3, 3, 2);
        DatasetsPage page(m_ws);
        page.openPath(dir);
        QVERIFY(waitOpened(page));
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy(), 10000);
        QListView* view = page.grid()->view();
        view->selectionModel()->select(page.gridModel()->index(3), QItemSelectionModel::Select);
        page.excludeSelected();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy() && page.overlay().marks.size() == 1, 10000);
        view->selectionModel()->clearSelection();
        view->selectionModel()->select(page.gridModel()->index(6), QItemSelectionModel::Select);
        page.relabelSelected(1);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy() && page.overlay().marks.size() == 2, 10000);
        const LabelOverlay stored = readLabelOverlay(m_ws, page.opened().key().toStdString());
        QCOMPARE(stored.count(LabelMark::Action::Exclude), std::int64_t(1));
        QCOMPARE(stored.count(LabelMark::Action::Relabel), std::int64_t(1));
        QVERIFY(page.gridModel()->index(3).data(SampleGridModel::MarkedRole).toBool());
        QVERIFY(page.gridModel()->index(6).data(Qt::DisplayRole).toString().contains("→"));
        QVERIFY(!page.gridModel()->index(5).data(SampleGridModel::MarkedRole).toBool());
        // Suspect verdicts as a list, with the prediction in the caption.
        page.showSuspects("suspects", {LabelScore{2, 0, 1, 0.9f, 0.05f, -0.85f, true}});
        QCOMPARE(page.gridModel()->rowCount(), 1);
        QVERIFY(page.gridModel()->index(0).data(Qt::DisplayRole).toString().contains(QString::fromUtf8("?\u00a01")));
        view->selectionModel()->select(page.gridModel()->index(0), QItemSelectionModel::Select);
        page.clearSelectedMarks();  // no mark on sample 2: nothing changes
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy(), 10000);
        QCOMPARE(page.overlay().marks.size(), std::size_t(2));

        // The newest label check of this dataset in the store: its suspects, in rank order.
        LabelCheckRecord check;
        check.datasetKey = page.opened().key().toStdString();
        check.method = "k_fold";
        check.samples = 10;
        check.classes = 2;
        check.suspects = 2;
        addLabelCheck(m_ws, check,
                      {LabelScore{7, 1, 0, 0.95f, 0.05f, -0.9f, true}, LabelScore{1, 1, 0, 0.7f, 0.3f, -0.4f, true},
                       LabelScore{4, 0, 0, 0.9f, 0.9f, 0.8f, false}});
        page.loadSuspectLabels();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy() && page.gridModel()->rowCount() == 2, 10000);
        QCOMPARE(page.gridModel()->sampleAt(0).index, std::int64_t(7));
        QCOMPARE(page.gridModel()->sampleAt(1).index, std::int64_t(1));
        QVERIFY(page.grid()->title().contains("K-fold"));
    }

    // File > Open Dataset…: inside a folder of class folders, Open with nothing selected opens
    // that folder; from the folder above, Open with a dataset folder selected opens it rather
    // than stepping in; a class folder (no dataset) is stepped into. The dialog names the
    // layouts it reads; Open Dataset Folder… takes the folder shown as well.
    void openDialogTakesAFolderOfClassFolders()
    {
        const QString flowers = m_dir->path() + "/flowers";
        writeClassFolders(flowers, {"daisy", "rose"}, 3);
        const QString fruit = m_dir->path() + "/fruit";
        writeClassFolders(fruit + "/train", {"apple", "pear", "plum"}, 2);
        writeClassFolders(fruit + "/test", {"apple", "pear", "plum"}, 1);
        DatasetsPage page(m_ws);
        page.resize(900, 600);
        page.show();

        page.showOpenDialog();
        DatasetOpenDialog* dialog = openDialogOf(page);
        QVERIFY(dialog);
        const QString hint = dialog->layoutsLabel()->text();
        QVERIFY2(dialog->layoutsLabel()->isVisible() && hint.contains("one sub-folder of images (PNG, JPEG, WebP, TIFF, BMP or GIF) per class") &&
                     hint.contains("train/ and test/"),
                 qPrintable(hint));
        dialog->setDirectory(flowers);
        QTRY_VERIFY(dialog->openButton()->isEnabled());
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QVERIFY(waitOpened(page));
        QVERIFY2(page.opened().ok(), qPrintable(page.message()));
        QCOMPARE(page.opened().spec.format, std::string("image_folder"));
        QCOMPARE(QString::fromStdString(page.opened().spec.path), QFileInfo(flowers).absoluteFilePath());
        QCOMPARE(page.gridModel()->rowCount(), 6);

        // From the folder above: a class folder selected is stepped into, the dataset folder opened.
        page.showOpenDialog();
        dialog = openDialogOf(page);
        QVERIFY(dialog);
        dialog->setDirectory(flowers);
        dialog->selectFile(flowers + "/daisy");
        QTRY_COMPARE(dialog->selectedFiles(), QStringList{flowers + "/daisy"});
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QTRY_COMPARE(dialog->directory().absolutePath(), QFileInfo(flowers + "/daisy").absoluteFilePath());
        QVERIFY(dialog->isVisible());
        QVERIFY(!page.isOpening());
        dialog->setDirectory(m_dir->path());
        dialog->selectFile(fruit);
        QTRY_COMPARE(dialog->selectedFiles(), QStringList{fruit});
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QVERIFY(waitOpened(page));
        QVERIFY2(page.opened().ok(), qPrintable(page.message()));
        QCOMPARE(QString::fromStdString(page.opened().spec.path), QFileInfo(fruit).absoluteFilePath());
        QCOMPARE(page.opened().files->train->numClasses(), std::int64_t(3));
        QVERIFY(page.opened().files->test);
        // Inside it, train/ selected: the whole dataset (train/ alone would lose the test split).
        page.showOpenDialog();
        dialog = openDialogOf(page);
        QVERIFY(dialog);
        dialog->setDirectory(fruit);
        dialog->selectFile(fruit + "/train");
        QTRY_COMPARE(dialog->selectedFiles(), QStringList{fruit + "/train"});
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QVERIFY(waitOpened(page));
        QCOMPARE(QString::fromStdString(page.opened().spec.path), QFileInfo(fruit).absoluteFilePath());
        QVERIFY(page.opened().files->test);

        // Open Dataset Folder…: the folder shown.
        page.showOpenFolderDialog();
        dialog = openDialogOf(page);
        QVERIFY(dialog);
        QCOMPARE(dialog->fileMode(), QFileDialog::Directory);
        dialog->setDirectory(flowers);
        QTRY_VERIFY(dialog->openButton()->isEnabled());
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QVERIFY(waitOpened(page));
        QCOMPARE(QString::fromStdString(page.opened().spec.path), QFileInfo(flowers).absoluteFilePath());
    }

    // A folder with neither layout: the message says which layouts are read.
    void folderWithNeitherLayoutNamesTheLayouts()
    {
        const QString loose = m_dir->path() + "/loose";  // images, but no class folders
        writeClassFolders(m_dir->path(), {"loose"}, 2);
        DatasetsPage page(m_ws);
        page.openPath(loose);
        QVERIFY(waitOpened(page));
        QVERIFY(!page.opened().ok());
        QVERIFY2(page.message().contains(loose + " holds no dataset that can be read") &&
                     page.message().contains("one sub-folder of images (PNG, JPEG, WebP, TIFF, BMP or GIF) per class") &&
                     page.message().contains("train/ and test/"),
                 qPrintable(page.message()));
        page.openPath(loose, "image_folder");  // read as an image folder anyway: the reader's words, and the layouts
        QVERIFY(waitOpened(page));
        QVERIFY(!page.opened().ok());
        QVERIFY2(page.message().contains("no class sub-directories") && page.message().contains("train/ and test/"),
                 qPrintable(page.message()));
    }

    // The Format box applies to the folder or file the user chose, never to the experiment's
    // dataset; a format that cannot read the chosen folder leaves the dataset shown as it was.
    void formatChangeAppliesToTheChosenPath()
    {
        writeIdx(m_dir->path() + "/digits", 10, 0, 3, 3, 2);
        ExperimentSpec exp;
        exp.sourceFile = (m_dir->path() + "/exp.yaml").toStdString();
        exp.dataset.format = "idx";
        exp.dataset.path = "digits";
        DatasetsPage page(m_ws);
        page.setExperiment(exp);
        QVERIFY(waitOpened(page));
        QVERIFY(page.opened().ok());
        auto* box = page.findChild<QComboBox*>("datasetFormat");
        QCOMPARE(box->currentData().toString(), QString("idx"));  // what is shown

        // The experiment's dataset shown: "CSV table" is for the next one, the IDX data stays.
        chooseFormat(page, "csv");
        QVERIFY(!page.isOpening());
        QVERIFY(page.opened().ok());
        QCOMPARE(page.opened().spec.format, std::string("idx"));
        QCOMPARE(page.gridModel()->rowCount(), 10);
        QVERIFY(!page.findChild<QLabel*>("datasetMessage")->property("error").toBool());
        QVERIFY2(page.message().contains("CSV table"), qPrintable(page.message()));
        // ... and the next one chosen (dropped here) is read as CSV, though its name says nothing.
        const QString table = m_dir->path() + "/measurements.txt";
        writeText(table, "a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n");
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(table)});
        QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&page, &enter);
        QDropEvent drop(QPointF(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&page, &drop);
        QVERIFY(waitOpened(page));
        QVERIFY2(page.opened().ok(), qPrintable(page.message()));
        QCOMPARE(page.opened().spec.format, std::string("csv"));
        QCOMPARE(box->currentData().toString(), QString("csv"));

        // A chosen image folder, then a format that cannot read it: the folder stays shown as
        // an image folder, and the message says what failed.
        const QString flowers = m_dir->path() + "/flowers";
        writeClassFolders(flowers, {"daisy", "rose"}, 3);
        page.openPath(flowers);
        QVERIFY(waitOpened(page));
        QVERIFY(page.opened().ok());
        chooseFormat(page, "idx");
        QVERIFY(page.isOpening());
        QVERIFY(waitOpened(page));
        QVERIFY(page.opened().ok());
        QCOMPARE(page.opened().spec.format, std::string("image_folder"));
        QCOMPARE(page.gridModel()->rowCount(), 6);
        QCOMPARE(box->currentData().toString(), QString("image_folder"));
        QVERIFY(page.findChild<QLabel*>("datasetMessage")->property("error").toBool());
        QVERIFY2(page.message().contains(flowers + " cannot be read as IDX") && page.message().contains("Still shown"),
                 qPrintable(page.message()));
        // A format that reads it is applied to it.
        writeIdx(flowers, 4, 0, 3, 3, 2);  // IDX files beside the class folders
        chooseFormat(page, "idx");
        QVERIFY(waitOpened(page));
        QVERIFY2(page.opened().ok(), qPrintable(page.message()));
        QCOMPARE(page.opened().spec.format, std::string("idx"));
        QCOMPARE(page.gridModel()->rowCount(), 4);
    }

    // A dataset opened from a folder becomes the experiment's by "Use in Experiment".
    void useInExperiment()
    {
        writeIdx(m_dir->path() + "/a", 10, 0, 3, 3, 2);
        writeIdx(m_dir->path() + "/b", 20, 0, 5, 5, 2);
        ExperimentSpec exp;
        exp.sourceFile = (m_dir->path() + "/exp.yaml").toStdString();
        exp.dataset.format = "idx";
        exp.dataset.path = "a";
        exp.dataset.normalizeMean = {0.5};
        exp.dataset.normalizeStd = {0.25};
        DatasetsPage page(m_ws);
        QSignalSpy edits(&page, &DatasetsPage::experimentEdited);
        page.setExperiment(exp);
        QVERIFY(waitOpened(page));
        page.openPath(m_dir->path() + "/b");
        QVERIFY(waitOpened(page));
        QVERIFY(!page.showsExperimentDataset());
        page.applyDatasetEdit([&] { DatasetSpec d = page.opened().spec; d.validationFraction = 0.5; return d; }());
        QCOMPARE(edits.count(), 0);  // only looked at: the experiment keeps its dataset
        page.useInExperiment();
        QCOMPARE(edits.count(), 1);
        const ExperimentSpec sent = edits.last().at(0).value<ExperimentSpec>();
        QCOMPARE(QString::fromStdString(sent.dataset.path), QFileInfo(m_dir->path() + "/b").absoluteFilePath());
        QCOMPARE(sent.dataset.normalizeMean, (std::vector<double>{0.5}));  // one channel still
        QVERIFY(page.showsExperimentDataset());
        QCOMPARE(page.gridModel()->splitSize(SplitView::Validation), std::int64_t(2));  // the experiment's 10 %, not 0.5
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    qRegisterMetaType<ts::ExperimentSpec>();
    TestDatasetsPage test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_datasets_page.moc"
