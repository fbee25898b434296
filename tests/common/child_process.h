// Runs a program as a child process and keeps what it printed: the one runner of the suites
// that drive the real binaries (trainstudio-cli, trainstudio), each of which decides the
// child's environment.
#pragma once
#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace ts::test {

struct ProcessResult {
    int exitCode = -1;  // -1 when it did not finish normally (timed out, crashed); err says why
    QString out, err;
};

// This environment with HOME at `home` (made if missing) and no XDG data or cache folder or
// TRAINSTUDIO_WORKSPACE of the user's: a CLI child touches no user workspace or cache.
inline QProcessEnvironment scratchCliEnvironment(const QString& home)
{
    QDir().mkpath(home);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("HOME", home);
    for (const char* var : {"XDG_DATA_HOME", "XDG_CACHE_HOME", "TRAINSTUDIO_WORKSPACE"}) env.remove(var);
    env.insert("OMP_NUM_THREADS", "2");
    return env;
}

inline ProcessResult runProcess(const QString& program, const QStringList& args, const QProcessEnvironment& env,
                                int timeoutMs)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        r.err = "did not finish normally: " + p.errorString();
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace ts::test
