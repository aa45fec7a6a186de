#pragma once
// Runs dtsim-cli as a user would, for the end-to-end suites: exit code, stdout, stderr,
// and whether it had to be stopped at its time limit.
#include <QProcess>
#include <QStringList>

namespace dtsim::test {

struct CliRun {
    int code = -1; // -1: killed by a signal, or stopped at the time limit
    bool timedOut = false;
    QByteArray out;
    QByteArray err;
};

inline CliRun runCli(const QStringList& args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(DTSIM_CLI_PATH, args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) {
        r.timedOut = true;
        p.kill();
        p.waitForFinished(5000);
    }
    if (!r.timedOut && p.exitStatus() == QProcess::NormalExit)
        r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// Slower builds (the sanitizers) stretch every time limit by DTSIM_TIME_SCALE.
inline int scaledMs(int ms)
{
    const int scale = qEnvironmentVariableIntValue("DTSIM_TIME_SCALE");
    return ms * (scale > 0 ? scale : 1);
}

} // namespace dtsim::test
