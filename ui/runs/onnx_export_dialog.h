// The Runs page's "Export as ONNX…": which checkpoint, where, with a probabilities output or
// int8 weights, then the engine's exportRunOnnx (jobs/onnx_export_run.h, the CLI's `export`)
// on a worker thread, since it reads the checkpoint and the dataset's class names. The dialog
// stays open with what was written (or why not), so a failure can be corrected and retried.
// The output folder is remembered (StudioSettings).
#pragma once

#include <QDialog>
#include <QFutureWatcher>

#include <variant>

#include "jobs/onnx_export_run.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace ts::ui {

class OnnxExportDialog : public QDialog {
    Q_OBJECT
public:
    OnnxExportDialog(const QString& workspaceDir, qint64 runId, QWidget* parent = nullptr);

    QLineEdit* outputEdit() const { return m_output; }
    QComboBox* checkpointBox() const { return m_checkpoint; }
    QCheckBox* probabilitiesBox() const { return m_probabilities; }
    QCheckBox* int8Box() const { return m_int8; }
    QPushButton* exportButton() const { return m_export; }
    QLabel* resultLabel() const { return m_result; }
    // From the click until its result is shown (the worker may end before that slot runs).
    bool isExporting() const { return m_exporting; }

public slots:
    void startExport();

signals:
    void exported(const QString& path);

private:
    using Outcome = std::variant<ts::RunExportResult, QString>;  // the result, or why not
    void browse();
    void onFinished();
    void updateControls();

    QString m_workspaceDir;
    qint64 m_runId;
    QFutureWatcher<Outcome> m_watcher;
    bool m_exporting = false;
    QComboBox* m_checkpoint;
    QLineEdit* m_output;
    QCheckBox* m_probabilities;
    QCheckBox* m_int8;
    QProgressBar* m_busy;
    QLabel* m_result;
    QPushButton* m_export;
    QDialogButtonBox* m_buttons;
};

}  // namespace ts::ui
