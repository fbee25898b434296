// Holds a word-wrapped QLabel at the height its text needs at its width. Form layouts lay
// rows out by their size hints and gave wrapped texts one or two lines, cutting the rest (an
// op's description, the summary's memory breakdown). Install with FullHeightLabel::keep.
#pragma once
#include <QEvent>
#include <QLabel>

namespace ts::ui {

class FullHeightLabel : public QObject {
public:
    static void keep(QLabel* label) { label->installEventFilter(new FullHeightLabel(label)); }
    // A new text, fitted at once (the width did not change, so no resize says so).
    static void setText(QLabel* label, const QString& text)
    {
        label->setText(text);
        fit(label);
    }
    static void fit(QLabel* label)
    {
        const int need = label->text().isEmpty() ? 0 : label->heightForWidth(label->width());
        if (need >= 0 && need != label->minimumHeight()) label->setMinimumHeight(need);
    }

protected:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize) fit(static_cast<QLabel*>(watched));
        return false;
    }
};

}  // namespace ts::ui
