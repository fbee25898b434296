#include "distributed_launch.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QThread>

#include <unistd.h>

#include "io/yaml/experiment_yaml.h"

namespace ts::ui {

namespace {
constexpr int kErrorLinesKept = 20;
}

DistributedLaunch::DistributedLaunch(QObject* parent) : QObject(parent)
{
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &DistributedLaunch::readOutput);
    connect(&m_process, &QProcess::readyReadStandardError, this, [this] {
        for (const QByteArray& line : m_process.readAllStandardError().split('\n'))
            if (!line.trimmed().isEmpty()) m_errorLines << QString::fromUtf8(line.trimmed());
        while (m_errorLines.size() > kErrorLinesKept) m_errorLines.removeFirst();
    });
    connect(&m_process, &QProcess::finished, this, &DistributedLaunch::onFinished);
}

DistributedLaunch::~DistributedLaunch()
{
    if (!isRunning()) return;
    m_process.disconnect(this);
    stop();
    if (!m_process.waitForFinished(30000)) m_process.kill();  // the ranks checkpoint first
}

QString DistributedLaunch::mpirun() { return QStandardPaths::findExecutable(QStringLiteral("mpirun")); }

QString DistributedLaunch::cli()
{
    if (const QString chosen = qEnvironmentVariable("TRAINSTUDIO_CLI"); !chosen.isEmpty()) return chosen;
    const QString here = QCoreApplication::applicationDirPath();
    for (const QString& path : {here + QStringLiteral("/trainstudio-cli"), here + QStringLiteral("/../cli/trainstudio-cli")})
        if (QFileInfo(path).isExecutable()) return QFileInfo(path).canonicalFilePath();
    return QStandardPaths::findExecutable(QStringLiteral("trainstudio-cli"));
}

QString DistributedLaunch::unavailableReason()
{
    if (mpirun().isEmpty())
        return tr("Training on several processes needs Open MPI's mpirun (Debian: apt install openmpi-bin).");
    if (cli().isEmpty()) return tr("trainstudio-cli was not found beside the studio or on the PATH.");
    return {};
}

QStringList DistributedLaunch::arguments(const QString& experimentFile, int processes, int threadsPerProcess,
                                         const QString& device, const QString& workspaceDir)
{
    // The trainer gives each rank its share of our own thread pool by itself; OMP_NUM_THREADS
    // also caps the libraries that size their pools from it (OpenMP, OpenBLAS) in every rank.
    QStringList args{QStringLiteral("-np"), QString::number(processes), QStringLiteral("--oversubscribe"),
                     QStringLiteral("--bind-to"), QStringLiteral("none"), QStringLiteral("-x"),
                     QStringLiteral("OMP_NUM_THREADS=%1").arg(threadsPerProcess)};
    if (geteuid() == 0) args << QStringLiteral("--allow-run-as-root");  // Open MPI refuses root otherwise
    args << cli() << QStringLiteral("train") << experimentFile << QStringLiteral("--workspace") << workspaceDir
         << QStringLiteral("--device") << device << QStringLiteral("--json");
    return args;
}

bool DistributedLaunch::start(const ExperimentSpec& spec, int processes, const QString& device,
                              const QString& workspaceDir, QString* error)
{
    if (isRunning()) {
        *error = tr("A run on several processes is already training.");
        return false;
    }
    if (const QString why = unavailableReason(); !why.isEmpty()) {
        *error = why;
        return false;
    }
    const QDir launches(workspaceDir + QStringLiteral("/launches"));
    if (!launches.mkpath(QStringLiteral("."))) {
        *error = tr("Cannot create %1.").arg(launches.path());
        return false;
    }
    const QString file = launches.filePath(QStringLiteral("%1-%2.yaml")
                                               .arg(QString::fromStdString(spec.name).isEmpty() ? QStringLiteral("experiment")
                                                                                                : QString::fromStdString(spec.name),
                                                    QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    try {
        saveExperiment(spec, file.toStdString());
    } catch (const std::exception& e) {
        *error = tr("Cannot write %1: %2").arg(file, QString::fromStdString(e.what()));
        return false;
    }
    const int threads = spec.training.threads > 0 ? int(spec.training.threads)
                                                  : std::max(1, QThread::idealThreadCount() / processes);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // Containers often forbid the cross-process memory attach Open MPI tries first; shared-memory
    // copies work everywhere.
    if (!env.contains(QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism")))
        env.insert(QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism"), QStringLiteral("none"));
    m_process.setProcessEnvironment(env);
    m_pending.clear();
    m_errorLines.clear();
    m_runId = -1;
    m_outcome.clear();
    m_processes = processes;
    m_process.start(mpirun(), arguments(file, processes, threads, device, workspaceDir));
    if (!m_process.waitForStarted(10000)) {
        *error = tr("Cannot start mpirun: %1").arg(m_process.errorString());
        return false;
    }
    return true;
}

void DistributedLaunch::stop()
{
    if (isRunning()) m_process.terminate();
}

void DistributedLaunch::readOutput()
{
    m_pending += m_process.readAllStandardOutput();
    qsizetype end;
    while ((end = m_pending.indexOf('\n')) >= 0) {
        const QByteArray line = m_pending.left(end);
        m_pending.remove(0, end + 1);
        const QJsonObject event = QJsonDocument::fromJson(line).object();
        const QString kind = event.value(QStringLiteral("event")).toString();
        if (kind == QLatin1String("run")) {
            m_runId = event.value(QStringLiteral("run_id")).toInteger(-1);
            emit runRecorded(m_runId);
        } else if (kind == QLatin1String("done")) {
            m_outcome = event.value(QStringLiteral("outcome")).toString();
            if (const QString message = event.value(QStringLiteral("message")).toString(); !message.isEmpty())
                m_errorLines << message;
        }
    }
}

void DistributedLaunch::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readOutput();
    // mpirun exits non-zero after a requested stop too; rank 0's own word decides.
    const bool ok = m_outcome == QLatin1String("finished") || m_outcome == QLatin1String("stopped") ||
                    m_outcome == QLatin1String("early_stopped");
    QString outcome;
    if (m_outcome == QLatin1String("finished"))
        outcome = tr("finished");
    else if (m_outcome == QLatin1String("stopped"))
        outcome = tr("stopped (a checkpoint was saved)");
    else if (m_outcome == QLatin1String("early_stopped"))
        outcome = tr("stopped early");
    else if (m_outcome == QLatin1String("failed"))
        outcome = tr("failed");
    else
        outcome = status == QProcess::CrashExit ? tr("crashed") : tr("failed (exit code %1)").arg(exitCode);
    emit ended(ok, outcome, ok ? QString() : m_errorLines.join(QLatin1Char('\n')));
}

}  // namespace ts::ui
