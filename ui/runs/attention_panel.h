// The Runs page's "Attention" tab: what a Transformer's heads look at, for one sample, from any
// checkpoint. A model of images takes a sample of its test split by index (the image shown,
// each head's weights laid over its patches: one query patch, picked by a click, or the mean
// over all); a model of text takes a typed text (each head's [queries x keys] map labelled by
// its tokens; hovering a row says what that token attends to). One layer, one head or all heads
// as a grid of small maps. The engine's AttentionMaps (jobs/attention_maps.h) runs the sample
// on a one-thread pool on the CPU and is kept for the next sample until the run or the
// checkpoint changes; choosing another layer, head or patch only redraws.
#pragma once

#include <QFutureWatcher>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <vector>

#include "jobs/attention_maps.h"
#include "store/workspace.h"
#include "types/run_records.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QStackedWidget;

namespace ts::ui {

class AttentionMatrixView;
class AttentionImageView;

class AttentionPanel : public QWidget {
    Q_OBJECT
public:
    explicit AttentionPanel(QWidget* parent = nullptr);
    ~AttentionPanel() override;  // waits for a sample in flight

    // The run to look into: its stored experiment says whether it has attention and reads text
    // or images; its checkpoints fill the checkpoint choice.
    void showRun(const ts::Workspace& workspace, const ts::RunInfo& run,
                 const std::vector<ts::CheckpointRecord>& checkpoints);
    void clear();
    bool hasAttention() const { return m_hasAttention; }
    bool readsText() const { return m_readsText; }

    // What Show does: the sample chosen (index or text) through the chosen checkpoint, in the
    // background (shown() when drawn).
    void showSample();

    bool isBusy() const { return m_busy; }
    QString message() const;  // the status line: what to do, what is shown, or the error
    const ts::AttentionSample& sample() const { return m_sample; }  // the last sample shown
    // The maps drawn now (tests compare them with the engine's weights): text or image views.
    QList<AttentionMatrixView*> matrixViews() const;
    QList<AttentionImageView*> imageViews() const;
    // The fields (tests drive them as a user would).
    QComboBox* checkpointBox() const { return m_checkpoint; }
    QComboBox* layerBox() const { return m_layer; }
    QComboBox* headBox() const { return m_head; }
    QComboBox* queryBox() const { return m_query; }
    QSpinBox* indexBox() const { return m_index; }
    QLineEdit* textEdit() const { return m_text; }
    QPushButton* showButton() const { return m_show; }
    QLabel* hoverLabel() const { return m_hover; }

signals:
    void shown();  // a sample, or the error that prevented it, is on show

protected:
    void resizeEvent(QResizeEvent* event) override;  // the grid of maps follows the width

private:
    struct Outcome;
    void fillCheckpoints(const std::vector<ts::CheckpointRecord>& checkpoints);
    void showOutcome(const Outcome& outcome);
    void fillChoices();  // layers, heads and query patches of the sample shown
    void redraw();       // the chosen layer, head and query of the sample shown
    void describeRow(int query);  // the hover line: what token `query` attends to
    void updateButtons();
    void clearMaps();

    ts::Workspace m_workspace;
    qint64 m_runId = -1;
    bool m_hasAttention = false, m_readsText = false;
    int m_checkpointCount = 0;
    qint64 m_lastCheckpointId = -1;
    std::shared_ptr<ts::AttentionMaps> m_maps;  // loaded on the pool for m_mapsCheckpoint
    QString m_mapsCheckpoint;
    QThreadPool m_pool;
    QFutureWatcher<Outcome>* m_watcher = nullptr;
    bool m_busy = false;
    ts::AttentionSample m_sample;
    int m_gridRows = 0, m_gridCols = 0, m_firstPatch = 0;  // image models: the patches' grid (after a class token)
    int m_hoveredHead = 0;                                  // the head whose row the hover line describes

    QComboBox* m_checkpoint = nullptr;
    QComboBox* m_layer = nullptr;
    QComboBox* m_head = nullptr;
    QComboBox* m_query = nullptr;
    QLabel* m_queryLabel = nullptr;
    QStackedWidget* m_sampleInput = nullptr;
    QSpinBox* m_index = nullptr;
    QLineEdit* m_text = nullptr;
    QPushButton* m_show = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_hover = nullptr;
    QScrollArea* m_scroll = nullptr;
    QWidget* m_mapsArea = nullptr;
    QGridLayout* m_mapsGrid = nullptr;
};

}  // namespace ts::ui
