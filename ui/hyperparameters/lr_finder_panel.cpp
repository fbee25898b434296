#include "lr_finder_panel.h"

#include <QFormLayout>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "range_test_chart.h"
#include "scientific_spin_box.h"
#include "ui/train/training_session.h"

namespace ts::ui {

namespace {
const QColor kValley(214, 39, 40), kSteepest(44, 160, 44), kMinimum(148, 103, 189);
QString rate(double lr) { return widgets::ScientificSpinBox::compactText(lr); }
// Three significant digits: a rate is not known better than that from one sweep, and it is
// what gets written into the experiment.
double rounded(double lr) { return QString::number(lr, 'g', 3).toDouble(); }
QString shortRate(double lr) { return widgets::ScientificSpinBox::compactText(rounded(lr)); }
}  // namespace

LrFinderPanel::LrFinderPanel(TrainingSession* session, QWidget* parent) : QWidget(parent), m_session(session)
{
    m_seeds = new QSpinBox(this);
    m_seeds->setRange(1, 8);
    m_seeds->setToolTip(tr("Repeat the test from this many seeds (other initial weights and batch order) and draw "
                           "their band: one seed's curve can mislead."));
    m_steps = new QSpinBox(this);
    m_steps->setRange(20, 2000);
    m_steps->setValue(100);
    m_steps->setToolTip(tr("Optimizer steps of the sweep; the test stops early when the loss passes 4x its best."));
    m_minLr = new widgets::ScientificSpinBox(this);
    m_minLr->setRange(1e-12, 1e3);
    m_minLr->setValue(1e-7);
    m_maxLr = new widgets::ScientificSpinBox(this);
    m_maxLr->setRange(1e-10, 1e4);
    m_maxLr->setValue(10);
    m_run = new QPushButton(tr("Find Learning Rate"), this);
    m_run->setObjectName(QStringLiteral("findLearningRate"));
    m_run->setToolTip(tr("Train a few steps while the learning rate grows exponentially, and read the best rate off "
                         "the loss curve. Nothing is recorded; the experiment is not changed."));
    m_stop = new QPushButton(tr("Stop"), this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    auto* settings = new QHBoxLayout;
    auto* form = new QFormLayout;
    form->addRow(tr("Seeds:"), m_seeds);
    form->addRow(tr("Steps:"), m_steps);
    auto* range = new QFormLayout;
    range->addRow(tr("From:"), m_minLr);
    range->addRow(tr("To:"), m_maxLr);
    settings->addLayout(form);
    settings->addLayout(range);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    buttons->addStretch();
    settings->addLayout(buttons);
    settings->addStretch();

    m_chart = new widgets::RangeTestChart(this);
    m_chart->setMinimumHeight(220);
    m_chart->setEmptyNote(tr("Run the test to see the loss against the learning rate"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warning = new QLabel(this);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #b35900;"));
    m_applyValley = new QPushButton(this);
    m_applySteepest = new QPushButton(this);
    m_applyMinimum = new QPushButton(this);
    m_asOneCycle = new QCheckBox(tr("As the peak of a one-cycle schedule"), this);
    m_asOneCycle->setObjectName(QStringLiteral("applyAsOneCycle"));
    m_asOneCycle->setChecked(false);  // Apply changes the rate only, unless asked for more
    m_asOneCycle->setToolTip(tr("The range test finds the top of a cyclical schedule (Smith, 2015; fastai pairs its finder "
                                "with one-cycle). Checked, Apply switches the schedule to one-cycle peaking at the rate, "
                                "which trains further in few epochs; unchecked, the rate replaces optimizer.lr and the "
                                "schedule stays."));
    auto* apply = new QHBoxLayout;
    for (QPushButton* b : {m_applyValley, m_applySteepest, m_applyMinimum}) apply->addWidget(b);
    apply->addStretch();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(settings);
    layout->addWidget(m_status);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_warning);
    layout->addLayout(apply);
    layout->addWidget(m_asOneCycle);  // its own line: the three buttons already fill a narrow panel
    m_sideEffect = new QLabel(this);
    m_sideEffect->setObjectName(QStringLiteral("applySideEffect"));
    m_sideEffect->setWordWrap(true);
    m_sideEffect->setStyleSheet(QStringLiteral("color: #b35900;"));
    layout->addWidget(m_sideEffect);
    connect(m_asOneCycle, &QCheckBox::toggled, this, &LrFinderPanel::updateSideEffect);

    connect(m_run, &QPushButton::clicked, this, &LrFinderPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &LrFinderPanel::cancel);
    connect(m_applyValley, &QPushButton::clicked, this, [this] { if (m_result) emit applyRequested(rounded(m_result->suggestions.valley), offersOneCycle() && m_asOneCycle->isChecked()); });
    connect(m_applySteepest, &QPushButton::clicked, this, [this] { if (m_result) emit applyRequested(rounded(m_result->suggestions.steepest), offersOneCycle() && m_asOneCycle->isChecked()); });
    connect(m_applyMinimum, &QPushButton::clicked, this, [this] { if (m_result) emit applyRequested(rounded(m_result->suggestions.minimum), offersOneCycle() && m_asOneCycle->isChecked()); });
    if (m_session) {
        connect(m_session, &TrainingSession::stepsArrived, this, &LrFinderPanel::onSteps);
        connect(m_session, &TrainingSession::jobsChanged, this, &LrFinderPanel::onJobsChanged);
    }
    showResult();
    updateControls();
}

void LrFinderPanel::setExperiment(const ExperimentSpec& spec)
{
    m_spec = spec;
    updateControls();
    m_asOneCycle->setVisible(m_result.has_value() && offersOneCycle());
    updateSideEffect();
}

// Said before Apply is pressed, so a schedule is never replaced unseen.
void LrFinderPanel::updateSideEffect()
{
    QString text;
    if (m_spec && m_result && !m_asOneCycle->isHidden() && m_asOneCycle->isChecked())
        text = finderSideEffect(*m_spec, withFinderRate(*m_spec, m_result->suggestions.valley, true));
    m_sideEffect->setText(text);
    m_sideEffect->setVisible(!text.isEmpty());
    fitHeight();
}

void LrFinderPanel::fitHeight()
{
    if (layout() && layout()->hasHeightForWidth() && width() > 0) setMinimumHeight(layout()->heightForWidth(width()));
}

void LrFinderPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitHeight();
}

ExperimentSpec withFinderRate(const ExperimentSpec& spec, double lr, bool asOneCycle)
{
    ExperimentSpec out = spec;
    if (asOneCycle && out.schedule.type != "onecycle") {
        out.schedule = ScheduleSpec{};  // one-cycle warms up itself: no other schedule's settings apply
        out.schedule.type = "onecycle";
    }
    if (out.schedule.type == "onecycle") out.schedule.maxLr = lr;
    else out.optimizer.lr = lr;
    return out;
}

QString finderEditText(const ExperimentSpec& applied)
{
    const ScheduleSpec& s = applied.schedule;
    if (s.type == "onecycle")
        return LrFinderPanel::tr("Apply finder: one-cycle peak %1, warm-up %2").arg(QString::number(s.maxLr, 'g', 3)).arg(s.warmupSteps);
    return LrFinderPanel::tr("Apply finder: learning rate %1").arg(QString::number(applied.optimizer.lr, 'g', 3));
}

QString finderSideEffect(const ExperimentSpec& before, const ExperimentSpec& after)
{
    if (before.schedule.type == after.schedule.type) return {};
    const QString warmup = before.schedule.warmupSteps > 0
                               ? LrFinderPanel::tr(" with %n warm-up step(s)", nullptr, int(before.schedule.warmupSteps))
                               : QString();
    return LrFinderPanel::tr("Apply replaces the %1 schedule%2 by one-cycle (its own warm-up, none of the old settings). "
                             "Edit > Undo takes it back.")
        .arg(QString::fromStdString(before.schedule.type), warmup);
}

// A schedule with a peak of its own (one-cycle) takes the rate as that peak anyway; the plateau
// and range-test schedules are driven by something else.
bool LrFinderPanel::offersOneCycle() const
{
    return m_spec && m_spec->schedule.type != "onecycle" && m_spec->schedule.type != "plateau" &&
           m_spec->schedule.type != "range_test";
}

void LrFinderPanel::setSeeds(int seeds) { m_seeds->setValue(seeds); }
void LrFinderPanel::setSteps(int steps) { m_steps->setValue(steps); }

void LrFinderPanel::start()
{
    if (!m_spec || !m_session || isRunning()) return;
    m_curves.clear();
    m_result.reset();
    m_chart->clear();
    const std::uint64_t firstSeed = m_spec->training.seed;
    for (int k = 0; k < m_seeds->value(); ++k) {
        LrFindJob job;
        job.experiment = *m_spec;
        job.experiment.training.seed = firstSeed + std::uint64_t(k);
        job.steps = m_steps->value();
        job.minLr = m_minLr->value();
        job.maxLr = m_maxLr->value();
        Curve curve;
        curve.seed = job.experiment.training.seed;
        m_curves.push_back(curve);
        // Nothing is recorded: the test is not a run of the workspace.
        const qint64 id = m_session->enqueue(job, tr("%1: learning-rate test, seed %2")
                                                      .arg(QString::fromStdString(m_spec->name))
                                                      .arg(curve.seed),
                                             QString());
        m_pending.insert(id, int(m_curves.size()) - 1);
    }
    m_status->setText(tr("Queued %n test(s).", nullptr, m_seeds->value()));
    showResult();
    updateControls();
}

void LrFinderPanel::cancel()
{
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it) m_session->cancel(it.key());
}

void LrFinderPanel::onSteps(const QVector<StepPoint>& steps)
{
    const auto it = m_pending.constFind(m_session->currentJob());
    if (it == m_pending.cend()) return;
    Curve& c = m_curves[std::size_t(*it)];
    for (const StepPoint& s : steps) c.lrs.push_back(s.lr), c.losses.push_back(s.loss);
    m_status->setText(tr("Seed %1: step %2, learning rate %3").arg(c.seed).arg(c.lrs.size()).arg(rate(c.lrs.back())));
    redraw();
}

void LrFinderPanel::onJobsChanged()
{
    if (m_pending.isEmpty()) return;
    for (const JobRow& row : m_session->jobs()) {
        const auto it = m_pending.find(row.id);
        if (it == m_pending.end() || !row.isDone()) continue;
        Curve& c = m_curves[std::size_t(*it)];
        c.failed = row.state != JobRow::State::Finished;
        if (row.state == JobRow::State::Failed) m_status->setText(row.message);
        m_pending.erase(it);
    }
    if (!m_pending.isEmpty()) return;
    std::vector<LrRangeCurve> complete;
    for (const Curve& c : m_curves)
        if (!c.failed && c.lrs.size() >= 5) complete.push_back(smoothRangeTest(c.lrs, c.losses));
    if (!complete.empty()) {
        m_result = combineRangeTests(complete);
        m_status->setText(tr("Finished %n seed(s).", nullptr, int(complete.size())));
    } else if (m_status->text().isEmpty() || m_status->text().startsWith(tr("Seed"))) {
        m_status->setText(tr("The test was stopped before it could suggest a rate."));
    }
    redraw();
    showResult();
    updateControls();
    emit finished();
}

void LrFinderPanel::redraw()
{
    std::vector<std::vector<double>> lrs, losses;
    for (const Curve& c : m_curves) {
        if (c.lrs.empty()) continue;
        const LrRangeCurve smoothed = smoothRangeTest(c.lrs, c.losses);
        lrs.push_back(smoothed.lrs);
        losses.push_back(smoothed.losses);
    }
    m_chart->setCurves(lrs, losses);
    if (m_result && m_result->perCurve.size() > 1) m_chart->setBand(m_result->lrs, m_result->mean, m_result->low, m_result->high);
}

void LrFinderPanel::showResult()
{
    const bool has = m_result.has_value();
    for (QPushButton* b : {m_applyValley, m_applySteepest, m_applyMinimum}) b->setVisible(has);
    m_asOneCycle->setVisible(has && offersOneCycle());
    updateSideEffect();
    m_summary->setVisible(has);
    m_warning->setVisible(false);
    if (!has) {
        m_chart->setMarks({});
        return;
    }
    const LrSuggestions& s = m_result->suggestions;
    m_chart->setMarks({{s.valley, tr("valley %1").arg(shortRate(s.valley)), kValley},
                       {s.steepest, tr("steepest %1").arg(shortRate(s.steepest)), kSteepest},
                       {s.minimum, tr("minimum ÷ 10 %1").arg(shortRate(s.minimum)), kMinimum}});
    m_applyValley->setText(tr("Apply valley %1").arg(shortRate(s.valley)));
    m_applyValley->setToolTip(tr("The suggested rate: halfway along the longest stretch over which the loss keeps falling."));
    m_applySteepest->setText(tr("Apply steepest %1").arg(shortRate(s.steepest)));
    m_applySteepest->setToolTip(tr("Where the loss falls fastest against the logarithm of the rate."));
    m_applyMinimum->setText(tr("Apply minimum ÷ 10: %1").arg(shortRate(s.minimum)));
    m_applyMinimum->setToolTip(tr("The rate of the lowest loss divided by 10: the cautious rule."));
    // The suggestion is the median rule: its button is the default, in bold.
    for (QPushButton* b : {m_applyValley, m_applySteepest, m_applyMinimum}) {
        QFont f = b->font();
        f.setBold(false);
        b->setFont(f);
    }
    QPushButton* suggested = s.suggested == s.valley ? m_applyValley : s.suggested == s.steepest ? m_applySteepest : m_applyMinimum;
    QFont bold = suggested->font();
    bold.setBold(true);
    suggested->setFont(bold);
    suggested->setToolTip(tr("Suggested: the median of the three rules, wrong only when two of them are.") + QLatin1Char('\n') +
                          suggested->toolTip());
    const int seeds = int(m_result->perCurve.size());
    m_summary->setText(seeds > 1 ? tr("Read off the mean of %n seeds over the %1 steps all of them reached.", nullptr, seeds)
                                       .arg(m_result->lrs.size())
                                 : tr("Read off one seed's %1 steps; more seeds draw a band and show how far to trust it.")
                                       .arg(m_result->lrs.size()));
    QStringList warnings;
    if (s.rulesDisagree())
        warnings << tr("The rules disagree by %1x: the curve has no clear answer. Try more seeds or more steps, and "
                       "prefer the lower rates.")
                        .arg(s.spread, 0, 'f', 1);
    if (m_result->seedSpread() > 3)
        warnings << tr("The seeds' suggestions differ by %1x: one seed's curve would have misled.").arg(m_result->seedSpread(), 0, 'f', 1);
    m_warning->setText(warnings.join(QLatin1Char('\n')));
    m_warning->setVisible(!warnings.isEmpty());
    fitHeight();
}

void LrFinderPanel::updateControls()
{
    const bool running = isRunning();
    m_run->setEnabled(m_spec.has_value() && m_session && !running);
    m_stop->setEnabled(running);
    for (QWidget* w : std::initializer_list<QWidget*>{m_seeds, m_steps, m_minLr, m_maxLr}) w->setEnabled(!running);
}

}  // namespace ts::ui
