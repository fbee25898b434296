// The Runs page's Export as ONNX: a real run trained on the studio's job queue (4x4 IDX images,
// idx_files.h), exported through the dialog as a user does it (Export clicked, the export on a
// worker thread), the file there and no larger than it should be; int8 weights smaller; a
// folder that does not exist refused with the engine's message and nothing written.
#include <QApplication>
#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

#include "idx_files.h"
#include "io/yaml/experiment_yaml.h"
#include "scratch_home.h"
#include "ui/runs/onnx_export_dialog.h"
#include "ui/train/training_session.h"

using namespace ts;
using namespace ts::ui;

class TestOnnxExportDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_ws;
    qint64 m_run = -1;

    bool exportTo(OnnxExportDialog& dialog, const QString& path)
    {
        dialog.outputEdit()->setText(path);
        QSignalSpy done(&dialog, &OnnxExportDialog::exported);
        QTest::mouseClick(dialog.exportButton(), Qt::LeftButton);
        if (!dialog.isExporting() && done.isEmpty()) return false;  // refused before it started
        return QTest::qWaitFor([&] { return !dialog.isExporting(); }, 60000) && !done.isEmpty();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const std::string data = (m_dir.path() + "/digits").toStdString();
        std::filesystem::create_directories(data);
        test::writeIdxPair(data, "train", 120, 1, 25.0);
        test::writeIdxPair(data, "t10k", 30, 2, 25.0);
        const ExperimentSpec spec = parseExperiment("name: tiny\n"
                                                    "dataset: {format: idx, path: " + data + "}\n"
                                                    "model:\n  inputs: {image: [1, 4, 4], label: {shape: [], dtype: i64}}\n"
                                                    "  layers:\n    - Flatten\n    - Linear: {out_features: 16}\n    - ReLU\n"
                                                    "    - Linear: {out_features: 10}\n    - CrossEntropy\n"
                                                    "training: {epochs: 2, batch_size: 16, seed: 1, device: cpu}\n",
                                                    "tiny.yaml");
        m_ws = m_dir.path() + "/workspace";
        TrainingSession session;
        QSignalSpy finished(&session, &TrainingSession::finished);
        QSignalSpy started(&session, &TrainingSession::runStarted);
        session.start(spec, "cpu", m_ws);
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(0).value<TrainingSession::Outcome>() == TrainingSession::Outcome::Finished,
                 qPrintable(finished.last().at(1).toString()));
        m_run = started.last().at(0).value<RunStartInfo>().runId;
        QVERIFY(m_run > 0);
    }

    void exportsFloatAndInt8()
    {
        OnnxExportDialog dialog(m_ws, m_run);
        const QString plain = m_dir.filePath("plain.onnx");
        QVERIFY(exportTo(dialog, plain));
        QVERIFY2(dialog.resultLabel()->text().startsWith("Wrote"), qPrintable(dialog.resultLabel()->text()));
        // 16*16 + 16 + 16*10 + 10 floats of weights, plus the graph's few hundred bytes.
        const qint64 floatBytes = QFileInfo(plain).size();
        QVERIFY2(floatBytes > 442 * 4 && floatBytes < 442 * 4 + 4096, qPrintable(QString::number(floatBytes)));

        dialog.probabilitiesBox()->setChecked(true);
        dialog.int8Box()->setChecked(true);
        const QString small = m_dir.filePath("int8.onnx");
        QVERIFY(exportTo(dialog, small));
        QVERIFY(QFileInfo(small).size() < floatBytes);
        QVERIFY(QFileInfo(plain).exists());  // the first file is untouched
    }

    void aMissingFolderIsRefused()
    {
        OnnxExportDialog dialog(m_ws, m_run);
        const QString nowhere = m_dir.filePath("no/such/folder/model.onnx");
        QVERIFY(!exportTo(dialog, nowhere));
        QVERIFY2(dialog.resultLabel()->text().startsWith("Not exported:") && dialog.resultLabel()->text().contains("folder"),
                 qPrintable(dialog.resultLabel()->text()));
        QVERIFY(!QFileInfo::exists(nowhere));
        QVERIFY(dialog.exportButton()->isEnabled());  // correct the path and try again
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
    TestOnnxExportDialog test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_onnx_export_dialog.moc"
