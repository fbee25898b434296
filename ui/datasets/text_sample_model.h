// The samples of a text dataset as rows of text (the Datasets page's list for formats text and
// text_folder, issue 40): a table over the page's SampleGridModel, so the split and class
// filters, a histogram click and a health finding list the same samples as for images. Each
// row decodes its sample's token ids (Dataset::get) with the dataset's tokenizer when the view
// asks for it, on one line with line breaks shown as ↵; nothing is decoded for rows not drawn.
#pragma once

#include <QAbstractTableModel>
#include <QCache>

#include "sample_grid_model.h"

namespace ts {
class Tokenizer;
}

namespace ts::ui {

class TextSampleModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SampleColumn, SplitColumn, ClassColumn, TokensColumn, TextColumn, ColumnCount };

    explicit TextSampleModel(SampleGridModel* samples, QObject* parent = nullptr);

    // Whether the list has a text dataset to show (the page shows the image grid otherwise).
    bool hasText() const { return m_tokenizer != nullptr; }
    // A language model's blocks have no class of their own: the class column says where the
    // block starts ("file:line") instead.
    bool blocks() const { return m_blocks; }
    GridSample sampleAt(int row) const { return m_samples->sampleAt(row); }
    QString text(int row) const;  // the sample's text as decoded (padding left out)
    std::int64_t tokenCount(int row) const;  // its tokens, padding left out

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Decoded {
        QString text;
        std::int64_t tokens = 0;
    };
    void refresh();
    void onReset();
    const Decoded& decoded(int row) const;
    const ts::Dataset* dataset(const GridSample& s) const;

    SampleGridModel* m_samples;
    const ts::Tokenizer* m_tokenizer = nullptr;
    bool m_blocks = false;
    mutable QCache<qint64, Decoded> m_cache{4096};  // by source * 2^40 + index
};

}  // namespace ts::ui
