#include "text_sample_detail.h"

#include "count_text.h"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "data/text_classification_dataset.h"
#include "data/text_statistics.h"
#include "data/tokenizer.h"
#include "token_text.h"
#include "token_view.h"

namespace ts::ui {

TextSampleDetail::TextSampleDetail(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("textSampleDetail"));
    m_heading = new QLabel;
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    m_heading->setWordWrap(true);
    m_facts = new QLabel;
    m_facts->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tokens = new TokenView;
    m_tokens->setObjectName(QStringLiteral("tokenView"));
    auto* area = new QScrollArea;
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidget(m_tokens);
    m_hover = new QLabel;
    m_hover->setObjectName(QStringLiteral("tokenHover"));
    m_hover->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_facts);
    layout->addWidget(area, 1);
    layout->addWidget(m_hover);
    connect(m_tokens, &TokenView::hovered, this, &TextSampleDetail::showHover);
    clear();
}

void TextSampleDetail::clear()
{
    m_data.reset();
    m_index = -1;
    m_tokens->setTokens({});
    showFacts();
    showHover(-1);
}

void TextSampleDetail::showSample(std::shared_ptr<const ts::Dataset> data, std::int64_t index, const QString& where,
                                  const QString& className)
{
    m_data = std::move(data);
    m_index = index;
    m_where = where;
    m_className = className;
    const ts::Tokenizer* tokenizer = m_data ? ts::textTokenizer(*m_data) : nullptr;
    std::vector<TokenCell> cells;
    m_tokenCount = m_padding = m_cut = 0;
    if (tokenizer && index >= 0 && index < m_data->size()) {
        std::vector<std::int64_t> ids = ts::sampleTokens(*m_data, index);
        const std::int64_t pad = tokenizer->paddingId();
        std::size_t seen = ids.size();
        std::erase(ids, pad);
        m_padding = std::int64_t(seen - ids.size());
        m_tokenCount = std::int64_t(ids.size());
        // A text cut at the context: its whole tokens, the ones the model does not see pale.
        const auto* texts = dynamic_cast<const ts::TextClassificationDataset*>(m_data.get());
        if (texts && m_padding == 0) {
            try {
                std::vector<std::int64_t> whole = tokenizer->encode(texts->text(index));
                if (whole.size() > ids.size()) {
                    m_cut = std::int64_t(whole.size() - ids.size());
                    ids = std::move(whole);
                }
            } catch (const std::exception&) {
                // the tokens the model sees are shown all the same
            }
        }
        cells.reserve(ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const std::string& piece = tokenizer->piece(ids[i]);
            cells.push_back({ids[i], visibleToken(piece), piece.find('\n') != std::string::npos,
                             std::int64_t(i) >= m_tokenCount});
        }
    }
    m_tokens->setTokens(std::move(cells));
    showFacts();
    showHover(-1);
}

QString TextSampleDetail::facts() const { return m_heading->text() + QLatin1Char('\n') + m_facts->text(); }

void TextSampleDetail::showFacts()
{
    if (!m_data || m_index < 0) {
        m_heading->setText(tr("No sample selected"));
        m_facts->setText(tr("Click a text in the list to see its tokens: each token on its own colour, a line break as ↵, "
                            "a space as ␣."));
        return;
    }
    m_heading->setText(m_where);
    QStringList lines;
    if (!m_className.isEmpty()) lines << tr("Class: %1").arg(m_className);
    const QString source = QString::fromStdString(m_data->sampleSource(m_index));
    if (!source.isEmpty()) lines << tr("From: %1").arg(source);
    const ts::Tokenizer* tokenizer = ts::textTokenizer(*m_data);
    QString count = tr("%1 tokens (tokenizer: %2)").arg(countText(m_tokenCount), QString::fromStdString(tokenizer->kind()));
    if (m_padding > 0) count += QLatin1String("; ") + tr("padded with %1 more (id 0, not drawn)").arg(countText(m_padding));
    if (m_cut > 0)
        count += QLatin1String("; ") + tr("the text has %1 more, cut off at the context and drawn pale").arg(countText(m_cut));
    lines << count;
    m_facts->setText(lines.join(QLatin1Char('\n')));
}

void TextSampleDetail::showHover(int index)
{
    m_hover->setText(index >= 0 ? m_tokens->describe(index)
                     : m_tokens->tokens().empty() ? QString()
                                                  : tr("Point at a token to see its id."));
}

void TextSampleDetail::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        showFacts();
        showHover(m_tokens->hoveredToken());
    }
}

}  // namespace ts::ui
