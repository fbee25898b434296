#include "text_samples_box.h"

#include <QFontDatabase>
#include <QTextCursor>
#include <QTextEdit>
#include <QVBoxLayout>

namespace ts::ui {

namespace {

const char* const kSampleId = "train.text_sample";

// Control characters (a fortune's backspaces) as their visible symbols; line breaks stay.
QString visible(QString text)
{
    for (QChar& c : text) {
        if (c == u'\n' || c == u'\t') continue;
        if (c.unicode() < 0x20) c = QChar(0x2400 + c.unicode());
        else if (c.unicode() == 0x7f) c = QChar(0x2421);
    }
    return text;
}

}  // namespace

TextSamplesBox::TextSamplesBox(QWidget* parent) : QGroupBox(tr("Samples"), parent)
{
    setObjectName(QStringLiteral("textSamples"));
    setToolTip(tr("What the model writes after each epoch from the same prompt (highlighted) with the same seed: "
                  "only the model changes from one to the next"));
    m_view = new QTextEdit;
    m_view->setObjectName(QStringLiteral("textSamplesView"));
    m_view->setReadOnly(true);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Room for a sample's first lines at least (the page gives it more when it appears).
    m_view->setMinimumHeight(m_view->fontMetrics().lineSpacing() * 5);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view);
    clear();
}

bool TextSamplesBox::addMessage(const ts::Message& message)
{
    if (message.id != kSampleId || message.args.size() < 2) return false;
    bool ok = false;
    const qint64 epoch = QString::fromStdString(message.args[0]).toLongLong(&ok);
    if (!ok) return false;
    addSample(epoch, QString::fromStdString(message.args[1]),
              message.args.size() > 2 ? QString::fromStdString(message.args[2]) : QString());
    return true;
}

void TextSamplesBox::addSample(qint64 epoch, const QString& text, const QString& prompt)
{
    const qsizetype promptLength = !prompt.isEmpty() && text.startsWith(prompt) ? prompt.size() : 0;
    QTextCharFormat label;
    label.setFontWeight(QFont::Bold);
    label.setForeground(palette().color(QPalette::PlaceholderText));
    QTextCharFormat promptFormat;
    promptFormat.setFontWeight(QFont::Bold);
    QColor tint = palette().color(QPalette::Highlight);
    tint.setAlpha(60);
    promptFormat.setBackground(tint);

    // Newest at the top: each sample goes in before the ones already there.
    QTextCursor cursor(m_view->document());
    cursor.movePosition(QTextCursor::Start);
    const QString heading = tr("epoch %1:").arg(epoch);
    cursor.insertText(heading + QLatin1Char(' '), label);
    cursor.insertText(visible(text.left(promptLength)), promptFormat);
    cursor.insertText(visible(text.mid(promptLength)), QTextCharFormat());
    if (!m_samples.isEmpty()) {  // a blank line before the older one
        cursor.insertBlock();
        cursor.insertBlock();
    }
    m_view->moveCursor(QTextCursor::Start);
    m_samples.prepend(heading + QLatin1Char(' ') + text);
    show();
}

void TextSamplesBox::clear()
{
    m_view->clear();
    m_samples.clear();
    hide();
}

}  // namespace ts::ui
