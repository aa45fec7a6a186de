// dtsim-cli: the same engine as the desktop app, for scripts and batch runs.
#include "commands.h"

#include <QCoreApplication>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <exception>

namespace {

void usage(FILE* to)
{
    std::fprintf(to,
        "usage: dtsim-cli COMMAND [options]\n\n"
        "commands:\n"
        "  simulate FILE [--set path=value ...] [--json]   simulate one training step and the run\n"
        "  presets [--json]                                list the shipped scenario presets\n"
        "  hardware [--json]                               list the hardware catalogue\n"
        "  search FILE [--objective time|mfu] [--top N] [--json]   best parallel plans\n"
        "  scaling FILE [--json|--csv]                     step time and efficiency vs GPU count\n"
        "  frontier --gpu ID --months M [--model dense|moe] [--mode realistic|idealized] [--json|--csv]\n"
        "                                                  largest runs a GPU type can do in time\n"
        "  trace FILE -o OUT.json [--steps N] [--ranks] [--zero-bubble]   Chrome trace of the steps\n"
        "  run FILE [--trials N] [--seed S] [--json]       the whole run with failures and checkpoints\n"
        "  cost FILE [--json]                              price, energy and carbon of the run\n"
        "  cluster FILE [--policy NAME] [--compare] [--json]   shared-cluster scheduling\n"
        "  fields [--json|--markdown]                      every scenario field, its type and default\n"
        "  advise FILE [--json]                            the run's regime and what to change, each gain simulated\n"
        "  sweep FILE --x path=values --y path=values [--metric M] [--csv|--json]   a two-field grid\n"
        "  layers FILE [--json]                            a layer-table step, layer by layer\n"
        "  gemm GPU M N K [--precision P] [--json]         one matrix product as the step model prices it\n"
        "  diff A B [--set path=value] [--json]            what differs between two scenarios, inputs and results\n"
        "  bench [--json]                                  speed figures of the engine\n"
        "  validate FILE [--extrapolate] [--explain ID] [--json]   compare predictions with published runs\n"
        "  calibrate TRACE [--scenario FILE] [-o OVERLAY] [--json]   what a PyTorch profiler trace measured\n"
        "  calibrate --nccl-tests LOG --tier scale_up|scale_out [-o OVERLAY]   collectives from an nccl-tests log\n"
        "  calibrate FILE --measured-step T [-o OVERLAY]   kernel speeds from one measured step time\n"
        "  import FILE... [-o OUT] [--base S] [--var N=V]  framework configs (config.json, launch script, TOML,\n"
        "                                                  DeepSpeed JSON, NeMo YAML) -> a scenario\n"
        "  export FILE --to megatron|torchtitan|deepspeed|nemo [-o OUT]   the scenario as a launch config\n"
        "  models [--json]                                 the catalogue of public models (--set model=ID)\n"
        "  loss --params N --tokens D|--target L [--batch T] [--law NAME] [--json]   tokens <-> final loss\n"
        "  loss --published FILE [--law NAME]              the loss law against published final losses\n\n"
        "FILE is a scenario YAML file or a preset name. 'dtsim-cli COMMAND --help' for options.\n"
        "Exit codes: 0 success, 2 bad input, 1 internal error.\n");
}

// Output that did not reach its destination (a full disk, a closed stream) is a failed
// run, not a quiet success: exit 1 with the system's reason.
int finish(int code)
{
    const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout);
    const int why = errno; // of the write that failed, as near as the stream keeps it
    if (!failed)
        return code;
    const char* reason = why != 0 ? std::strerror(why) : "write error";
    std::fprintf(stderr, "dtsim-cli: could not write the output to standard output: %s\n", reason);
    return dtsim::cli::kExitInternal;
}

int dispatch(const QString& command, QStringList& args);

} // namespace

int main(int argc, char** argv)
{
    // A file-size limit must fail the write (EFBIG, reported), not kill the program.
    std::signal(SIGXFSZ, SIG_IGN);
    // Every command prints to standard output; with it closed, the next file opened would
    // take its descriptor and receive the output.
    if (::fcntl(STDOUT_FILENO, F_GETFD) < 0) {
        std::fprintf(stderr, "dtsim-cli: standard output is closed: nothing could be printed\n");
        return dtsim::cli::kExitInternal;
    }
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("dtsim-cli");
    QCoreApplication::setApplicationVersion(DTSIM_VERSION);
    QStringList args = app.arguments().mid(1);
    if (args.isEmpty()) {
        usage(stderr);
        return dtsim::cli::kExitBadInput;
    }
    const QString command = args.takeFirst();
    return finish(dispatch(command, args));
}

namespace {

int dispatch(const QString& command, QStringList& args)
{
    try {
        if (command == "simulate")
            return dtsim::cli::runSimulate(args);
        if (command == "presets")
            return dtsim::cli::runPresets(args);
        if (command == "hardware")
            return dtsim::cli::runHardware(args);
        if (command == "frontier")
            return dtsim::cli::runFrontier(args);
        if (command == "scaling")
            return dtsim::cli::runScaling(args);
        if (command == "trace")
            return dtsim::cli::runTrace(args);
        if (command == "cluster")
            return dtsim::cli::runCluster(args);
        if (command == "cost")
            return dtsim::cli::runCost(args);
        if (command == "run")
            return dtsim::cli::runReliability(args);
        if (command == "fields")
            return dtsim::cli::runFields(args);
        if (command == "advise")
            return dtsim::cli::runAdvise(args);
        if (command == "sweep")
            return dtsim::cli::runSweep(args);
        if (command == "layers")
            return dtsim::cli::runLayers(args);
        if (command == "gemm")
            return dtsim::cli::runGemm(args);
        if (command == "import")
            return dtsim::cli::runImport(args);
        if (command == "export")
            return dtsim::cli::runExport(args);
        if (command == "loss")
            return dtsim::cli::runLoss(args);
        if (command == "models")
            return dtsim::cli::runModels(args);
        if (command == "diff")
            return dtsim::cli::runDiff(args);
        if (command == "bench")
            return dtsim::cli::runBench(args);
        if (command == "search")
            return dtsim::cli::runSearch(args);
        if (command == "validate")
            return dtsim::cli::runValidate(args);
        if (command == "calibrate")
            return dtsim::cli::runCalibrate(args);
        if (command == "--version" || command == "version") {
            std::printf("dtsim-cli %s\n", DTSIM_VERSION);
            return dtsim::cli::kExitOk;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            usage(stdout);
            return dtsim::cli::kExitOk;
        }
        std::fprintf(stderr, "dtsim-cli: unknown command \"%s\"\n\n", qPrintable(command));
        usage(stderr);
        return dtsim::cli::kExitBadInput;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dtsim-cli: internal error: %s\n", e.what());
        return dtsim::cli::kExitInternal;
    }
}

} // namespace
