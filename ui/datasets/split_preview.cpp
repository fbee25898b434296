#include "split_preview.h"

#include "count_text.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <fstream>
#include <set>

#include "data/csv_dataset.h"
#include "statistics_histogram.h"

namespace ts::ui {

namespace {


// The CSV's column names from its header line, by the engine's own CSV parser.
QStringList csvColumns(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::string header;
    if (!in || !std::getline(in, header)) return {};
    try {
        const auto records = parseCsv(header, path);
        QStringList out;
        if (!records.empty())
            for (const auto& f : records.front().fields) out << QString::fromStdString(f).trimmed();
        return out;
    } catch (const std::exception&) {
        return {};
    }
}

// "0.1" in any locale, and "0,1" in one that writes decimals so.
bool parseDouble(const QString& text, double& out)
{
    bool ok = false;
    out = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok) out = QLocale::c().toDouble(text.trimmed(), &ok);
    return ok;
}

}  // namespace

SplitPreview::SplitPreview(QWidget* parent) : QWidget(parent)
{
    m_fraction = new QLineEdit(this);
    m_fraction->setObjectName(QStringLiteral("validationFraction"));
    m_seed = new QLineEdit(this);
    m_seed->setObjectName(QStringLiteral("splitSeed"));
    m_group = new QComboBox(this);
    m_group->setObjectName(QStringLiteral("groupColumn"));
    m_group->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_fractionLabel = new QLabel(this);
    m_seedLabel = new QLabel(this);
    m_groupLabel = new QLabel(this);
    m_refusal = new QLabel(this);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_refusal->hide();
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, 0, this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* form = new QFormLayout;
    form->addRow(m_fractionLabel, m_fraction);
    form->addRow(m_seedLabel, m_seed);
    form->addRow(m_groupLabel, m_group);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_refusal);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    connect(m_fraction, &QLineEdit::textEdited, this, &SplitPreview::recount);
    connect(m_seed, &QLineEdit::textEdited, this, &SplitPreview::recount);
    connect(m_fraction, &QLineEdit::editingFinished, this, &SplitPreview::commit);
    connect(m_seed, &QLineEdit::editingFinished, this, &SplitPreview::commit);
    connect(m_group, &QComboBox::activated, this, &SplitPreview::chooseGroup);
    connect(&m_watcher, &QFutureWatcher<Reopened>::finished, this, &SplitPreview::onReopened);
    retranslate();
    setSpec(DatasetSpec{}, nullptr);
}

SplitPreview::~SplitPreview() = default;  // a running reopen keeps its own copies

QString SplitPreview::refusal() const { return m_refusal->isHidden() ? QString() : m_refusal->text(); }

void SplitPreview::setSpec(const DatasetSpec& spec, std::shared_ptr<const DatasetFiles> files)
{
    if (files && files == m_reopenSource && spec.groupColumn == m_reopenColumn) files = m_reopened;
    if (m_files && files == m_files && spec == m_spec) return;
    ++m_generation;  // a group column still being read is for the old settings
    m_reading = false;
    m_group->setEnabled(true);
    m_spec = m_emitted = spec;
    m_files = std::move(files);
    m_classNames.clear();
    if (m_files && m_files->train)
        for (const auto& n : m_files->train->classNames()) m_classNames << QString::fromStdString(n);
    m_fraction->setText(QLocale::c().toString(spec.validationFraction, 'g', 6));
    m_seed->setText(QString::number(qulonglong(spec.splitSeed)));
    m_refusal->hide();
    m_counts.clear();  // another dataset's counts must not stay under a refused fraction
    fillGroupColumns();
    recount();
    if (!m_refusal->isHidden()) showCounts();
}

void SplitPreview::fillGroupColumns()
{
    const bool csv = m_spec.format == "csv";
    m_group->setVisible(csv);
    m_groupLabel->setVisible(csv);
    m_group->clear();
    if (!csv) return;
    m_group->addItem(tr("(none)"), QString());
    QStringList columns = m_files ? csvColumns(m_files->path) : QStringList();
    const QString current = QString::fromStdString(m_spec.groupColumn);
    if (!current.isEmpty() && !columns.contains(current)) columns << current;
    for (const QString& c : columns)
        if (c != QString::fromStdString(m_spec.labelColumn)) m_group->addItem(c, c);
    m_group->setCurrentIndex(std::max(0, m_group->findData(current)));
}

bool SplitPreview::readFields()
{
    double fraction = 0;
    QString why;
    if (!parseDouble(m_fraction->text(), fraction))
        why = tr("The validation fraction \"%1\" is not a number: write a share of the training data such as 0.1.")
                  .arg(m_fraction->text());
    else if (!(fraction >= 0.0 && fraction < 1.0))
        why = tr("The validation fraction must be at least 0 and below 1 (0 keeps no validation split), not %1.")
                  .arg(m_fraction->text());
    bool seedOk = false;
    const qulonglong seed = m_seed->text().trimmed().toULongLong(&seedOk);
    if (why.isEmpty() && !seedOk)
        why = tr("The split seed must be a whole number from 0 to 18446744073709551615, not \"%1\".").arg(m_seed->text());
    m_refusal->setText(why);
    m_refusal->setVisible(!why.isEmpty());
    if (!why.isEmpty()) return false;
    m_spec.validationFraction = fraction;
    m_spec.splitSeed = seed;
    return true;
}

void SplitPreview::recount()
{
    if (!readFields()) return;  // the last valid counts stay, under the reason
    m_counts.clear();
    m_countError.clear();
    if (m_files && m_files->train && !isReading()) {
        try {
            m_counts = splitClassCounts(*m_files, m_spec);
        } catch (const std::exception& e) {
            m_countError = QString::fromStdString(e.what());
        }
    }
    showCounts();
}

void SplitPreview::commit()
{
    if (!readFields() || isReading()) return;
    if (m_spec == m_emitted) return;
    m_emitted = m_spec;
    emit specEdited(m_spec);
}

void SplitPreview::chooseGroup()
{
    const std::string column = m_group->currentData().toString().toStdString();
    if (column == m_spec.groupColumn || !m_files) return;
    if (!readFields()) return;
    DatasetSpec spec = m_spec;
    spec.groupColumn = column;
    spec.path = m_files->path;  // resolved already
    m_summary->setText(tr("Reading the groups of column %1…").arg(column.empty() ? tr("(none)") : QString::fromStdString(column)));
    m_group->setEnabled(false);
    m_reading = true;
    m_watcher.setFuture(QtConcurrent::run([spec, generation = ++m_generation]() {
        Reopened out;
        out.generation = generation;
        try {
            out.files = std::make_shared<const DatasetFiles>(openDatasetFiles(spec, std::string()));
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void SplitPreview::onReopened()
{
    const Reopened r = m_watcher.result();
    if (r.generation != m_generation) return;
    m_reading = false;
    m_group->setEnabled(true);
    if (!r.files) {
        m_refusal->setText(tr("The group column cannot be used: %1").arg(r.error));
        m_refusal->show();
        m_group->setCurrentIndex(std::max(0, m_group->findData(QString::fromStdString(m_spec.groupColumn))));
        showCounts();
        return;
    }
    m_reopenSource = m_reopenSource && m_files == m_reopened ? m_reopenSource : m_files;
    m_reopened = m_files = r.files;
    m_reopenColumn = m_group->currentData().toString().toStdString();
    m_spec.groupColumn = m_group->currentData().toString().toStdString();
    recount();
    commit();
}

void SplitPreview::showCounts()
{
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    if (!m_files || !m_files->train) {
        m_summary->setText(tr("Open a dataset to see how it splits."));
        return;
    }
    if (!m_countError.isEmpty()) {
        m_summary->setText(m_countError);
        return;
    }
    const int splits = int(m_counts.size());
    const int classes = m_counts.empty() ? 0 : int(m_counts.front().counts.size());
    m_table->setColumnCount(splits);
    m_table->setRowCount(classes + 1);
    QStringList headers, rows;
    for (const auto& s : m_counts) headers << StatisticsHistogram::splitTitle(s.split);
    for (int c = 0; c < classes; ++c) rows << (c < m_classNames.size() ? m_classNames[c] : QString::number(c));
    rows << tr("All");
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setVerticalHeaderLabels(rows);
    for (int s = 0; s < splits; ++s) {
        const auto& split = m_counts[std::size_t(s)];
        for (int c = 0; c <= classes; ++c) {
            const std::int64_t n = c < classes ? split.counts[std::size_t(c)] : split.total;
            auto* item = new QTableWidgetItem(countText(n));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == classes) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            m_table->setItem(c, s, item);
        }
    }
    const std::int64_t all = m_files->train->size();
    std::int64_t validation = 0;
    for (const auto& s : m_counts)
        if (s.split == "validation") validation = s.total;
    QString text = tr("%1 of the %2 training samples go to validation (%3%).")
                       .arg(countText(validation), countText(all), QLocale().toString(all ? 100.0 * double(validation) / double(all) : 0.0, 'f', 1));
    if (!m_files->groups.empty()) {
        std::set<std::int64_t> groups(m_files->groups.begin(), m_files->groups.end());
        text += ' ' + tr("Rows of one group (%1 groups in column %2) stay on one side.")
                          .arg(countText(std::int64_t(groups.size())), QString::fromStdString(m_spec.groupColumn));
    }
    m_summary->setText(text);
}

void SplitPreview::retranslate()
{
    m_fractionLabel->setText(tr("Validation fraction:"));
    m_fraction->setToolTip(tr("The share of the training data held out for validation, at least 0 and below 1 "
                              "(dataset.validation_fraction)."));
    m_seedLabel->setText(tr("Split seed:"));
    m_seed->setToolTip(tr("Which samples go to validation; the same seed always gives the same split "
                          "(dataset.split_seed)."));
    m_groupLabel->setText(tr("Group column:"));
    m_group->setToolTip(tr("Rows sharing a value of this column (a patient, a user, a session) all go to the same "
                           "split, so validation never sees a group that training saw (dataset.group_column)."));
    if (m_group->count() > 0) m_group->setItemText(0, tr("(none)"));
    showCounts();
}

void SplitPreview::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

}  // namespace ts::ui
