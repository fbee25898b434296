#include "run_overview.h"

#include "ui/metric_names.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "graph/cost_model.h"
#include "graph/graph.h"
#include "io/yaml/experiment_yaml.h"
#include "runs_model.h"

namespace ts::ui {

namespace {

QLabel* heading(const QString& text)
{
    auto* label = new QLabel(text);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    return label;
}

QString number(double v) { return QLocale().toString(v, 'g', 4); }


int splitOrder(const std::string& name)
{
    if (name.starts_with("test_")) return 0;
    if (name.starts_with("val_")) return 1;
    return 2;
}

}  // namespace

RunOverview::RunOverview(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto form = [] {
        auto* f = new QFormLayout;
        f->setRowWrapPolicy(QFormLayout::WrapLongRows);
        return f;
    };
    m_metrics = form();
    m_settings = form();
    layout->addWidget(heading(tr("Final metrics")));
    layout->addLayout(m_metrics);
    layout->addSpacing(6);
    layout->addWidget(heading(tr("Settings")));
    layout->addLayout(m_settings);
    layout->addSpacing(6);
    m_lineageTitle = heading(tr("Lineage"));
    layout->addWidget(m_lineageTitle);
    m_lineage = new QTreeWidget;
    m_lineage->setObjectName(QStringLiteral("lineageTree"));
    m_lineage->setHeaderLabels({tr("Run"), tr("How"), tr("Result")});
    m_lineage->setToolTip(tr("Runs resumed or forked from one another. Activate a row to show that run."));
    m_lineage->header()->setStretchLastSection(false);
    m_lineage->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_lineage->setMinimumHeight(m_lineage->fontMetrics().height() * 6);
    layout->addWidget(m_lineage);
    connect(m_lineage, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit runActivated(item->data(0, Qt::UserRole).toLongLong());
    });
    clear();
}

RunOverview::Rows RunOverview::keySettings(const std::string& experimentYaml)
{
    Rows rows;
    ExperimentSpec spec;
    try {
        spec = parseExperiment(experimentYaml, "stored experiment");
    } catch (const std::exception& e) {
        rows.push_back({tr("Experiment:"), tr("cannot be read (%1)").arg(QString::fromUtf8(e.what()))});
        return rows;
    }
    const OptimizerSpec& o = spec.optimizer;
    QString optimizer = tr("%1, learning rate %2").arg(QString::fromStdString(o.type), number(o.lr));
    if (o.weightDecay > 0) optimizer += tr(", weight decay %1").arg(number(o.weightDecay));
    if (o.momentum > 0) optimizer += tr(", momentum %1").arg(number(o.momentum));
    rows.push_back({tr("Optimizer:"), optimizer});
    QString schedule = QString::fromStdString(spec.schedule.type);
    if (spec.schedule.warmupSteps > 0) schedule += tr(", warm-up of %1 steps").arg(spec.schedule.warmupSteps);
    rows.push_back({tr("Schedule:"), schedule});
    const TrainingSpec& t = spec.training;
    rows.push_back({tr("Batch size:"), t.accumulationSteps > 1
                                           ? tr("%1 × %2 accumulated").arg(t.batchSize).arg(t.accumulationSteps)
                                           : QString::number(t.batchSize)});
    rows.push_back({tr("Epochs:"), QString::number(t.epochs)});
    rows.push_back({tr("Precision:"), QString::fromStdString(t.precision)});
    if (t.clipGradNorm > 0) rows.push_back({tr("Gradient clipping:"), tr("norm %1").arg(number(t.clipGradNorm))});
    if (t.earlyStopping.enabled)
        rows.push_back({tr("Early stopping:"), tr("%1, patience %2")
                                                   .arg(QString::fromStdString(t.earlyStopping.metric))
                                                   .arg(t.earlyStopping.patience)});
    QString model = tr("%1 nodes").arg(spec.model.nodes.size());  // a graph always has several
    try {
        const CostReport cost = estimateCost(checkGraph(spec.model));
        model = tr("%1, %2 parameters, %3 MFLOPs a sample")
                    .arg(model, QLocale().toString(qint64(cost.parameters)), number(double(cost.flops) / 1e6));
    } catch (const std::exception&) {
        // The layer count alone: a stored model always checked when it ran, but not every old one reads.
    }
    rows.push_back({tr("Model:"), model});
    rows.push_back({tr("Dataset:"), tr("%1 (%2)").arg(QString::fromStdString(spec.dataset.path),
                                                     QString::fromStdString(spec.dataset.format))});
    return rows;
}

RunOverview::Rows RunOverview::finalMetrics(const std::vector<MetricSummary>& summaries)
{
    std::vector<const MetricSummary*> shown;
    for (const MetricSummary& s : summaries)
        if (splitOrder(s.name) < 2 || s.name.starts_with("train_")) shown.push_back(&s);
    std::stable_sort(shown.begin(), shown.end(), [](const MetricSummary* a, const MetricSummary* b) {
        return std::pair(splitOrder(a->name), a->name) < std::pair(splitOrder(b->name), b->name);
    });
    Rows rows;
    for (const MetricSummary* s : shown) {
        QString text = RunsModel::metricText(s->name, s->last);
        if (metricGoal(s->name) != MetricGoal::None && s->count > 1 && s->best != s->last)
            text = tr("%1 (best %2 at step %3)").arg(text, RunsModel::metricText(s->name, s->best)).arg(s->bestStep);
        rows.push_back({tr("%1:").arg(MetricNames::label(QString::fromStdString(s->name))), text});
    }
    if (rows.isEmpty()) rows.push_back({QString(), tr("Metrics appear after the first epoch.")});
    return rows;
}

void RunOverview::fill(QFormLayout* form, Rows& shown, const Rows& rows)
{
    if (rows == shown) return;
    shown = rows;
    while (form->rowCount() > 0) form->removeRow(0);
    for (const auto& [label, value] : rows) {
        auto* text = new QLabel(value);
        text->setWordWrap(true);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        if (label.isEmpty()) form->addRow(text);  // a note across the whole row
        else form->addRow(label, text);
    }
}

void RunOverview::showRun(const RunInfo& run, const std::vector<MetricSummary>& summaries,
                          const std::vector<RunListing>& runs)
{
    fill(m_metrics, m_shownMetrics, finalMetrics(summaries));
    fill(m_settings, m_shownSettings, keySettings(run.experimentYaml));
    showLineage(run, runs);
}

void RunOverview::clear()
{
    fill(m_metrics, m_shownMetrics, {});
    fill(m_settings, m_shownSettings, {});
    m_lineage->clear();
    m_shownLineage.clear();
    m_lineageTitle->hide();
    m_lineage->hide();
}

// The whole family: up from `run` to the first run, then every resume and fork below it.
void RunOverview::showLineage(const RunInfo& run, const std::vector<RunListing>& runs)
{
    std::map<qint64, const RunListing*> byId;
    std::map<qint64, std::vector<qint64>> children;  // parent -> children
    for (const RunListing& r : runs) {
        byId[r.run.id] = &r;
        if (r.run.parentRunId) children[*r.run.parentRunId].push_back(r.run.id);
    }
    qint64 root = run.id;
    std::set<qint64> seen{root};  // a damaged store could hold a cycle
    for (auto it = byId.find(root); it != byId.end() && it->second->run.parentRunId;) {
        const qint64 parent = *it->second->run.parentRunId;
        if (!byId.count(parent) || !seen.insert(parent).second) break;
        root = parent;
        it = byId.find(root);
    }
    QVector<qint64> family;
    std::function<void(qint64)> collect = [&](qint64 id) {
        family.push_back(id);
        std::vector<qint64> below = children[id];
        std::sort(below.begin(), below.end());  // oldest first, as they happened
        for (qint64 c : below)
            if (!family.contains(c)) collect(c);
    };
    collect(root);
    const bool alone = family.size() <= 1;
    m_lineageTitle->setVisible(!alone);
    m_lineage->setVisible(!alone);
    // Rebuild when the family or its results changed; the current run is marked each time.
    QVector<qint64> key = family;
    key.push_back(run.id);
    for (qint64 id : family)
        if (auto it = byId.find(id); it != byId.end()) key.push_back(qint64(it->second->run.status));
    if (key == m_shownLineage) return;
    m_shownLineage = key;
    m_lineage->clear();
    if (alone) return;

    std::map<qint64, QTreeWidgetItem*> items;
    for (qint64 id : family) {
        const auto found = byId.find(id);
        if (found == byId.end()) continue;
        const RunInfo& r = found->second->run;
        const auto parentItem = r.parentRunId ? items.find(*r.parentRunId) : items.end();
        auto* item = parentItem != items.end() ? new QTreeWidgetItem(parentItem->second) : new QTreeWidgetItem(m_lineage);
        items[id] = item;
        item->setData(0, Qt::UserRole, id);
        item->setText(0, tr("%1 · %2").arg(id).arg(QString::fromStdString(r.name)));
        item->setText(1, r.parentRelation == "resume" ? tr("resumed") : r.parentRelation == "fork" ? tr("forked") : QString());
        item->setText(2, RunsModel::resultText(headlineResult(found->second->summaries)));
        item->setToolTip(0, RunsModel::statusText(r.status));
        if (id == run.id) {
            QFont bold = item->font(0);
            bold.setBold(true);
            for (int c = 0; c < 3; ++c) item->setFont(c, bold);
        }
    }
    m_lineage->expandAll();
    m_lineage->header()->resizeSections(QHeaderView::ResizeToContents);
    m_lineage->header()->setSectionResizeMode(0, QHeaderView::Stretch);
}

QString RunOverview::settingText(const QString& label) const
{
    for (const auto& [l, v] : m_shownSettings)
        if (l == label) return v;
    return {};
}

QString RunOverview::metricText(const QString& metric) const
{
    for (const auto& [l, v] : m_shownMetrics)
        if (l == tr("%1:").arg(MetricNames::label(metric))) return v;
    return {};
}

}  // namespace ts::ui
