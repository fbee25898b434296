// The Datasets page's health report (issue 14 item 5's view): the latest check of the dataset
// from the workspace's store (store/dataset_catalog.h) with its counts per kind and split
// (unreadable, exact duplicates within a split and across splits = leakage, near duplicates,
// class imbalance, a table's findings), whether it is current (the files' fingerprint equals
// the check's), "Check now" queueing a DataCheckJob on the studio's job queue with its
// progress while it runs, a "Show" per finding kind (the page lists the samples, pairs side by
// side; the first pairs are named by their files in the table), and the one-click fixes for imbalance (health_fixes.h) sent out as experimentEdited.
//
// Every store read runs on a worker thread with a DatasetCatalog of its own (one thread per
// catalog), so the UI thread never waits for SQLite.
#pragma once

#include <QFutureWatcher>
#include <QString>
#include <QVector>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "data/dataset.h"
#include "data/dataset_health.h"
#include "sample_ref.h"
#include "store/dataset_catalog.h"
#include "store/workspace.h"
#include "types/experiment_spec.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace ts::ui {

class TrainingSession;

class HealthReportPanel : public QWidget {
    Q_OBJECT
public:
    // `session` (may be null: no Check now) queues the checks.
    explicit HealthReportPanel(TrainingSession* session, QWidget* parent = nullptr);
    ~HealthReportPanel() override;

    void setWorkspace(const ts::Workspace& workspace);
    // The experiment whose dataset is checked (and fixed), and the files it opened
    // (openDatasetFiles of spec.dataset): their fingerprint says whether the check is current,
    // their class counts (training split, after the validation carve) give the loss weights.
    void setExperiment(const ts::ExperimentSpec& spec);
    void setFiles(std::shared_ptr<const ts::DatasetFiles> files);
    // Reads the latest check again (done by the setters and when a check job ends).
    void refresh();
    void checkNow();  // queues a forced DataCheckJob

    const std::optional<ts::StoredCheck>& check() const { return m_check; }
    bool isCurrent() const { return m_current; }
    bool isChecking() const { return m_jobId > 0; }
    // A store read is under way (until its result is applied, not merely computed).
    bool isReading() const { return m_reading || m_showing; }
    // The training split's class counts the loss weights come from, and the weights.
    const std::vector<std::int64_t>& trainCounts() const { return m_trainCounts; }
    std::vector<double> suggestedWeights() const;

    QTableWidget* table() const { return m_table; }
    QLabel* statusLabel() const { return m_status; }
    QPushButton* checkButton() const { return m_checkNow; }
    QPushButton* weightsButton() const { return m_useWeights; }
    QPushButton* samplerButton() const { return m_useSampler; }
    QPushButton* showButton(ts::FindingKind kind) const;  // null when the kind has no row
    QString refusal() const;

public slots:
    void showFindings(ts::FindingKind kind);
    void useClassWeights();
    void useClassBalancedSampler();

signals:
    void showSamples(const QString& title, const QVector<ts::ui::SampleRef>& refs);
    void experimentEdited(const ts::ExperimentSpec& spec);
    void reportChanged();  // a read of the store finished (check() may have changed)

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Read {
        std::optional<ts::StoredCheck> check;
        bool current = false;
        QString error;
        int generation = 0;
    };
    struct Shown {
        QString title;
        QVector<SampleRef> refs;
        QString error;
    };
    void onRead();
    void onJobsChanged();
    void showReport();
    void showImbalance();
    void updateControls();
    void recountTrain();
    void retranslate();
    QString kindTitle(ts::FindingKind kind) const;
    QString whereText(ts::FindingKind kind) const;
    std::pair<QString, QString> pairFiles(ts::FindingKind kind) const;
    QString causeText(const std::string& cause) const;

    TrainingSession* m_session;
    std::optional<ts::Workspace> m_workspace;
    std::optional<ts::ExperimentSpec> m_spec;
    std::shared_ptr<const ts::DatasetFiles> m_files;
    std::vector<std::int64_t> m_trainCounts;
    std::optional<ts::StoredCheck> m_check;
    bool m_current = false;
    QString m_readError;
    int m_generation = 0;
    bool m_reading = false, m_showing = false;
    qint64 m_jobId = 0;
    QString m_jobMessage;
    QFutureWatcher<Read> m_read;
    QFutureWatcher<Shown> m_show;
    std::vector<std::pair<ts::FindingKind, QPushButton*>> m_showButtons;

    QLabel* m_title;
    QLabel* m_status;
    QPushButton* m_checkNow;
    QPushButton* m_stop;
    QProgressBar* m_progress;
    QTableWidget* m_table;
    QLabel* m_imbalance;
    QPushButton* m_useWeights;
    QPushButton* m_useSampler;
    QLabel* m_refusal;
};

}  // namespace ts::ui

Q_DECLARE_METATYPE(QVector<ts::ui::SampleRef>)
