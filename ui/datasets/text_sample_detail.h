// The Datasets page's Tokens tab (issue 40): one text sample as its tokens. Its heading (split
// and index), its class or where a language model's block starts, how many tokens it has and
// how much padding (not drawn), and the tokens themselves in a TokenView; a text classification
// sample longer than the context shows its cut tokens too, pale. The token under the mouse is
// named on the line below (and in a tool tip). Decoding is a lookup in memory: no worker.
#pragma once

#include <QWidget>

#include <cstdint>
#include <memory>

#include "data/dataset.h"

class QLabel;

namespace ts::ui {

class TokenView;

class TextSampleDetail : public QWidget {
    Q_OBJECT
public:
    explicit TextSampleDetail(QWidget* parent = nullptr);

    // Sample `index` of `data` (a text dataset); `where` says which, `className` its class
    // (empty for a language model's block).
    void showSample(std::shared_ptr<const ts::Dataset> data, std::int64_t index, const QString& where, const QString& className);
    void clear();

    TokenView* tokens() const { return m_tokens; }
    QString facts() const;           // the heading and facts, as shown (tests)
    QLabel* hoverLabel() const { return m_hover; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showFacts();
    void showHover(int index);

    std::shared_ptr<const ts::Dataset> m_data;
    std::int64_t m_index = -1;
    QString m_where, m_className;
    std::int64_t m_tokenCount = 0, m_padding = 0, m_cut = 0;
    QLabel* m_heading;
    QLabel* m_facts;
    TokenView* m_tokens;
    QLabel* m_hover;
};

}  // namespace ts::ui
