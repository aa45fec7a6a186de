#pragma once
// Runs dtsim-cli as a user would, for the end-to-end suites: exit code, stdout, stderr,
// and whether it had to be stopped at its time limit.
#include <QProcess>
#include <QStringList>

#include <sys/resource.h>

namespace dtsim::test {

struct CliRun {
    int code = -1; // -1: killed by a signal, or stopped at the time limit
    bool timedOut = false;
    double cpuSeconds = 0; // user + system time the run took, whatever else the machine did
    QByteArray out;
    QByteArray err;
};

inline double childCpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_CHILDREN, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

inline CliRun runCli(const QStringList& args, int timeoutMs = 120000)
{
    const double cpuBefore = childCpuSeconds();
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
    r.cpuSeconds = childCpuSeconds() - cpuBefore; // the child is reaped once finished
    return r;
}

// Slower builds (the sanitizers) stretch every time limit by DTSIM_TIME_SCALE.
inline int scaledMs(int ms)
{
    const int scale = qEnvironmentVariableIntValue("DTSIM_TIME_SCALE");
    return ms * (scale > 0 ? scale : 1);
}

} // namespace dtsim::test
