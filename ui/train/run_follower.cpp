#include "run_follower.h"

#include <algorithm>
#include <map>

#include "store/run_reader.h"
#include "store/workspace.h"

namespace ts::ui {

namespace {

// name's points after `after`, by step.
std::map<std::int64_t, double> byStep(RunReader& reader, qint64 runId, const char* name, qint64 after)
{
    std::map<std::int64_t, double> out;
    const MetricSeries s = reader.metric(runId, name, after);
    for (std::size_t i = 0; i < s.steps.size(); ++i) out[s.steps[i]] = s.values[i];
    return out;
}

double valueAt(const std::map<std::int64_t, double>& m, std::int64_t step)
{
    const auto it = m.find(step);
    return it == m.end() ? 0.0 : it->second;
}

}  // namespace

RunFollower::RunFollower(const QString& workspaceDir, qint64 runId) : m_runId(runId)
{
    try {
        m_reader = std::make_unique<RunReader>(Workspace::open(workspaceDir.toStdString()));
    } catch (const std::exception&) {
        // Not yet readable: poll() tries again.
    }
}

RunFollower::~RunFollower() = default;

RunFollower::News RunFollower::poll()
{
    News news;
    try {
        if (!m_reader) return news;
        RunReader& r = *m_reader;
        // Epochs first: a step's epoch is one more than the epochs ended before it.
        const MetricSeries ended = r.metric(m_runId, "epoch", m_lastEpochStep);
        std::map<std::string, std::map<std::int64_t, double>> epochMetrics;
        if (!ended.steps.empty())
            for (const char* name : {"train_loss", "train_acc", "val_loss", "val_acc", "test_loss", "test_acc"})
                epochMetrics[name] = byStep(r, m_runId, name, m_lastEpochStep);
        for (std::size_t i = 0; i < ended.steps.size(); ++i) {
            EpochSummary e;
            e.step = ended.steps[i];
            e.epoch = qint64(ended.values[i]);
            for (const auto& [name, points] : epochMetrics)
                if (points.count(e.step)) e.metrics.insert(QString::fromStdString(name), points.at(e.step));
            news.epochs.push_back(e);
            m_epochEnds.push_back(e.step);
            m_lastEpochStep = e.step;
        }
        const MetricSeries loss = r.metric(m_runId, "loss", m_lastStep);
        if (loss.steps.empty()) return news;
        const auto lr = byStep(r, m_runId, "lr", m_lastStep), norm = byStep(r, m_runId, "grad_norm", m_lastStep);
        const auto rate = byStep(r, m_runId, "samples_per_s", m_lastStep), wait = byStep(r, m_runId, "data_wait_s", m_lastStep);
        for (std::size_t i = 0; i < loss.steps.size(); ++i) {
            const std::int64_t step = loss.steps[i];
            StepPoint p;
            p.step = step;
            p.epoch = qint64(std::lower_bound(m_epochEnds.begin(), m_epochEnds.end(), step) - m_epochEnds.begin()) + 1;
            p.loss = loss.values[i];
            p.lr = valueAt(lr, step);
            p.gradNorm = valueAt(norm, step);
            p.samplesPerSecond = valueAt(rate, step);
            p.dataWaitSeconds = valueAt(wait, step);
            p.wallTime = loss.wallTimes[i];
            news.steps.push_back(p);
        }
        m_lastStep = loss.steps.back();
    } catch (const std::exception&) {
        // A busy or changing store: the next poll reads from where this one stopped.
    }
    return news;
}

}  // namespace ts::ui
