// The Datasets page's panels (ui/datasets): the statistics histogram against the engine's
// class counts and a click on a bar, the split preview against openDataset, the augmentation
// preview against the engine's sampler and transforms called here, the health report's
// one-click fixes written into the experiment (and through YAML), a stored check shown with
// its findings (the first pairs by their files), a check queued on the studio's job queue, and
// the page's grid: at its top after each change, suspects most suspect first, pairs two by two.
// Small generated IDX datasets.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "data/dataset.h"
#include "data/dataset_health.h"
#include "data/sampler.h"
#include "data/transforms.h"
#include "io/yaml/experiment_yaml.h"
#include "scratch_home.h"
#include "store/dataset_catalog.h"
#include "widgets/image_grid.h"
#include "jobs/label_ranking.h"
#include "ui/datasets/augmentation_preview.h"
#include "ui/datasets/datasets_page.h"
#include "ui/datasets/health_fixes.h"
#include "ui/datasets/health_report_panel.h"
#include "ui/datasets/sample_grid_model.h"
#include "ui/datasets/sample_ref.h"
#include "ui/datasets/split_preview.h"
#include "ui/datasets/statistics_histogram.h"
#include "ui/datasets/statistics_image_sizes.h"
#include "ui/datasets/statistics_panel.h"
#include "ui/train/training_session.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

void put32(Bytes& b, std::uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8) b.push_back(std::uint8_t(v >> s));
}

void writeBytes(const std::string& path, const Bytes& bytes)
{
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// n images of size x size, pixel j of image i = (i * 7 + j * 3) % 256: image i equals image
// i + 256 (so a 300-image train split holds 44 exact duplicates, and the test split's first
// images equal the training ones: planted leaks).
Bytes images(std::uint32_t n, std::uint32_t size)
{
    Bytes b;
    put32(b, 0x803);
    put32(b, n);
    put32(b, size);
    put32(b, size);
    for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t j = 0; j < size * size; ++j) b.push_back(std::uint8_t((i * 7 + j * 3) % 256));
    return b;
}

// Imbalanced: class 0 gets every third sample on top of its share.
std::vector<std::int64_t> labelValues(std::uint32_t n)
{
    std::vector<std::int64_t> y;
    for (std::uint32_t i = 0; i < n; ++i) y.push_back(i % 3 == 0 ? 0 : (i * 7 + 1) % 10);
    return y;
}

Bytes labels(const std::vector<std::int64_t>& y)
{
    Bytes b;
    put32(b, 0x801);
    put32(b, std::uint32_t(y.size()));
    for (auto v : y) b.push_back(std::uint8_t(v));
    return b;
}

void writeIdx(const std::string& dir, std::uint32_t train, std::uint32_t test, std::uint32_t size)
{
    writeBytes(dir + "/train-images-idx3-ubyte", images(train, size));
    writeBytes(dir + "/train-labels-idx1-ubyte", labels(labelValues(train)));
    writeBytes(dir + "/t10k-images-idx3-ubyte", images(test, size));
    writeBytes(dir + "/t10k-labels-idx1-ubyte", labels(labelValues(test)));
}

std::vector<std::int64_t> countsOf(const Dataset& d)
{
    std::vector<std::int64_t> c(std::size_t(d.numClasses()), 0);
    for (auto y : d.labels()) ++c[std::size_t(y)];
    return c;
}

ExperimentSpec experimentFor(const std::string& dataDir, const std::string& loss = "CrossEntropy")
{
    const std::string yaml = "name: panels\ndataset:\n  format: idx\n  path: " + dataDir +
                             "\n  validation_fraction: 0.2\n  split_seed: 7\nmodel:\n  layers:\n    - Flatten\n"
                             "    - Linear: {out_features: 10}\n    - " + loss + "\ntraining: {epochs: 1, batch_size: 16, seed: 11, device: cpu}\n";
    return parseExperiment(yaml, "panels.yaml");
}

}  // namespace

class TestDatasetsPanels : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::string m_data, m_cache;
    DatasetSpec m_spec;
    std::shared_ptr<const DatasetFiles> m_files;

    DatasetSplits engineSplits(const DatasetSpec& spec) const { return openDataset(spec, std::string(), m_cache); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_data = m_tmp.filePath("idx").toStdString();
        m_cache = m_tmp.filePath("cache").toStdString();
        fs::create_directories(m_cache);
        writeIdx(m_data, 300, 60, 8);
        m_spec.format = "idx";
        m_spec.path = m_data;
        m_spec.validationFraction = 0.2;
        m_spec.splitSeed = 7;
        m_files = std::make_shared<const DatasetFiles>(openDatasetFiles(m_spec, std::string()));
    }

    // Bars per split equal the engine's class counts of the splits openDataset makes; the
    // statistics are openDataset's; the imbalance ratio is largest / smallest.
    void histogramCountsEqualEngine()
    {
        ui::StatisticsPanel panel;
        panel.setCacheDirectory(QString::fromStdString(m_cache));
        QSignalSpy ready(&panel, &ui::StatisticsPanel::statisticsChanged);
        panel.setData(m_files, m_spec);
        const DatasetSplits splits = engineSplits(m_spec);
        QCOMPARE(panel.splits(), QStringList({"train", "validation", "test"}));
        const std::shared_ptr<Dataset> parts[] = {splits.train, splits.validation, splits.test};
        for (int s = 0; s < 3; ++s) {
            const auto expected = countsOf(*parts[s]);
            QCPBars* bars = panel.histogram()->bars(s);
            QVERIFY(bars);
            QCOMPARE(bars->data()->size(), int(expected.size()));
            for (int c = 0; c < int(expected.size()); ++c) QCOMPARE(bars->data()->at(c)->value, double(expected[std::size_t(c)]));
            const auto [lo, hi] = std::minmax_element(expected.begin(), expected.end());
            QCOMPARE(ui::imbalanceRatio(expected), double(*hi) / double(*lo));
        }
        const auto train = countsOf(*splits.train);
        const double ratio = double(*std::max_element(train.begin(), train.end())) / double(*std::min_element(train.begin(), train.end()));
        QVERIFY2(panel.summaryLabel()->text().contains(QLocale().toString(ratio, 'f', 2)), qPrintable(panel.summaryLabel()->text()));
        QVERIFY(ready.wait(10000));
        QVERIFY(panel.trainStatistics());
        QCOMPARE(panel.trainStatistics()->mean, splits.trainStatistics.mean);
        QCOMPARE(panel.trainStatistics()->stddev, splits.trainStatistics.stddev);
        QCOMPARE(panel.channelTable()->rowCount(), 1);
        QCOMPARE(panel.channelTable()->item(0, 1)->text(), QLocale().toString(splits.trainStatistics.mean[0], 'f', 4));
    }

    // A click at a bar's pixel (from the plot's coordToPixel) names its split and class,
    // including a small bar and the last split.
    void barClickEmitsSplitAndClass()
    {
        ui::StatisticsPanel panel;
        panel.setCacheDirectory(QString::fromStdString(m_cache));
        panel.setData(m_files, m_spec);
        panel.resize(900, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* plot = panel.histogram();
        plot->replot();
        QSignalSpy clicked(&panel, &ui::StatisticsPanel::classClicked);
        const std::pair<int, int> targets[] = {{0, 0}, {1, 3}, {2, 9}, {2, 4}};
        const QString names[] = {"train", "validation", "test"};
        for (const auto& [split, c] : targets) {
            const QPointF at = plot->barCenter(split, c);
            // The pixel maps back to the bar's key: the position comes from the plot's own axes.
            const double key = plot->xAxis->pixelToCoord(at.x());
            QVERIFY(std::abs(key - (c + (split - 1) * 0.8 / 3)) < 0.01);
            QTest::mouseClick(plot, Qt::LeftButton, {}, at.toPoint());
            QCOMPARE(clicked.count(), 1);
            QCOMPARE(clicked.takeFirst(), QVariantList({names[split], c}));
        }
        // Between two classes' columns: nothing.
        const QPointF gap((plot->xAxis->coordToPixel(0.5)), plot->yAxis->coordToPixel(1));
        QTest::mouseClick(plot, Qt::LeftButton, {}, gap.toPoint());
        QCOMPARE(clicked.count(), 0);
    }

    // An image folder: the files' original sizes, read from their headers (PNG and JPEG),
    // counted per size; a file that is no image is counted apart.
    void imageFolderSizes()
    {
        const QString root = m_tmp.filePath("folder");
        const struct {
            const char* cls;
            int w, h;
            const char* format;
        } files[] = {{"cat", 20, 10, "PNG"}, {"cat", 20, 10, "JPG"}, {"cat", 33, 17, "PNG"}, {"dog", 20, 10, "PNG"},
                     {"dog", 64, 48, "JPG"}, {"dog", 20, 10, "PNG"}};
        int k = 0;
        for (const auto& f : files) {
            QDir().mkpath(root + "/train/" + f.cls);
            QImage image(f.w, f.h, QImage::Format_RGB888);
            image.fill(QColor(10 * k, 100, 200));
            QVERIFY(image.save(QString("%1/train/%2/%3.%4").arg(root, f.cls).arg(k++).arg(QString(f.format).toLower()), f.format));
        }
        DatasetSpec spec;
        spec.format = "image_folder";
        spec.path = root.toStdString();
        spec.imageShape = {3, 8, 8};
        spec.validationFraction = 0;
        const auto opened = std::make_shared<const DatasetFiles>(openDatasetFiles(spec, std::string()));
        QCOMPARE(ui::imageFileSize(opened->sources.front()).first > 0, true);
        ui::StatisticsPanel panel;
        panel.setCacheDirectory(QString::fromStdString(m_cache));
        QSignalSpy ready(&panel, &ui::StatisticsPanel::statisticsChanged);
        panel.setData(opened, spec);
        QVERIFY(ready.wait(10000));
        QVERIFY(panel.imageSizes());
        const auto& d = *panel.imageSizes();
        QCOMPARE(d.files, std::int64_t(6));
        QCOMPARE(d.looked, std::int64_t(6));
        QCOMPARE(d.unreadable, std::int64_t(0));
        QCOMPARE(d.counts.size(), std::size_t(3));
        QCOMPARE(d.counts.at({20, 10}), std::int64_t(4));
        QCOMPARE(d.counts.at({33, 17}), std::int64_t(1));
        QCOMPARE(d.counts.at({64, 48}), std::int64_t(1));
        QCOMPARE(std::make_pair(d.minWidth, d.maxWidth), std::make_pair(20, 64));
        QCOMPARE(std::make_pair(d.minHeight, d.maxHeight), std::make_pair(10, 48));
        QCOMPARE(panel.channelTable()->rowCount(), 3);  // red, green, blue
        // Said in words although the panel was never shown (issue 44: a hidden tab kept no text).
        const auto* sizes = panel.findChild<QLabel*>(QStringLiteral("imageSizes"));
        QVERIFY(sizes && !sizes->isHidden());
        QVERIFY2(sizes->text().contains(QStringLiteral("20×10: 4")), qPrintable(sizes->text()));
        // Not an image at all, and a truncated PNG: no size.
        const std::string junk = m_tmp.filePath("junk.png").toStdString();
        writeBytes(junk, Bytes{0x89, 'P', 'N', 'G'});
        QCOMPARE(ui::imageFileSize(junk), std::make_pair(-1, -1));
        QCOMPARE(ui::imageFileSize(m_data + "/train-labels-idx1-ubyte"), std::make_pair(-1, -1));
    }

    // The split preview's counts are openDataset's for the same settings, and follow the
    // fraction as it is typed; an invalid fraction is refused with the reason.
    void splitPreviewFollowsTheEngine()
    {
        ui::SplitPreview preview;
        preview.setSpec(m_spec, m_files);
        preview.show();
        auto expectCounts = [&](const DatasetSpec& spec) {
            const DatasetSplits splits = engineSplits(spec);
            std::vector<std::shared_ptr<Dataset>> parts{splits.train};
            if (splits.validation) parts.push_back(splits.validation);
            parts.push_back(splits.test);
            QCOMPARE(preview.counts().size(), parts.size());
            for (std::size_t s = 0; s < parts.size(); ++s) {
                QCOMPARE(preview.counts()[s].counts, countsOf(*parts[s]));
                QCOMPARE(preview.counts()[s].total, parts[s]->size());
            }
        };
        expectCounts(m_spec);
        QCOMPARE(preview.table()->item(preview.table()->rowCount() - 1, 1)->text(), QStringLiteral("60"));

        QSignalSpy edited(&preview, &ui::SplitPreview::specEdited);
        QLineEdit* fraction = preview.fractionField();
        fraction->setFocus();
        fraction->selectAll();
        QTest::keyClicks(fraction, "0.5");
        DatasetSpec half = m_spec;
        half.validationFraction = 0.5;
        expectCounts(half);  // at once, before the edit is committed
        QCOMPARE(edited.count(), 0);
        QTest::keyClick(fraction, Qt::Key_Return);
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.takeFirst().at(0).value<DatasetSpec>().validationFraction, 0.5);

        QLineEdit* seed = preview.seedField();
        seed->selectAll();
        QTest::keyClicks(seed, "12345");
        half.splitSeed = 12345;
        expectCounts(half);
        QTest::keyClick(seed, Qt::Key_Return);
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.takeFirst().at(0).value<DatasetSpec>().splitSeed, std::uint64_t(12345));

        fraction->selectAll();
        QTest::keyClicks(fraction, "1.2");
        QVERIFY(preview.refusal().contains("below 1"));
        expectCounts(half);  // the last valid counts stay
        QTest::keyClick(fraction, Qt::Key_Return);
        QCOMPARE(edited.count(), 0);
        fraction->selectAll();
        QTest::keyClicks(fraction, "0");
        QVERIFY(preview.refusal().isEmpty());
        DatasetSpec none = half;
        none.validationFraction = 0;
        expectCounts(none);  // no validation split at all
    }

    // A CSV's group column: chosen in the preview, read again on a worker by the engine's
    // reader, and the counts are openDataset's grouped carve.
    void splitPreviewGroupColumn()
    {
        const std::string csv = m_tmp.filePath("table.csv").toStdString();
        {
            std::ofstream out(csv);
            out << "patient,x,label\n";
            for (int i = 0; i < 120; ++i) out << "p" << (i / 4) << ',' << i * 0.5 << ',' << (i % 3 == 0 ? "a" : "b") << '\n';
        }
        DatasetSpec spec;
        spec.format = "csv";
        spec.path = csv;
        spec.labelColumn = "label";
        spec.featureColumns = {"x"};
        spec.validationFraction = 0.25;
        auto files = std::make_shared<const DatasetFiles>(openDatasetFiles(spec, std::string()));
        ui::SplitPreview preview;
        preview.setSpec(spec, files);
        QComboBox* group = preview.groupField();
        const int patient = group->findData(QStringLiteral("patient"));
        QVERIFY(patient > 0);
        QSignalSpy edited(&preview, &ui::SplitPreview::specEdited);
        group->setCurrentIndex(patient);
        emit group->activated(patient);
        QVERIFY(edited.wait(10000));
        QCOMPARE(edited.takeFirst().at(0).value<DatasetSpec>().groupColumn, std::string("patient"));
        spec.groupColumn = "patient";
        const DatasetSplits splits = engineSplits(spec);
        QCOMPARE(preview.counts().size(), std::size_t(2));
        QCOMPARE(preview.counts()[0].counts, countsOf(*splits.train));
        QCOMPARE(preview.counts()[1].counts, countsOf(*splits.validation));
        QCOMPARE(preview.counts()[1].total % 4, std::int64_t(0));  // whole patients
    }

    // The 16 views are the sample at its first 16 appearances in training: the positions
    // come from the experiment's sampler, each view from Transforms::draw/apply, all called
    // here; the picture shows the normalisation undone.
    void augmentationViewsEqualTheEngine()
    {
        DatasetSpec spec = m_spec;
        spec.randomCropPadding = 2;
        spec.horizontalFlip = true;
        spec.normalizeMean = {0.5};
        spec.normalizeStd = {0.25};
        const DatasetSplits splits = engineSplits(spec);
        const std::uint64_t seed = 11;
        const std::int64_t batch = 16, index = 5;
        ui::AugmentationPreview preview;
        QSignalSpy changed(&preview, &ui::AugmentationPreview::previewChanged);
        preview.setSpec(spec, seed, batch);
        preview.setStatistics(splits.trainStatistics);
        preview.setSample(splits.train, index);
        QTRY_VERIFY_WITH_TIMEOUT(!preview.isComputing() && preview.views().size() == 16, 10000);

        const Transforms transforms(spec, splits.trainStatistics, splits.train->sampleShape(), true);
        const auto sampler = makeSampler("random", splits.train->labels(), splits.train->numClasses(), {}, true, seed);
        const std::int64_t used = sampler->size() / batch * batch;
        std::vector<float> raw(std::size_t(splits.train->sampleShape().numel())), scratch;
        splits.train->get(index, raw.data());
        std::size_t k = 0;
        int flips = 0, shifted = 0;
        for (std::int64_t epoch = 0; k < 16; ++epoch) {
            const auto order = sampler->epochOrder(epoch);
            for (std::int64_t p = 0; p < used && k < 16; ++p) {
                if (order[std::size_t(p)] != index) continue;
                const auto& view = preview.views()[k++];
                QCOMPARE(view.epoch, epoch);
                QCOMPARE(view.position, p);
                const Augmentation a = transforms.draw(seed, epoch, p);
                std::vector<float> x = raw;
                transforms.apply(x.data(), a, scratch);
                QCOMPARE(view.values, x);
                flips += a.flip;
                shifted += a.cropX != 2 || a.cropY != 2;
                // Shown: the value the model gets, normalisation undone (x * std + mean).
                QCOMPARE(view.image.size(), QSize(8, 8));
                for (int y = 0; y < 8; ++y)
                    for (int col = 0; col < 8; ++col) {
                        const float shown = x[std::size_t(y * 8 + col)] * 0.25f + 0.5f;
                        const int expected = int(std::lround(std::clamp(shown, 0.f, 1.f) * 255));
                        QVERIFY(std::abs(qGray(view.image.pixel(col, y)) - expected) <= 1);
                    }
            }
        }
        QVERIFY(flips > 0 && flips < 16);  // the flip really varies, as do the crops
        QVERIFY(shifted > 8);

        // An edit is emitted and redraws; a mean per channel the engine refuses is not.
        QSignalSpy edited(&preview, &ui::AugmentationPreview::specEdited);
        changed.clear();
        preview.paddingField()->setValue(3);
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.takeFirst().at(0).value<DatasetSpec>().randomCropPadding, std::int64_t(3));
        QTRY_VERIFY_WITH_TIMEOUT(!preview.isComputing() && preview.views().size() == 16, 10000);
        QCOMPARE(preview.views().front().augmentation.cropX, Transforms([&] { auto s = spec; s.randomCropPadding = 3; return s; }(),
                                                                         splits.trainStatistics, splits.train->sampleShape(), true)
                                                                  .draw(seed, preview.views().front().epoch, preview.views().front().position)
                                                                  .cropX);
        preview.meanField()->setText("0.5, 0.4");
        emit preview.meanField()->editingFinished();
        QCOMPARE(edited.count(), 0);
        QVERIFY2(preview.refusal().contains("1 means"), qPrintable(preview.refusal()));
        preview.stdField()->setText("-1");
        preview.meanField()->setText("0.5");
        emit preview.stdField()->editingFinished();
        QCOMPARE(edited.count(), 0);
        QVERIFY(preview.refusal().contains("above 0"));
    }

    // The one-click fixes: the CrossEntropy node's class_weights become n / (k * count_c) of
    // the training split (after the validation carve), or the sampler class_balanced; each
    // removes the other, and both survive a YAML round trip.
    void oneClickFixesWriteTheExperiment()
    {
        const ExperimentSpec experiment = experimentFor(m_data);
        ui::HealthReportPanel panel(nullptr);
        panel.setExperiment(experiment);
        panel.setFiles(m_files);
        QSignalSpy edited(&panel, &ui::HealthReportPanel::experimentEdited);
        QVERIFY(panel.weightsButton()->isEnabled());
        QTest::mouseClick(panel.weightsButton(), Qt::LeftButton);
        QCOMPARE(edited.count(), 1);
        const ExperimentSpec weighted = edited.takeFirst().at(0).value<ExperimentSpec>();
        const auto counts = countsOf(*engineSplits(experiment.dataset).train);
        std::int64_t n = 0;
        for (auto c : counts) n += c;
        const auto& loss = weighted.model.nodes.back();
        QCOMPARE(loss.op, std::string("CrossEntropy"));
        const auto weights = std::get<std::vector<double>>(loss.attrs.get("class_weights"));
        QCOMPARE(weights.size(), counts.size());
        for (std::size_t c = 0; c < counts.size(); ++c) {
            const double expected = double(n) / (double(counts.size()) * double(counts[c]));
            QVERIFY2(std::abs(weights[c] - expected) <= 5e-4 * expected, qPrintable(QString::number(weights[c])));
        }
        QVERIFY(weights.front() < 1 && weights.back() > 1);  // class 0 is the large one
        QCOMPARE(weighted.dataset, experiment.dataset);      // nothing else changed
        QCOMPARE(weighted.optimizer, experiment.optimizer);

        QTemporaryDir dir;
        const std::string path = dir.filePath("fixed.yaml").toStdString();
        saveExperiment(weighted, path);
        const ExperimentSpec loaded = loadExperiment(path);
        QCOMPARE(std::get<std::vector<double>>(loaded.model.nodes.back().attrs.get("class_weights")), weights);

        panel.setExperiment(weighted);
        QTest::mouseClick(panel.samplerButton(), Qt::LeftButton);
        QCOMPARE(edited.count(), 1);
        const ExperimentSpec balanced = edited.takeFirst().at(0).value<ExperimentSpec>();
        QCOMPARE(balanced.dataset.sampler, std::string("class_balanced"));
        QVERIFY(!ui::HealthFixes::usesLossClassWeights(balanced));
        saveExperiment(balanced, path);
        QCOMPARE(loadExperiment(path).dataset.sampler, std::string("class_balanced"));
        QVERIFY(!panel.samplerButton()->isEnabled());  // in use already

        // A model whose loss is not CrossEntropy: refused with the reason, nothing emitted.
        ui::HealthReportPanel other(nullptr);
        ExperimentSpec mse = experiment;
        mse.model.nodes.back().op = "MSE";
        other.setExperiment(mse);
        other.setFiles(m_files);
        QSignalSpy otherEdited(&other, &ui::HealthReportPanel::experimentEdited);
        QTest::mouseClick(other.weightsButton(), Qt::LeftButton);
        QCOMPARE(otherEdited.count(), 0);
        QVERIFY(other.refusal().contains("CrossEntropy"));
    }

    // A check stored in the workspace is shown with its counts, current while the files are
    // unchanged; Show lists the findings' samples (pairs side by side); a changed file makes
    // it stale.
    void healthPanelShowsStoredCheck()
    {
        QTemporaryDir ws;
        const Workspace workspace = Workspace::open(ws.path().toStdString());
        const std::string data = m_tmp.filePath("idx_health").toStdString();
        writeIdx(data, 300, 60, 8);
        ExperimentSpec experiment = experimentFor(data);
        const auto files = std::make_shared<const DatasetFiles>(openDatasetFiles(experiment.dataset, std::string()));
        const HealthReport report = checkDatasetHealth(*files);
        QCOMPARE(report.total(FindingKind::ExactDuplicate), std::int64_t(44));  // planted
        QVERIFY(report.total(FindingKind::ExactLeak) > 0);
        {
            DatasetCatalog catalog(workspace);
            const auto id = catalog.remember(datasetRecordFor(experiment.dataset, std::string(), *files));
            catalog.saveCheck(id, datasetFingerprint(*files), report);
        }
        ui::HealthReportPanel panel(nullptr);
        QSignalSpy read(&panel, &ui::HealthReportPanel::reportChanged);
        panel.setWorkspace(workspace);
        panel.setExperiment(experiment);
        panel.setFiles(files);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isReading() && panel.check().has_value(), 10000);
        QVERIFY(panel.isCurrent());
        QVERIFY(panel.statusLabel()->text().contains("unchanged"));
        auto rowOf = [&](FindingKind k) {
            for (int r = 0; r < panel.table()->rowCount(); ++r)
                if (panel.table()->item(r, 0)->data(Qt::UserRole).toString() == findingKindName(k)) return r;
            return -1;
        };
        for (FindingKind k : {FindingKind::Unreadable, FindingKind::ExactDuplicate, FindingKind::ExactLeak,
                              FindingKind::NearDuplicate, FindingKind::NearLeak}) {
            const int row = rowOf(k);
            QVERIFY2(row >= 0, findingKindName(k));
            QCOMPARE(panel.table()->item(row, 0)->data(Qt::UserRole + 1).toLongLong(), qlonglong(report.total(k)));
            QVERIFY(panel.table()->item(row, 0)->text().contains(": " + QLocale().toString(qlonglong(report.total(k)))));
        }
        QVERIFY(!panel.showButton(FindingKind::Unreadable)->isEnabled());
        // The first pairs are named by where their samples come from (the IDX file and image,
        // relative to the dataset's folder), then how many more there are.
        const auto firstDuplicate = std::find_if(report.findings.begin(), report.findings.end(),
                                                 [](const HealthFinding& f) { return f.kind == FindingKind::ExactDuplicate; });
        QVERIFY(firstDuplicate != report.findings.end() && !firstDuplicate->otherFile.empty());
        const QString duplicates = panel.table()->item(rowOf(FindingKind::ExactDuplicate), 0)->text();
        QVERIFY2(duplicates.contains(QString::fromStdString(fs::path(firstDuplicate->file).filename().string() + " = " +
                                                            fs::path(firstDuplicate->otherFile).filename().string())),
                 qPrintable(duplicates));
        QVERIFY2(!duplicates.contains(QString::fromStdString(data) + "/"), qPrintable(duplicates));  // relative names
        QVERIFY2(duplicates.contains("and 41 more"), qPrintable(duplicates));  // 44 pairs, 3 named
        QVERIFY(panel.table()->item(rowOf(FindingKind::ExactDuplicate), 0)->toolTip().contains(QString::fromStdString(data) + "/"));

        QSignalSpy shown(&panel, &ui::HealthReportPanel::showSamples);
        QTest::mouseClick(panel.showButton(FindingKind::ExactLeak), Qt::LeftButton);
        QVERIFY(shown.wait(10000));
        const auto refs = shown.takeFirst().at(1).value<QVector<ui::SampleRef>>();
        std::vector<HealthFinding> leaks;
        for (const auto& f : report.findings)
            if (f.kind == FindingKind::ExactLeak) leaks.push_back(f);
        QCOMPARE(refs.size(), qsizetype(leaks.size()));
        for (qsizetype i = 0; i < refs.size(); ++i) {
            QCOMPARE(refs[i].split.toStdString(), leaks[std::size_t(i)].split);
            QCOMPARE(refs[i].index, leaks[std::size_t(i)].sample);
            QCOMPARE(refs[i].pairSplit.toStdString(), leaks[std::size_t(i)].otherSplit);
            QCOMPARE(refs[i].pairWith, leaks[std::size_t(i)].otherSample);
            QVERIFY(refs[i].split != refs[i].pairSplit);  // across splits
        }

        // The files change: the stored check is out of date.
        QTest::qWait(1100);  // a new modification time, whatever the file system's resolution
        writeBytes(data + "/train-labels-idx1-ubyte", labels(std::vector<std::int64_t>(300, 1)));
        panel.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isReading(), 10000);
        QVERIFY(panel.check().has_value());
        QVERIFY(!panel.isCurrent());
        QVERIFY(panel.statusLabel()->text().contains("out of date"));
    }

    // Seen: lists opened where the previous content had been scrolled to, suspect labels not
    // most suspect first, and duplicate pairs wrapped across rows. Now the grid starts at the
    // top whenever its content changes, suspects come most suspect first (the check's order,
    // whatever order they are handed over in), and pairs are shown two by two.
    void gridStartsAtTopWithPairsAndSuspectsInOrder()
    {
        QTemporaryDir ws;
        ui::DatasetsPage page(Workspace::open(ws.path().toStdString()));
        page.resize(1000, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy opened(&page, &ui::DatasetsPage::datasetOpened);
        page.openPath(QString::fromStdString(m_data), "idx");
        QVERIFY(opened.count() > 0 || opened.wait(30000));
        QVERIFY(page.opened().ok());
        QListView* view = page.grid()->view();
        QScrollBar* bar = view->verticalScrollBar();
        auto scrollDown = [&] {
            QTRY_VERIFY(bar->maximum() > 0);
            view->scrollToBottom();
            QTRY_VERIFY(bar->value() > 0);
        };
        scrollDown();
        page.showClass("files", 0);  // another class: its first samples
        QTRY_COMPARE(bar->value(), 0);

        // Suspects handed over in the wrong order: listed by p(given), lowest first.
        std::vector<LabelScore> scores;
        for (int i = 0; i < 200; ++i)
            scores.push_back({i, 1, 0, 0.9f, float((i * 37) % 200) / 400.0f, -0.5f, true});
        scrollDown();
        page.showSuspects("suspects", scores);
        QTRY_COMPARE(bar->value(), 0);
        QCOMPARE(page.gridModel()->rowCount(), 200);
        std::vector<LabelScore> expected = scores;
        std::sort(expected.begin(), expected.end(), moreSuspect);
        for (int r = 0; r < 200; ++r) QCOMPARE(page.gridModel()->sampleAt(r).index, expected[std::size_t(r)].sample);
        QCOMPARE(page.gridModel()->sampleAt(0).index, std::int64_t(0));  // p(given) 0: the most suspect

        // Pairs: two by two, each pair on one row, the grid at its top again.
        QVector<ui::SampleRef> refs;
        for (int i = 0; i < 44; ++i) refs.push_back({"train", 256 + i, i, "train"});
        scrollDown();
        page.showSampleRefs("duplicates", refs);
        QTRY_COMPARE(bar->value(), 0);
        QVERIFY(page.grid()->pairs());
        QCOMPARE(page.gridModel()->rowCount(), 88);
        // Each sample's tool tip says where it comes from (here the IDX file and image).
        QVERIFY2(page.gridModel()->index(0).data(Qt::ToolTipRole).toString().contains(
                     QString::fromStdString("From: " + m_data + "/train-images-idx3-ubyte, image 256")),
                 qPrintable(page.gridModel()->index(0).data(Qt::ToolTipRole).toString()));
        for (const int width : {1000, 730, 560}) {
            page.resize(width, 700);
            QTest::qWait(80);
            for (int row = 0; row < 88; row += 2) {
                const QRect a = view->visualRect(page.gridModel()->index(row)), b = view->visualRect(page.gridModel()->index(row + 1));
                QVERIFY2(a.top() == b.top() && b.left() > a.left(),
                         qPrintable(QString("pair %1 split at width %2").arg(row / 2).arg(width)));
            }
        }
        page.showClass("files", -1);  // a plain list again: no pairs
        QVERIFY(!page.grid()->pairs());

        // A newly opened dataset starts at its top too.
        const std::string other = m_tmp.filePath("idx_other").toStdString();
        writeIdx(other, 400, 10, 8);
        scrollDown();
        opened.clear();
        page.openPath(QString::fromStdString(other), "idx");
        QVERIFY(opened.count() > 0 || opened.wait(30000));
        QCOMPARE(page.gridModel()->rowCount(), 400);
        QTRY_COMPARE(bar->value(), 0);
    }

    // Check now queues a DataCheckJob on the studio's job queue; when it ends the panel reads
    // the new check from the store.
    void checkNowRunsOnTheJobQueue()
    {
        QTemporaryDir ws;
        const Workspace workspace = Workspace::open(ws.path().toStdString());
        ui::TrainingSession session;
        ui::HealthReportPanel panel(&session);
        panel.setWorkspace(workspace);
        panel.setExperiment(experimentFor(m_data));
        panel.setFiles(m_files);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isReading(), 10000);
        QVERIFY(!panel.check());
        QVERIFY(panel.checkButton()->isEnabled());
        QTest::mouseClick(panel.checkButton(), Qt::LeftButton);
        QVERIFY(panel.isChecking());
        QVERIFY(!panel.checkButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isChecking() && !panel.isReading() && panel.check().has_value(), 20000);
        QVERIFY(panel.isCurrent());
        QCOMPARE(panel.check()->report.total(FindingKind::ExactDuplicate), std::int64_t(44));
        QCOMPARE(session.jobs().size(), qsizetype(1));
        QCOMPARE(session.jobs().front().kind, QStringLiteral("data_check"));
    }

    // Real Fashion-MNIST (70,000 images): what the UI thread spends on a fraction edit (the
    // recount over 60,000 labels) and how long the worker takes for 16 training views; the
    // counts are openDataset's. Numbers printed; skipped where the data is not installed.
    void fashionMnistTimes()
    {
        const std::string dir = "/usr/share/datasets/fashion-mnist";
        if (!fs::exists(dir + "/train-labels-idx1-ubyte.gz")) QSKIP("Fashion-MNIST is not installed");
        DatasetSpec spec;
        spec.format = "idx";
        spec.path = dir;
        spec.randomCropPadding = 4;
        spec.horizontalFlip = true;
        spec.normalizeFromStatistics = true;
        const auto files = std::make_shared<const DatasetFiles>(openDatasetFiles(spec, std::string()));
        const DatasetSplits splits = engineSplits(spec);
        ui::SplitPreview preview;
        preview.setSpec(spec, files);
        QCOMPARE(preview.counts()[1].counts, countsOf(*splits.validation));
        QElapsedTimer timer;
        timer.start();
        const int edits = 20;
        for (int i = 0; i < edits; ++i) {
            preview.fractionField()->setText(QString::number(0.05 + 0.01 * i));
            emit preview.fractionField()->textEdited(preview.fractionField()->text());
        }
        const double perEdit = double(timer.nsecsElapsed()) / 1e6 / edits;
        QCOMPARE(preview.counts()[1].total, std::int64_t(std::llround(0.24 * 60000)));
        qInfo("split preview: %.2f ms of UI thread per fraction edit on 60,000 labels", perEdit);
        QVERIFY2(perEdit < 50, "a fraction edit must not stall the UI thread");

        ui::AugmentationPreview augmentation;
        augmentation.setSpec(spec, 0, 128);
        augmentation.setStatistics(splits.trainStatistics);
        timer.restart();
        augmentation.setSample(splits.train, 123);
        const double uiMs = double(timer.nsecsElapsed()) / 1e6;
        QTRY_VERIFY_WITH_TIMEOUT(!augmentation.isComputing() && augmentation.views().size() == 16, 20000);
        qInfo("augmentation preview: %.2f ms on the UI thread, %.0f ms until 16 views of a 54,000-sample epoch order",
              uiMs, double(timer.nsecsElapsed()) / 1e6);

        ui::StatisticsPanel statistics;
        statistics.setCacheDirectory(QString::fromStdString(m_cache));
        QSignalSpy ready(&statistics, &ui::StatisticsPanel::statisticsChanged);
        timer.restart();
        statistics.setData(files, spec);
        const double setMs = double(timer.nsecsElapsed()) / 1e6;
        QVERIFY(ready.wait(20000));
        QCOMPARE(statistics.trainStatistics()->mean, splits.trainStatistics.mean);
        qInfo("statistics panel: %.2f ms on the UI thread, %.0f ms until the cached statistics arrived", setMs,
              double(timer.nsecsElapsed()) / 1e6);
        statistics.resize(576, 700);
        statistics.show();
        QVERIFY(QTest::qWaitForWindowExposed(&statistics));
        QDir().mkpath(TS_SCREENSHOT_DIR);
        QVERIFY(statistics.grab().save(TS_SCREENSHOT_DIR "/datasets_statistics_fashion_mnist.png"));
        augmentation.resize(576, 700);
        augmentation.show();
        QVERIFY(QTest::qWaitForWindowExposed(&augmentation));
        QVERIFY(augmentation.grab().save(TS_SCREENSHOT_DIR "/datasets_augmentation_fashion_mnist.png"));
    }

    // Each panel in the room the page gives it at 1280x800 (a side area of about 45% of the
    // width under the page's bar; at QT_SCALE_FACTOR=1.5 that is 1.5x fewer logical pixels):
    // its minimum size fits, and no label, button or field is cut. PNGs to look at.
    void screenshotsFitThePage()
    {
        const double scale = qEnvironmentVariable("QT_SCALE_FACTOR", "1").toDouble();
        const QSize slot(int(1280 / scale * 0.45), int(800 / scale) - 100);
        DatasetSpec spec = m_spec;
        spec.randomCropPadding = 2;
        spec.horizontalFlip = true;
        spec.normalizeFromStatistics = true;
        const DatasetSplits splits = engineSplits(spec);
        QTemporaryDir ws;
        const Workspace workspace = Workspace::open(ws.path().toStdString());
        ExperimentSpec experiment = experimentFor(m_data);
        {
            DatasetCatalog catalog(workspace);
            const auto id = catalog.remember(datasetRecordFor(experiment.dataset, std::string(), *m_files));
            catalog.saveCheck(id, datasetFingerprint(*m_files), checkDatasetHealth(*m_files));
        }
        ui::StatisticsPanel statistics;
        statistics.setCacheDirectory(QString::fromStdString(m_cache));
        statistics.setData(m_files, spec);
        ui::SplitPreview split;
        split.setSpec(spec, m_files);
        ui::AugmentationPreview augmentation;
        augmentation.setSpec(spec, 11, 16);
        augmentation.setStatistics(splits.trainStatistics);
        augmentation.setSample(splits.train, 5);
        ui::HealthReportPanel health(nullptr);
        health.setWorkspace(workspace);
        health.setExperiment(experiment);
        health.setFiles(m_files);
        QTRY_VERIFY_WITH_TIMEOUT(!statistics.isComputing() && !augmentation.isComputing() && !health.isReading() &&
                                     health.check().has_value(), 10000);
        const std::pair<QWidget*, const char*> panels[] = {
            {&statistics, "statistics"}, {&split, "split"}, {&augmentation, "augmentation"}, {&health, "health"}};
        QDir().mkpath(TS_SCREENSHOT_DIR);
        for (const auto& [panel, name] : panels) {
            const QSize minimum = panel->minimumSizeHint();
            QVERIFY2(minimum.width() <= slot.width() && minimum.height() <= slot.height(),
                     qPrintable(QString("%1: minimum %2x%3, room %4x%5").arg(name).arg(minimum.width()).arg(minimum.height())
                                    .arg(slot.width()).arg(slot.height())));
            panel->resize(slot);
            panel->show();
            QVERIFY(QTest::qWaitForWindowExposed(panel));
            QTest::qWait(50);
            for (const QLabel* l : panel->findChildren<QLabel*>()) {
                if (!l->isVisibleTo(panel) || l->text().isEmpty()) continue;
                if (l->wordWrap())
                    QVERIFY2(l->heightForWidth(l->width()) <= l->height() + 1, qPrintable(QString("%1: %2").arg(name, l->text())));
                else
                    QVERIFY2(l->width() >= l->sizeHint().width(), qPrintable(QString("%1: %2").arg(name, l->text())));
            }
            for (const QPushButton* b : panel->findChildren<QPushButton*>())
                if (b->isVisibleTo(panel)) QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(QString("%1: %2").arg(name, b->text())));
            for (const QComboBox* c : panel->findChildren<QComboBox*>())
                if (c->isVisibleTo(panel)) QVERIFY2(c->width() >= c->minimumSizeHint().width(), name);
            const QString png = QString("%1/datasets_%2_scale%3.png").arg(TS_SCREENSHOT_DIR, name).arg(scale);
            QVERIFY(panel->grab().save(png));
            qInfo("%s (%dx%d)", qPrintable(png), panel->width(), panel->height());
            panel->hide();
        }
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;  // a scratch HOME before Qt starts: no user cache or settings touched
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    TestDatasetsPanels test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_datasets_panels.moc"
