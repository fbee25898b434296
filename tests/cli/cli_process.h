// Runs the real trainstudio-cli (TS_CLI_EXE) as a child process and keeps what it printed:
// shared by the CLI suites, each of which decides the child's environment.
#pragma once
#include <QProcess>
#include <QString>
#include <QStringList>

namespace ts::test {

struct CliResult {
    int exitCode = -1;
    QString out, err;
};

inline CliResult runCli(const QStringList& args, const QProcessEnvironment& env, int timeoutMs)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(TS_CLI_EXE, args);
    CliResult r;
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
