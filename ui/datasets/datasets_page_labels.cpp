// The Datasets page and the store: the catalog of seen datasets, suspect labels from the
// newest label check, and the label overlay's marks (relabel, exclude), each read or written on
// a worker thread, one task at a time (a write then a read see each other in order).
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "dataset_list.h"
#include "datasets_page.h"
#include "jobs/label_ranking.h"
#include "label_check_panel.h"
#include "store/label_overlay.h"
#include "widgets/image_grid.h"

namespace ts::ui {

QWidget* DatasetsPage::buildLabelsTab()
{
    m_labelsTab = new QWidget;
    m_labelsTab->setObjectName(QStringLiteral("labelsTab"));
    m_labelsSummary = new QLabel;
    m_labelsSummary->setObjectName(QStringLiteral("labelsSummary"));
    m_labelsSummary->setWordWrap(true);
    m_labelsSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_loadSuspects = new QPushButton(tr("Show Suspect Labels"));
    m_loadSuspects->setObjectName(QStringLiteral("loadSuspectsButton"));
    m_loadSuspects->setToolTip(tr("The samples whose given label the newest label check contradicts, most confident first"));
    connect(m_loadSuspects, &QPushButton::clicked, this, &DatasetsPage::loadSuspectLabels);
    m_relabel = new QToolButton;
    m_relabel->setObjectName(QStringLiteral("relabelButton"));
    m_relabel->setText(tr("Relabel To…"));
    m_relabel->setToolTip(tr("Give the selected samples another label (kept in the workspace; the files are not changed)"));
    m_relabel->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_relabel);
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        menu->clear();
        const QStringList names = m_model->classNames();
        for (int c = 0; c < names.size(); ++c) menu->addAction(names[c], this, [this, c] { relabelSelected(c); });
    });
    m_relabel->setMenu(menu);
    m_exclude = new QPushButton(tr("Exclude"));
    m_exclude->setObjectName(QStringLiteral("excludeButton"));
    m_exclude->setToolTip(tr("Leave the selected samples out of training (kept in the workspace; the files are not changed)"));
    connect(m_exclude, &QPushButton::clicked, this, &DatasetsPage::excludeSelected);
    m_clearMark = new QPushButton(tr("Clear Mark"));
    m_clearMark->setObjectName(QStringLiteral("clearMarkButton"));
    connect(m_clearMark, &QPushButton::clicked, this, &DatasetsPage::clearSelectedMarks);
    m_showMarked = new QPushButton(tr("Show Marked Samples"));
    m_showMarked->setObjectName(QStringLiteral("showMarkedButton"));
    connect(m_showMarked, &QPushButton::clicked, this, &DatasetsPage::showMarked);

    connect(m_labelCheck, &LabelCheckPanel::checkFinished, this, &DatasetsPage::loadSuspectLabels);

    auto* layout = new QVBoxLayout(m_labelsTab);
    layout->addWidget(m_labelCheck);
    layout->addSpacing(8);
    layout->addWidget(m_loadSuspects);
    layout->addWidget(m_showMarked);
    auto* hint = new QLabel(tr("Select samples in the grid, then:"));
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(m_relabel);
    layout->addWidget(m_exclude);
    layout->addWidget(m_clearMark);
    layout->addWidget(m_labelsSummary);
    layout->addStretch(1);
    return m_labelsTab;
}

bool DatasetsPage::isStoreBusy() const { return m_storeRunning || !m_storeQueue.empty(); }

void DatasetsPage::runStore(std::function<StoreResult(const ts::Workspace&)> work)
{
    m_storeQueue.push_back(std::move(work));
    if (!m_storeRunning) startNextStore();  // else onStoreDone starts it
}

void DatasetsPage::startNextStore()
{
    if (m_storeQueue.empty()) return;
    auto next = std::move(m_storeQueue.front());
    m_storeQueue.erase(m_storeQueue.begin());
    m_storeRunning = true;  // until onStoreDone has taken the result
    m_store.setFuture(QtConcurrent::run([next = std::move(next), ws = m_workspace] {
        try {
            return next(ws);
        } catch (const std::exception& e) {  // a locked, damaged or unwritable studio.db
            StoreResult r;
            r.error = QString::fromLocal8Bit(e.what());
            return r;
        }
    }));
}

void DatasetsPage::onStoreDone()
{
    m_storeRunning = false;
    StoreResult r = m_store.result();
    if (!r.error.isEmpty()) {
        m_list->setError(tr("The workspace's store cannot be used: %1").arg(r.error));
        m_labelsSummary->setText(r.error);
    } else {
        m_list->setError({});
    }
    if (r.records) m_list->setRecords(std::move(*r.records));
    if (r.overlay) {
        m_overlay = std::move(*r.overlay);
        applyOverlay();
    }
    if (r.suspects) showSuspects(r.suspectsTitle, *r.suspects);
    startNextStore();
}

void DatasetsPage::applyOverlay()
{
    std::unordered_map<std::int64_t, SampleMark> train = m_verdicts, test;
    std::int64_t relabelled = 0, excluded = 0;
    for (const ts::LabelMark& m : m_overlay.marks) {
        auto& marks = m.split == "test" ? test : train;
        SampleMark& s = marks[m.sample];
        s.excluded = m.action == ts::LabelMark::Action::Exclude;
        s.relabel = m.action == ts::LabelMark::Action::Relabel ? m.label : -1;
        (s.excluded ? excluded : relabelled) += 1;
    }
    m_model->setMarks(std::move(train), std::move(test));
    if (m_opened.ok())
        m_labelsSummary->setText(tr("%1 sample(s) relabelled, %2 excluded. Training applies the marks; the files stay as they are.")
                                     .arg(relabelled)
                                     .arg(excluded));
}

void DatasetsPage::showMarked()
{
    std::vector<GridSample> samples;
    for (const ts::LabelMark& m : m_overlay.marks)
        samples.push_back({m.split == "test" ? SampleSource::Test : SampleSource::Train, m.sample});
    std::sort(samples.begin(), samples.end(),
              [](const GridSample& a, const GridSample& b) { return std::pair(int(a.source), a.index) < std::pair(int(b.source), b.index); });
    showSamples(tr("marked samples"), std::move(samples));
}

void DatasetsPage::loadSuspectLabels()
{
    if (!m_opened.ok()) return;
    const std::string key = m_opened.key().toStdString();
    m_labelsSummary->setText(tr("Reading the newest label check…"));
    runStore([key](const ts::Workspace& ws) {
        StoreResult r;
        const std::vector<ts::LabelCheckRecord> checks = ts::labelChecks(ws, key);
        if (checks.empty()) {
            r.error = DatasetsPage::tr("This dataset has no label check yet: run one above (in-sample with a finished run, "
                                       "or K-fold) and look again.");
            return r;
        }
        std::vector<ts::LabelScore> suspects;
        for (const ts::LabelScore& s : ts::labelScores(ws, checks.front().id))
            if (s.suspect) suspects.push_back(s);
        r.suspectsTitle = checks.front().method == "k_fold" ? DatasetsPage::tr("suspect labels (K-fold check)")
                                                            : DatasetsPage::tr("suspect labels (in-sample check)");
        r.suspects = std::move(suspects);
        r.overlay = ts::readLabelOverlay(ws, key);
        return r;
    });
}

void DatasetsPage::showSuspects(const QString& title, const std::vector<ts::LabelScore>& given)
{
    // Most suspect first, in the check's own order, whatever order they were handed over in.
    std::vector<ts::LabelScore> scores = given;
    std::stable_sort(scores.begin(), scores.end(), ts::moreSuspect);
    m_verdicts.clear();
    std::vector<GridSample> samples;
    samples.reserve(scores.size());
    for (const ts::LabelScore& s : scores) {
        samples.push_back({SampleSource::Train, s.sample});
        SampleMark& m = m_verdicts[s.sample];
        m.predicted = s.predicted;
        m.confidence = s.confidence;
    }
    applyOverlay();
    showSamples(title, std::move(samples));
    m_labelsSummary->setText(tr("%n suspect label(s): each caption gives the label, then “?” and the class the model predicts.",
                                nullptr, int(scores.size())));
}

std::vector<GridSample> DatasetsPage::selectedSamples() const
{
    std::vector<GridSample> out;
    QModelIndexList rows = m_grid->view()->selectionModel()->selectedIndexes();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    for (const QModelIndex& i : rows) out.push_back(m_model->sampleAt(i.row()));
    return out;
}

void DatasetsPage::writeMarks(const std::vector<ts::LabelMark>& marks, bool clear)
{
    if (!m_opened.ok() || marks.empty()) return;
    const std::string key = m_opened.key().toStdString();
    runStore([key, marks, clear](const ts::Workspace& ws) {
        StoreResult r;
        for (const ts::LabelMark& m : marks) {
            if (clear)
                ts::clearLabelMark(ws, key, m.split, m.sample);
            else
                ts::setLabelMark(ws, key, m);
        }
        r.overlay = ts::readLabelOverlay(ws, key);
        return r;
    });
}

void DatasetsPage::relabelSelected(std::int64_t label)
{
    std::vector<ts::LabelMark> marks;
    for (const GridSample& s : selectedSamples())
        marks.push_back({sourceName(s.source).toStdString(), s.index, ts::LabelMark::Action::Relabel, label});
    writeMarks(marks, false);
}

void DatasetsPage::excludeSelected()
{
    std::vector<ts::LabelMark> marks;
    for (const GridSample& s : selectedSamples())
        marks.push_back({sourceName(s.source).toStdString(), s.index, ts::LabelMark::Action::Exclude, -1});
    writeMarks(marks, false);
}

void DatasetsPage::clearSelectedMarks()
{
    std::vector<ts::LabelMark> marks;
    for (const GridSample& s : selectedSamples())
        marks.push_back({sourceName(s.source).toStdString(), s.index, ts::LabelMark::Action::Exclude, -1});
    writeMarks(marks, true);
}

}  // namespace ts::ui
