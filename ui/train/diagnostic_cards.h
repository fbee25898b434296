// The Train page's diagnostic cards: one card per diagnostic the engine raised for the run
// (engine/train/diagnostics.h): a title, what was seen and the advice (the engine's message
// in the user's language), and a button per action the rule offers. The page carries the
// actions out; the cards only ask (actionRequested).
//
// Each card keeps its rule id (property "rule"); a "more…" in its head opens the rule's
// glossary entry (also its "glossaryEntry" property, for F1).
#pragma once

#include <QString>
#include <QWidget>

#include "types/message.h"

class QFrame;
class QVBoxLayout;

namespace ts::ui {

class DiagnosticCards : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticCards(QWidget* parent = nullptr);

    // A card for `message` (a diagnostic's) of run `runId` (-1: not recorded; the actions that
    // need a stored run are then disabled). A rule already shown is not shown twice.
    void addDiagnostic(const ts::Message& message, qint64 runId);
    void clear();
    int count() const;
    // The card of rule `ruleId` ("diag.non_finite"); null when none shows. For tests.
    QFrame* card(const QString& ruleId) const;

    // The words for a rule's title and an action's button.
    static QString title(const QString& ruleId);
    static QString actionText(const QString& actionId);

signals:
    void actionRequested(const QString& ruleId, const QString& actionId, qint64 runId);

private:
    static constexpr int kMaxHeight = 320;
    void fitHeight();

    QWidget* m_content = nullptr;
    QVBoxLayout* m_list = nullptr;
};

}  // namespace ts::ui
