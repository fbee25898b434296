// The Datasets page's label check, as a user runs it from the Labels tab: a real run trained
// on the studio's job queue, the panel offering it, an in-sample check and a K-fold check each
// queued as jobs, and the suspects they find shown in the grid. Data: 4x4 images of three
// well-separated classes with a known set of training labels flipped (idx_files.h), which the
// checks must put first.
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QLocale>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <set>

#include "idx_files.h"
#include "io/yaml/experiment_yaml.h"
#include "scratch_home.h"
#include "store/label_overlay.h"
#include "ui/datasets/datasets_page.h"
#include "ui/datasets/label_check_panel.h"
#include "ui/datasets/sample_grid_model.h"
#include "ui/train/training_session.h"
#include "widgets/image_grid.h"

using namespace ts;
using namespace ts::ui;

namespace {

constexpr std::int64_t kSamples = 240;
const std::vector<std::int64_t> kFlipped = {5, 17, 42, 77, 101, 150};

ExperimentSpec experimentFor(const std::string& dataDir, int epochs)
{
    const std::string yaml = "name: labels\n"
                             "dataset: {format: idx, path: " + dataDir + ", validation_fraction: 0}\n"
                             "model:\n  inputs: {image: [1, 4, 4], label: {shape: [], dtype: i64}}\n  layers:\n    - Flatten\n    - Linear: {out_features: 10}\n    - CrossEntropy\n"
                             "optimizer: {type: sgd, lr: 0.2, momentum: 0.9}\n"
                             "training: {epochs: " + std::to_string(epochs) + ", batch_size: 16, seed: 5, device: cpu}\n";
    return parseExperiment(yaml, "labels.yaml");
}

}  // namespace

class TestLabelCheckPanel : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> m_dir;
    Workspace m_ws;
    std::string m_data;

private slots:
    void initTestCase()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_ws = Workspace::open((m_dir->path() + "/workspace").toStdString());
        m_data = (m_dir->path() + "/flipped").toStdString();
        std::filesystem::create_directories(m_data);
        test::writeIdxPair(m_data, "train", kSamples, 1, 25.0, test::flippedLabels(kSamples, kFlipped));
        test::writeIdxPair(m_data, "t10k", 30, 2, 25.0);
    }

    // Without a finished run only K-fold is offered, and the panel says why.
    void noRunYetOffersKFold()
    {
        TrainingSession session;
        LabelCheckPanel panel(&session);
        QSignalSpy read(&panel, &LabelCheckPanel::runsRead);
        panel.setWorkspace(m_ws);
        panel.setExperiment(experimentFor(m_data, 4));
        QVERIFY(read.wait(10000));
        QVERIFY(panel.runs().isEmpty());
        QVERIFY(panel.kFoldChoice()->isChecked());
        QVERIFY(!panel.inSampleChoice()->isEnabled());
        QVERIFY(panel.checkButton()->isEnabled());
        QVERIFY2(panel.statusLabel()->text().contains("No finished run"), qPrintable(panel.statusLabel()->text()));
        QCOMPARE(panel.epochsBox()->value(), 3);  // short: at most three epochs by default
    }

    // Train, then check in-sample with that run and K-fold, both from the page's Labels tab.
    void checksFromThePage()
    {
        TrainingSession session;
        const ExperimentSpec spec = experimentFor(m_data, 4);
        QSignalSpy finished(&session, &TrainingSession::finished);
        session.start(spec, "cpu", QString::fromStdString(m_ws.directory));
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(0).value<TrainingSession::Outcome>() == TrainingSession::Outcome::Finished,
                 qPrintable(finished.last().at(1).toString()));

        DatasetsPage page(m_ws, &session);
        LabelCheckPanel* panel = page.labelCheck();
        QSignalSpy read(panel, &LabelCheckPanel::runsRead);
        page.setExperiment(spec);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isOpening() && read.count() > 0 && !panel->isReading(), 20000);
        QCOMPARE(panel->runs().size(), 1);
        QVERIFY(panel->inSampleChoice()->isChecked());

        // In-sample: the run's best checkpoint ranks the samples; the flipped ones come first.
        QSignalSpy done(panel, &LabelCheckPanel::checkFinished);
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY(panel->isChecking());
        QVERIFY(done.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy() && page.grid()->title().contains("in-sample"), 10000);
        // The grid lists the samples the check flags (confident learning's per-class thresholds):
        // flipped ones only, and at least half of them; the stored ranking has every flip first.
        const std::set<std::int64_t> flipped(kFlipped.begin(), kFlipped.end());
        const int shown = page.gridModel()->rowCount();
        QVERIFY2(shown * 2 >= int(kFlipped.size()), qPrintable(QString("%1 suspects shown").arg(shown)));
        for (int row = 0; row < shown; ++row)
            QVERIFY2(flipped.count(page.gridModel()->sampleAt(row).index), qPrintable(QString("row %1").arg(row)));
        const std::vector<LabelCheckRecord> inSample = labelChecks(m_ws, page.opened().key().toStdString());
        QCOMPARE(inSample.size(), std::size_t(1));
        QCOMPARE(inSample.front().runId, std::int64_t(panel->runs().front().id));
        for (const LabelScore& s : labelScores(m_ws, inSample.front().id, std::int64_t(kFlipped.size())))
            QVERIFY2(flipped.count(s.sample), qPrintable(QString("sample %1 ranked among the first").arg(s.sample)));

        // K-fold: two folds of one epoch each, queued the same way.
        panel->kFoldChoice()->setChecked(true);
        panel->foldsBox()->setValue(2);
        panel->epochsBox()->setValue(2);
        QTest::mouseClick(panel->checkButton(), Qt::LeftButton);
        QVERIFY(done.wait(120000));
        QTRY_VERIFY_WITH_TIMEOUT(!page.isStoreBusy() && page.grid()->title().contains("K-fold"), 10000);
        const std::vector<LabelCheckRecord> checks = labelChecks(m_ws, page.opened().key().toStdString());
        QCOMPARE(checks.size(), std::size_t(2));
        QCOMPARE(checks.front().method, std::string("k_fold"));
        QCOMPARE(checks.front().folds, std::int64_t(2));
        QVERIFY(page.gridModel()->rowCount() > 0);
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;  // the page's settings, caches and default workspace stay out of the user's
    if (!home.isValid()) return 1;
    useScratchHome(home.path());
    QApplication app(argc, argv);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCoreApplication::setOrganizationName("TrainStudio");
    QCoreApplication::setApplicationName("TrainStudio");
    qRegisterMetaType<ts::ExperimentSpec>();
    TestLabelCheckPanel test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_label_check_panel.moc"
