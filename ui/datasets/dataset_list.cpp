#include "dataset_list.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <sstream>

#include "dataset_opener.h"

namespace ts::ui {

namespace {

std::vector<std::string> commaList(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream s(text);
    std::string item;
    while (std::getline(s, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

}  // namespace

ts::DatasetSpec specOfRecord(const ts::DatasetRecord& record)
{
    ts::DatasetSpec spec;
    spec.format = record.format;
    spec.path = record.location;
    // datasetKey: "format\npath\nlabel=..\ngroup=..\nfeatures=a,b,\nshape=1,28,28,"
    std::stringstream key(record.key);
    std::string line;
    int n = 0;
    try {
        while (std::getline(key, line)) {
            if (n == 0 && !line.empty()) spec.format = line;
            else if (n == 1 && !line.empty()) spec.path = line;
            else if (line.rfind("label=", 0) == 0) spec.labelColumn = line.substr(6);
            else if (line.rfind("group=", 0) == 0) spec.groupColumn = line.substr(6);
            else if (line.rfind("text=", 0) == 0) spec.textColumn = line.substr(5);
            else if (line.rfind("features=", 0) == 0) spec.featureColumns = commaList(line.substr(9));
            else if (line.rfind("shape=", 0) == 0)
                for (const std::string& d : commaList(line.substr(6))) spec.imageShape.push_back(std::stoll(d));
            ++n;
        }
    } catch (const std::exception&) {  // not a key this reads: the location and format alone
        spec = ts::DatasetSpec{};
        spec.format = record.format;
        spec.path = record.location;
    }
    return spec;
}

DatasetList::DatasetList(QWidget* parent) : QWidget(parent)
{
    m_tree = new QTreeWidget;
    m_tree->setObjectName(QStringLiteral("datasetList"));
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setHeaderLabels({tr("Dataset"), tr("Format"), tr("Samples")});
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("datasetListError"));
    m_error->setWordWrap(true);
    m_error->hide();
    auto* title = new QLabel(tr("Datasets seen in this workspace"));
    title->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_error);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const int i = item ? item->data(0, Qt::UserRole).toInt() : -1;
        if (i >= 0 && i < int(m_records.size())) emit openRequested(m_records[std::size_t(i)]);
    });
}

void DatasetList::setRecords(std::vector<ts::DatasetRecord> records)
{
    m_records = std::move(records);
    m_tree->clear();
    const QLocale locale;
    for (std::size_t i = 0; i < m_records.size(); ++i) {
        const ts::DatasetRecord& r = m_records[i];
        QStringList splits;
        for (const auto& [name, size] : r.splits) splits << tr("%1: %2").arg(QString::fromStdString(name), locale.toString(qint64(size)));
        auto* item = new QTreeWidgetItem(m_tree, {QString::fromStdString(r.description).section(QLatin1String(" ("), 0, 0),
                                                  QString::fromStdString(r.format), locale.toString(qint64(r.samples))});
        item->setData(0, Qt::UserRole, int(i));
        item->setToolTip(0, tr("%1\n%2\n%3\nDouble-click to open").arg(QString::fromStdString(r.description),
                                                                       QString::fromStdString(r.location), splits.join(QStringLiteral(", "))));
        item->setToolTip(1, datasetFormatName(QString::fromStdString(r.format)));
        item->setToolTip(2, splits.join(QStringLiteral(", ")));
        if (r.key == m_current) {
            QFont f = item->font(0);
            f.setBold(true);
            for (int c = 0; c < 3; ++c) item->setFont(c, f);
        }
    }
}

void DatasetList::setCurrentKey(const std::string& key)
{
    m_current = key;
    setRecords(std::move(m_records));
}

void DatasetList::setError(const QString& error)
{
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
}

}  // namespace ts::ui
