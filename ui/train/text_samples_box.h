// The Train page's "Samples" box for a language model's run: the text it wrote after each
// epoch (the trainer's sample from one fixed prompt with one seed, a train.text_sample log
// event), newest at the top, the prompt highlighted, so the user watches gibberish turn into
// words as only the model changes. Hidden until the run's first sample arrives.
#pragma once

#include <QGroupBox>
#include <QStringList>

#include "types/message.h"

class QTextEdit;

namespace ts::ui {

class TextSamplesBox : public QGroupBox {
    Q_OBJECT
public:
    explicit TextSamplesBox(QWidget* parent = nullptr);

    // A sample message (others are ignored): its arguments are the epoch, the text (prompt and
    // continuation) and, when the engine gives it, the prompt. Returns whether it was one.
    bool addMessage(const ts::Message& message);
    void addSample(qint64 epoch, const QString& text, const QString& prompt = {});
    void clear();  // a new run: empty and hidden

    QStringList samples() const { return m_samples; }  // "epoch N: text", newest first (tests)
    QTextEdit* view() const { return m_view; }

private:
    QTextEdit* m_view = nullptr;
    QStringList m_samples;
};

}  // namespace ts::ui
