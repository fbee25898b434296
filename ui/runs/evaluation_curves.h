// One-vs-rest ROC and precision-recall curves of every class, side by side, with each
// class's AUC or average precision in the legend (a NaN area, for a class with no positives
// or no negatives, reads "—"), and the chance diagonal on the ROC plot.
#pragma once

#include <QStringList>
#include <QWidget>

#include "train/classification_report.h"

class QCustomPlot;
class QCPCurve;

namespace ts::ui {

class EvaluationCurves : public QWidget {
    Q_OBJECT
public:
    explicit EvaluationCurves(QWidget* parent = nullptr);

    void setCurves(const std::vector<ts::RocCurve>& roc, const std::vector<ts::PrecisionRecallCurve>& precisionRecall);
    void setClassNames(const QStringList& names);
    void clear();

    QCustomPlot* rocPlot() const { return m_roc; }
    QCustomPlot* precisionRecallPlot() const { return m_pr; }
    // Class c's curve (for tests); null when there is none.
    QCPCurve* rocCurve(int c) const;
    QCPCurve* precisionRecallCurve(int c) const;

private:
    void draw();
    QString className(int c) const;

    std::vector<ts::RocCurve> m_rocData;
    std::vector<ts::PrecisionRecallCurve> m_prData;
    QStringList m_names;
    QCustomPlot* m_roc = nullptr;
    QCustomPlot* m_pr = nullptr;
    std::vector<QCPCurve*> m_rocCurves, m_prCurves;
};

}  // namespace ts::ui
