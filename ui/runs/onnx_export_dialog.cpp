#include "onnx_export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine_messages.h"
#include "ui/studio_settings.h"
#include "ui/user_files.h"

namespace ts::ui {

namespace {

QString startFolder()
{
    const QString remembered = StudioSettings::onnxExportFolder();
    if (!remembered.isEmpty() && QFileInfo(remembered).isDir()) return remembered;
    // Documents when the desktop made one (a bare account has none), else the home folder.
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

}  // namespace

OnnxExportDialog::OnnxExportDialog(const QString& workspaceDir, qint64 runId, QWidget* parent)
    : QDialog(parent), m_workspaceDir(workspaceDir), m_runId(runId)
{
    setWindowTitle(tr("Export Run %1 as ONNX").arg(runId));
    m_checkpoint = new QComboBox;
    m_checkpoint->addItem(tr("Best"), QStringLiteral("best"));
    m_checkpoint->addItem(tr("Last"), QStringLiteral("last"));
    m_output = new QLineEdit(QDir(startFolder()).filePath(QStringLiteral("run%1.onnx").arg(runId)));
    m_output->setObjectName(QStringLiteral("onnxOutput"));
    m_output->setMinimumWidth(fontMetrics().averageCharWidth() * 48);
    auto* browse = new QPushButton(tr("Browse…"));
    m_probabilities = new QCheckBox(tr("Add a probabilities output (softmax)"));
    m_int8 = new QCheckBox(tr("Int8 weights (about 4× smaller; accuracy within a fraction of a percent)"));
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0);  // the export says nothing while it runs: a busy bar
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_result = new QLabel;
    m_result->setObjectName(QStringLiteral("onnxResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_export = m_buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    m_export->setDefault(true);

    auto* where = new QHBoxLayout;
    where->addWidget(m_output, 1);
    where->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Checkpoint:"), m_checkpoint);
    form->addRow(tr("File:"), where);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_probabilities);
    layout->addWidget(m_int8);
    layout->addWidget(m_busy);
    layout->addWidget(m_result);
    layout->addWidget(m_buttons);

    connect(browse, &QPushButton::clicked, this, &OnnxExportDialog::browse);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &OnnxExportDialog::startExport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &OnnxExportDialog::onFinished);
}

void OnnxExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export as ONNX"), m_output->text(), tr("ONNX models (*.onnx)"));
    if (!chosen.isEmpty()) m_output->setText(chosen.endsWith(QLatin1String(".onnx")) ? chosen : chosen + QStringLiteral(".onnx"));
}

void OnnxExportDialog::startExport()
{
    if (m_exporting) return;
    const QString path = m_output->text().trimmed();
    if (path.isEmpty()) {
        m_result->setText(tr("Choose the file to write."));
        return;
    }
    RunExportRequest request;
    request.workspaceDir = m_workspaceDir.toStdString();
    request.runId = m_runId;
    request.checkpoint = m_checkpoint->currentData().toString().toStdString();
    request.output = QFileInfo(path).absoluteFilePath().toStdString();
    request.probabilities = m_probabilities->isChecked();
    request.quantizeInt8 = m_int8->isChecked();
    m_result->setText(tr("Exporting…"));
    m_exporting = true;
    m_watcher.setFuture(QtConcurrent::run([request]() -> Outcome {
        try {
            return exportRunOnnx(request);
        } catch (const std::exception& e) {  // each says what is wrong and what to do
            return errorText(e);
        }
    }));
    updateControls();
}

void OnnxExportDialog::onFinished()
{
    m_exporting = false;
    const Outcome outcome = m_watcher.result();
    updateControls();
    if (const auto* why = std::get_if<QString>(&outcome)) {
        m_result->setText(tr("Not exported: %1").arg(*why));
        return;
    }
    const RunExportResult& r = std::get<RunExportResult>(outcome);
    const QString path = QString::fromStdString(r.onnx.path);
    StudioSettings::setOnnxExportFolder(QFileInfo(path).absolutePath());
    QString text = tr("Wrote %1 (%2, %3 ONNX nodes, epoch %4%5).")
                       .arg(path, QLocale().formattedDataSize(r.onnx.bytes))
                       .arg(r.onnx.nodes)
                       .arg(r.epoch)
                       .arg(r.temperature ? tr("; temperature %1 in the metadata").arg(*r.temperature, 0, 'g', 4) : QString());
    for (const ts::Message& note : r.notes) text += QLatin1Char('\n') + renderMessage(note);
    m_result->setText(text);
    emit exported(path);
}

void OnnxExportDialog::updateControls()
{
    const bool busy = m_exporting;
    m_busy->setVisible(busy);
    m_export->setEnabled(!busy);
    for (QWidget* w : std::initializer_list<QWidget*>{m_checkpoint, m_output, m_probabilities, m_int8}) w->setEnabled(!busy);
}

}  // namespace ts::ui
