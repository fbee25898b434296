#include "attention_panel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "attention_views.h"
#include "data/tokenizer.h"
#include "io/yaml/experiment_yaml.h"
#include "ui/engine_messages.h"

namespace ts::ui {

namespace {

constexpr int kSingleSide = 280, kGridSide = 132;  // an image's side alone, and in a grid of heads

// side * side == n, or 0.
int squareSide(std::int64_t n)
{
    const auto side = std::int64_t(std::lround(std::sqrt(double(std::max<std::int64_t>(n, 0)))));
    return side > 0 && side * side == n ? int(side) : 0;
}

// A dataset sample's pixels ([C, H, W] in [0, 1]) as an image: grey for one channel, RGB for three.
QImage sampleImage(const ts::AttentionSample& s)
{
    if (s.imageShape.rank() != 3 || s.image.empty()) return {};
    const int c = int(s.imageShape[0]), h = int(s.imageShape[1]), w = int(s.imageShape[2]);
    QImage image(w, h, c == 3 ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
    const auto byte = [](float v) { return uchar(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
    for (int y = 0; y < h; ++y) {
        uchar* line = image.scanLine(y);
        for (int x = 0; x < w; ++x) {
            if (c == 3)
                for (int k = 0; k < 3; ++k) line[x * 3 + k] = byte(s.image[std::size_t((k * h + y) * w + x)]);
            else
                line[x] = byte(s.image[std::size_t(y * w + x)]);
        }
    }
    return image;
}

}  // namespace

struct AttentionPanel::Outcome {
    qint64 runId = -1;
    QString checkpoint;
    std::shared_ptr<ts::AttentionMaps> maps;
    ts::AttentionSample sample;
    qint64 epoch = 0, sampleCount = 0, index = 0;
    QString split;
    std::vector<ts::Message> notes;
    QString error;
};

AttentionPanel::AttentionPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attentionPanel"));
    m_pool.setMaxThreadCount(1);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("attentionStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_index = new QSpinBox;
    m_index->setObjectName(QStringLiteral("attentionIndex"));
    m_index->setRange(0, 999999);  // the split's size is known once the run is loaded
    m_index->setMinimumWidth(m_index->fontMetrics().horizontalAdvance(QStringLiteral("000000")) * 2);
    m_index->setToolTip(tr("Which image of the test split goes through the model"));
    m_text = new QLineEdit;
    m_text->setObjectName(QStringLiteral("attentionText"));
    m_text->setPlaceholderText(tr("A text the model reads, e.g. a line it was trained on"));
    m_show = new QPushButton(tr("Show Attention"));
    m_show->setObjectName(QStringLiteral("attentionShowButton"));
    auto* imagePage = new QWidget;
    auto* imageRow = new QHBoxLayout(imagePage);
    imageRow->setContentsMargins(0, 0, 0, 0);
    imageRow->addWidget(new QLabel(tr("Test sample:")));
    imageRow->addWidget(m_index);
    imageRow->addStretch(1);
    auto* textPage = new QWidget;
    auto* textRow = new QHBoxLayout(textPage);
    textRow->setContentsMargins(0, 0, 0, 0);
    textRow->addWidget(new QLabel(tr("Text:")));
    textRow->addWidget(m_text, 1);
    m_sampleInput = new QStackedWidget;
    m_sampleInput->addWidget(imagePage);
    m_sampleInput->addWidget(textPage);
    m_sampleInput->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    auto* sampleRow = new QHBoxLayout;
    sampleRow->addWidget(m_sampleInput, 1);
    sampleRow->addWidget(m_show);

    m_checkpoint = new QComboBox;
    m_checkpoint->setObjectName(QStringLiteral("attentionCheckpoint"));
    m_checkpoint->setToolTip(tr("The checkpoint whose weights attend: the best by the run's metric, the last saved, or "
                                "an epoch's (see how attention forms as training goes on)"));
    m_layer = new QComboBox;
    m_layer->setObjectName(QStringLiteral("attentionLayer"));
    m_layer->setToolTip(tr("The MultiHeadAttention layer whose weights are shown, in the order the model runs them"));
    m_head = new QComboBox;
    m_head->setObjectName(QStringLiteral("attentionHead"));
    m_head->setToolTip(tr("One head, or all of them side by side: each head learns its own pattern"));
    m_query = new QComboBox;
    m_query->setObjectName(QStringLiteral("attentionQuery"));
    m_query->setToolTip(tr("Whose attention is drawn over the image: one patch's (click a patch to pick it), or the "
                           "mean over every patch"));
    m_queryLabel = new QLabel(tr("Query patch:"));
    for (QComboBox* box : {m_checkpoint, m_layer, m_head, m_query}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // "Mean over all patches" in full
        box->setMinimumContentsLength(6);
    }
    auto* choices = new QGridLayout;
    const auto addChoice = [choices](int row, int column, QLabel* label, QComboBox* box) {
        label->setBuddy(box);
        choices->addWidget(label, row, column * 2);
        choices->addWidget(box, row, column * 2 + 1);
    };
    addChoice(0, 0, new QLabel(tr("Checkpoint:")), m_checkpoint);
    addChoice(0, 1, new QLabel(tr("Layer:")), m_layer);
    addChoice(1, 0, new QLabel(tr("Head:")), m_head);
    addChoice(1, 1, m_queryLabel, m_query);
    choices->setColumnStretch(4, 1);

    m_mapsArea = new QWidget;
    m_mapsArea->setObjectName(QStringLiteral("attentionMaps"));
    m_mapsGrid = new QGridLayout(m_mapsArea);
    m_mapsGrid->setSizeConstraint(QLayout::SetMinAndMaxSize);
    m_mapsGrid->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_mapsGrid->setHorizontalSpacing(16);
    m_mapsGrid->setVerticalSpacing(10);
    m_scroll = new QScrollArea;
    auto* scroll = m_scroll;
    scroll->setWidget(m_mapsArea);
    scroll->setWidgetResizable(false);
    scroll->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    scroll->setFrameShape(QFrame::NoFrame);
    m_hover = new QLabel;
    m_hover->setObjectName(QStringLiteral("attentionHover"));
    m_hover->setWordWrap(true);
    m_hover->setMinimumHeight(m_hover->fontMetrics().lineSpacing() * 2);  // a long hover line wraps without moving the maps
    m_hover->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addLayout(sampleRow);
    layout->addLayout(choices);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_hover);

    connect(m_show, &QPushButton::clicked, this, &AttentionPanel::showSample);
    connect(m_text, &QLineEdit::returnPressed, this, &AttentionPanel::showSample);
    connect(m_layer, &QComboBox::currentIndexChanged, this, [this] {
        fillChoices();
        redraw();
    });
    connect(m_head, &QComboBox::currentIndexChanged, this, &AttentionPanel::redraw);
    connect(m_query, &QComboBox::currentIndexChanged, this, &AttentionPanel::redraw);
    m_watcher = new QFutureWatcher<Outcome>(this);
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] { showOutcome(m_watcher->result()); });
    clear();
}

AttentionPanel::~AttentionPanel() { m_pool.waitForDone(); }

QString AttentionPanel::message() const { return m_status->text(); }

void AttentionPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (!m_sample.maps.empty() && event->size().width() != event->oldSize().width()) redraw();
}

void AttentionPanel::clear()
{
    m_runId = -1;
    m_hasAttention = m_readsText = false;
    m_maps.reset();
    m_mapsCheckpoint.clear();
    m_checkpointCount = 0;
    m_lastCheckpointId = -1;
    m_checkpoint->clear();
    m_sample = {};
    m_layer->clear();
    m_head->clear();
    m_query->clear();
    clearMaps();
    m_status->setText(tr("Select a run of a Transformer to see what its attention heads look at."));
    updateButtons();
}

void AttentionPanel::showRun(const ts::Workspace& workspace, const ts::RunInfo& run,
                             const std::vector<ts::CheckpointRecord>& checkpoints)
{
    if (run.id != m_runId || workspace.directory != m_workspace.directory) {
        clear();
        m_workspace = workspace;
        m_runId = run.id;
        try {
            const ExperimentSpec spec = parseExperiment(run.experimentYaml, "run " + std::to_string(run.id));
            m_hasAttention = std::any_of(spec.model.nodes.begin(), spec.model.nodes.end(),
                                         [](const Node& n) { return n.op == "MultiHeadAttention"; });
            m_readsText = spec.dataset.format.rfind("text", 0) == 0;  // text, text_folder: token ids
        } catch (const std::exception&) {  // an experiment this version cannot read: nothing to look into
        }
        m_sampleInput->setCurrentIndex(m_readsText ? 1 : 0);
        m_queryLabel->setVisible(!m_readsText);
        m_query->setVisible(!m_readsText);
        if (!m_hasAttention)
            m_status->setText(tr("This model has no MultiHeadAttention layer: attention maps show what a Transformer's "
                                 "heads look at (try the ViT or the character GPT template)."));
        else if (m_readsText)
            m_status->setText(tr("Type a text and press Show Attention to see what each head looks at."));
        else
            m_status->setText(tr("Choose an image of the test split and press Show Attention to see what each head looks at."));
    }
    fillCheckpoints(checkpoints);
    updateButtons();
}

void AttentionPanel::fillCheckpoints(const std::vector<ts::CheckpointRecord>& checkpoints)
{
    const qint64 lastId = checkpoints.empty() ? -1 : checkpoints.back().id;
    if (int(checkpoints.size()) == m_checkpointCount && lastId == m_lastCheckpointId && m_checkpoint->count() > 0) return;
    m_checkpointCount = int(checkpoints.size());
    m_lastCheckpointId = lastId;
    const QString chosen = m_checkpoint->count() > 0 ? m_checkpoint->currentData().toString() : QStringLiteral("best");
    m_checkpoint->clear();
    m_checkpoint->addItem(tr("Best"), QStringLiteral("best"));
    m_checkpoint->addItem(tr("Last"), QStringLiteral("last"));
    std::set<std::int64_t> epochs;
    for (const ts::CheckpointRecord& c : checkpoints) epochs.insert(c.epoch);
    for (std::int64_t epoch : epochs) m_checkpoint->addItem(tr("Epoch %1").arg(epoch), QString::number(epoch));
    m_checkpoint->setCurrentIndex(std::max(0, m_checkpoint->findData(chosen)));
    if (m_hasAttention && checkpoints.empty())
        m_status->setText(tr("This run has no checkpoint yet: its attention can be seen once it has saved one."));
}

void AttentionPanel::updateButtons()
{
    const bool ready = m_hasAttention && m_checkpointCount > 0;
    m_show->setEnabled(ready && !m_busy);
    m_index->setEnabled(ready);
    m_text->setEnabled(ready);
    m_checkpoint->setEnabled(ready);
    for (QComboBox* box : {m_layer, m_head, m_query}) box->setEnabled(ready && box->count() > 0);
}

void AttentionPanel::showSample()
{
    if (m_busy || !m_hasAttention || m_checkpointCount == 0) return;
    m_busy = true;
    updateButtons();
    const QString choice = m_checkpoint->currentData().toString();
    m_status->setText(tr("Running the sample through the model…"));
    m_watcher->setFuture(QtConcurrent::run(
        &m_pool, [workspace = m_workspace, runId = m_runId, choice, maps = choice == m_mapsCheckpoint ? m_maps : nullptr,
                  text = m_text->text().toStdString(), index = m_index->value()]() mutable {
            Outcome out;
            out.runId = runId;
            out.checkpoint = choice;
            out.index = index;
            try {
                if (!maps) {
                    PredictorOptions options;
                    options.workspaceDir = workspace.directory;
                    options.runId = runId;
                    options.checkpoint = choice.toStdString();
                    options.device = "cpu";  // a GPU stays with training
                    maps = std::make_shared<ts::AttentionMaps>(options);
                }
                out.maps = maps;
                out.epoch = maps->checkpoint().epoch;
                out.notes = maps->notes();
                out.sampleCount = maps->sampleCount();
                out.split = QString::fromStdString(maps->splitName());
                out.sample = maps->readsText() ? maps->textSample(text) : maps->datasetSample(index);
            } catch (const ts::TokenizeError& e) {
                const QByteArray bytes = QByteArray::fromStdString(text);
                const QString character = QString::fromUtf8(bytes.mid(e.offset())).left(1);
                out.error = tr("“%1” at character %2 is not in this model's vocabulary: type text made of the "
                               "characters it was trained on.")
                                .arg(character)
                                .arg(QString::fromUtf8(bytes.left(e.offset())).size() + 1);
            } catch (const std::exception& e) {
                out.error = QString::fromLocal8Bit(e.what());
            }
            return out;
        }));
}

void AttentionPanel::showOutcome(const Outcome& out)
{
    m_busy = false;
    updateButtons();
    if (out.runId != m_runId) return;  // another run was selected meanwhile
    if (out.maps) {
        m_maps = out.maps;
        m_mapsCheckpoint = out.checkpoint;
        if (!m_readsText) m_index->setMaximum(int(std::max<qint64>(out.sampleCount - 1, 0)));
    }
    if (!out.error.isEmpty()) {
        m_sample = {};
        m_layer->clear();
        clearMaps();
        m_status->setText(tr("Cannot show attention: %1").arg(out.error));
        updateButtons();
        emit shown();
        return;
    }
    m_sample = out.sample;
    const QString previousLayer = m_layer->currentText();
    {
        const QSignalBlocker block(m_layer);
        m_layer->clear();
        for (const ts::AttentionMap& map : m_sample.maps) m_layer->addItem(QString::fromStdString(map.node));
        m_layer->setCurrentIndex(std::max(0, m_layer->findText(previousLayer)));
    }
    fillChoices();
    QString status;
    if (m_readsText) {
        const int tokens = m_sample.maps.empty() ? 0 : int(m_sample.maps.front().keys);
        status = tr("Tokens read: %1, through the checkpoint of epoch %2. Hover a row to see what its token attends to; "
                    "darker is more attention.")
                     .arg(tokens)
                     .arg(out.epoch);
    } else {
        const QString split = out.split == QLatin1String("test")         ? tr("test split")
                              : out.split == QLatin1String("validation") ? tr("validation split")
                                                                         : tr("training split");
        status = tr("Sample %1 of the %2 (%3) through the checkpoint of epoch %4. Click a patch to see what it attends "
                    "to; more orange is more attention.")
                     .arg(out.index)
                     .arg(split, QString::fromStdString(m_sample.className))
                     .arg(out.epoch);
    }
    for (const ts::Message& note : out.notes) status += QLatin1Char('\n') + renderMessage(note);
    m_status->setText(status);
    redraw();
    updateButtons();
    emit shown();
}

void AttentionPanel::fillChoices()
{
    const int layer = m_layer->currentIndex();
    if (layer < 0 || layer >= int(m_sample.maps.size())) return;
    const ts::AttentionMap& map = m_sample.maps[std::size_t(layer)];
    // An image's tokens are its patches, row by row, maybe after one class token.
    m_gridRows = m_gridCols = m_firstPatch = 0;
    if (!m_readsText && !m_sample.image.empty()) {
        if (const int side = squareSide(map.keys)) m_gridRows = m_gridCols = side;
        else if (const int inner = squareSide(map.keys - 1)) m_gridRows = m_gridCols = inner, m_firstPatch = 1;
    }
    const QSignalBlocker blockHeads(m_head), blockQueries(m_query);
    const QVariant head = m_head->currentData(), query = m_query->currentData();
    m_head->clear();
    m_head->addItem(tr("All heads"), -1);
    for (int h = 0; h < int(map.heads); ++h) m_head->addItem(tr("Head %1").arg(h + 1), h);
    m_head->setCurrentIndex(std::max(0, m_head->findData(head.isValid() ? head : QVariant(-1))));
    m_query->clear();
    m_query->addItem(tr("Mean over all patches"), -1);
    for (int k = 0; k < m_gridRows * m_gridCols; ++k)
        m_query->addItem(tr("Patch %1 (row %2, column %3)").arg(k + 1).arg(k / m_gridCols + 1).arg(k % m_gridCols + 1), k);
    m_query->setCurrentIndex(std::max(0, m_query->findData(query.isValid() ? query : QVariant(-1))));
    updateButtons();
}

void AttentionPanel::clearMaps()
{
    while (QLayoutItem* item = m_mapsGrid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_hover->clear();
    m_mapsArea->adjustSize();
}

QList<AttentionMatrixView*> AttentionPanel::matrixViews() const { return m_mapsArea->findChildren<AttentionMatrixView*>(); }
QList<AttentionImageView*> AttentionPanel::imageViews() const { return m_mapsArea->findChildren<AttentionImageView*>(); }

void AttentionPanel::redraw()
{
    clearMaps();
    const int layer = m_layer->currentIndex();
    if (layer < 0 || layer >= int(m_sample.maps.size())) return;
    const ts::AttentionMap& map = m_sample.maps[std::size_t(layer)];
    const int chosenHead = m_head->currentData().toInt();
    std::vector<int> heads;
    if (chosenHead >= 0 && chosenHead < map.heads) heads.push_back(chosenHead);
    else heads.resize(std::size_t(map.heads)), std::iota(heads.begin(), heads.end(), 0);
    const bool grid = heads.size() > 1;
    // As many maps a row as the view's width takes (they all have the first one's size).
    int cell = 0, columns = 0;
    const auto place = [&](QWidget* w) {
        if (columns == 0) {
            const int spacing = m_mapsGrid->horizontalSpacing(), margins = m_mapsGrid->contentsMargins().left() * 2;
            columns = std::max(1, (m_scroll->viewport()->width() - margins + spacing) / (w->sizeHint().width() + spacing));
        }
        m_mapsGrid->addWidget(w, cell / columns, cell % columns, Qt::AlignLeft | Qt::AlignTop);
        ++cell;
    };
    const auto headTitle = [&](int h) { return grid ? tr("Head %1").arg(h + 1) : QString(); };

    if (m_gridRows > 0) {
        const int side = grid ? kGridSide : kSingleSide;
        const QImage image = sampleImage(m_sample);
        const int query = m_query->currentData().toInt();  // a patch, or -1: the mean over every query
        const auto patches = std::int64_t(m_gridRows) * m_gridCols;
        // Queued: picking a patch redraws, which replaces the view whose click is still being handled.
        const auto pickPatch = [this](int k) { m_query->setCurrentIndex(m_query->findData(k)); };
        auto* plain = new AttentionImageView;
        plain->setPicture(tr("Image: %1").arg(QString::fromStdString(m_sample.className)), image, m_gridRows, m_gridCols, {},
                          query, side);
        connect(plain, &AttentionImageView::patchClicked, this, pickPatch, Qt::QueuedConnection);
        place(plain);
        for (int h : heads) {
            QVector<float> weights(int(patches), 0.0f);
            for (std::int64_t k = 0; k < patches; ++k) {
                if (query >= 0) {
                    weights[int(k)] = map.at(h, query + m_firstPatch, k + m_firstPatch);
                } else {
                    double sum = 0;
                    for (std::int64_t i = 0; i < map.queries; ++i) sum += map.at(h, i, k + m_firstPatch);
                    weights[int(k)] = float(sum / double(map.queries));
                }
            }
            auto* view = new AttentionImageView;
            view->setPicture(grid ? headTitle(h) : tr("Head %1").arg(h + 1), image, m_gridRows, m_gridCols, weights, query, side);
            connect(view, &AttentionImageView::patchClicked, this, pickPatch, Qt::QueuedConnection);
            place(view);
        }
        m_hover->setText(query >= 0 ? tr("Outlined: the query patch. Orange: the patches it takes its mix from.")
                                    : tr("Orange: how much attention each patch receives, averaged over every patch that asks."));
    } else {
        QStringList labels;
        if (!m_sample.tokens.empty())
            for (const std::string& token : m_sample.tokens) labels << QString::fromStdString(token);
        else
            for (std::int64_t k = 0; k < map.keys; ++k) labels << QString::number(k + 1);
        for (int h : heads) {
            QVector<float> weights(int(map.queries * map.keys));
            for (std::int64_t i = 0; i < map.queries; ++i)
                for (std::int64_t j = 0; j < map.keys; ++j) weights[int(i * map.keys + j)] = map.at(h, i, j);
            auto* view = new AttentionMatrixView;
            view->setMatrix(headTitle(h), weights, int(map.queries), int(map.keys), labels, grid && map.keys > 12);
            connect(view, &AttentionMatrixView::rowHovered, this, [this, h](int query) {
                if (query < 0) return;
                m_hoveredHead = h;
                describeRow(query);
            });
            place(view);
        }
        m_hover->setText(tr("Rows: the token that looks (query); columns: the tokens it looks at (keys)."));
    }
    m_mapsGrid->activate();  // the maps in place now, where a pointer finds them
    m_mapsArea->adjustSize();
}

void AttentionPanel::describeRow(int query)
{
    const int layer = m_layer->currentIndex();
    if (layer < 0 || layer >= int(m_sample.maps.size())) return;
    const ts::AttentionMap& map = m_sample.maps[std::size_t(layer)];
    const int head = m_hoveredHead;
    if (query >= map.queries || head >= map.heads) return;
    const auto token = [this](std::int64_t k) {
        return k < std::int64_t(m_sample.tokens.size()) ? visibleToken(QString::fromStdString(m_sample.tokens[std::size_t(k)]))
                                                       : QString::number(k + 1);
    };
    std::vector<std::int64_t> keys(std::size_t(map.keys));
    std::iota(keys.begin(), keys.end(), 0);
    const std::size_t shown = std::min<std::size_t>(5, keys.size());
    std::partial_sort(keys.begin(), keys.begin() + std::ptrdiff_t(shown), keys.end(),
                      [&](std::int64_t a, std::int64_t b) { return map.at(head, query, a) > map.at(head, query, b); });
    QStringList parts;
    const QLocale locale;
    for (std::size_t r = 0; r < shown; ++r) {
        const float w = map.at(head, query, keys[r]);
        if (w <= 0) break;
        parts << tr("“%1” (token %2) %3%").arg(token(keys[r])).arg(keys[r] + 1).arg(locale.toString(w * 100.0, 'f', 1));
    }
    m_hover->setText(tr("Head %1: “%2” (token %3) attends most to %4")
                         .arg(head + 1)
                         .arg(token(query))
                         .arg(query + 1)
                         .arg(parts.join(tr(", "))));
}

}  // namespace ts::ui
