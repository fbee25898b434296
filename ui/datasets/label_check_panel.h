// The Labels tab's "check the labels" part (issue 14 item 6): starts a LabelCheckJob on the
// studio's job queue, either in-sample (a finished run of this dataset scores every training
// sample with its best checkpoint: seconds) or K-fold (K short trainings with the experiment's
// recipe give each sample out-of-sample probabilities: minutes), and says when the check is
// done so the page shows the suspects. The runs offered are the workspace's finished or
// stopped runs whose dataset is this one, read on a worker thread.
#pragma once

#include <QFutureWatcher>
#include <QVector>
#include <QWidget>

#include <optional>

#include "store/workspace.h"
#include "types/experiment_spec.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace ts::ui {

class TrainingSession;

class LabelCheckPanel : public QWidget {
    Q_OBJECT
public:
    explicit LabelCheckPanel(TrainingSession* session, QWidget* parent = nullptr);

    void setWorkspace(const ts::Workspace& workspace);
    void setExperiment(const ts::ExperimentSpec& spec);  // also reads the runs again
    void refreshRuns();

    // One run that can score the labels, as offered.
    struct RunChoice {
        qint64 id = 0;
        QString text;  // "run 12 · fashion_mnist_mlp #12"
    };
    const QVector<RunChoice>& runs() const { return m_runs; }
    bool isReading() const { return m_reading; }
    bool isChecking() const { return m_jobId > 0; }

    QRadioButton* inSampleChoice() const { return m_inSample; }
    QRadioButton* kFoldChoice() const { return m_kFold; }
    QComboBox* runBox() const { return m_runBox; }
    QSpinBox* foldsBox() const { return m_folds; }
    QSpinBox* epochsBox() const { return m_epochs; }
    QPushButton* checkButton() const { return m_check; }
    QLabel* statusLabel() const { return m_status; }

public slots:
    void startCheck();

signals:
    void checkFinished();  // a check ended well: the newest check in the store is it
    void runsRead();       // the run list was read (runs() may have changed)

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateControls();
    void onJobsChanged();

    TrainingSession* m_session;
    std::optional<ts::Workspace> m_workspace;
    std::optional<ts::ExperimentSpec> m_spec;
    QVector<RunChoice> m_runs;
    QFutureWatcher<QVector<RunChoice>> m_read;
    bool m_reading = false, m_readAgain = false;
    qint64 m_jobId = 0;
    QString m_outcome;  // how the last check ended, when not well

    QLabel* m_title;
    QRadioButton* m_inSample;
    QRadioButton* m_kFold;
    QComboBox* m_runBox;
    QLabel* m_foldsLabel;
    QSpinBox* m_folds;
    QLabel* m_epochsLabel;
    QSpinBox* m_epochs;
    QPushButton* m_check;
    QPushButton* m_stop;
    QProgressBar* m_progress;
    QLabel* m_status;
};

}  // namespace ts::ui
