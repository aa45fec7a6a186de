// dtsim: the desktop app. `dtsim [FILE] [--preset NAME] [--tab NAME] [--screenshot OUT.png]`
#include "../cli/data_paths.h"

#include "simcore/input_error.h"
#include "simcore/loader/calibration_loader.h"
#include "simcore/loader/cost_loader.h"
#include "simcore/loader/hardware_loader.h"
#include "simcore/loader/anchors_loader.h"
#include "simcore/loader/residuals_loader.h"
#include "simcore/loader/model_catalogue_loader.h"
#include "simcore/loader/reliability_loader.h"
#include "widgets/evaluator.h"
#include "widgets/main_window.h"
#include "widgets/tab_registry.h"
#include "edit_bench.h"
#include "widgets/teaching_panel.h"

#include <QDockWidget>
#include "widgets/view_export.h"
#include "../cli/report_json.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QSettings>
#include <QJsonDocument>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <optional>

#include <csignal>
#include <cstdio>
#include <cstring>

namespace {

bool wantsScreenshot(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0
            || std::strcmp(argv[i], "--bench-edits") == 0)
            return true;
    return false;
}

// The options `dtsim --help` lists.
void addOptions(QCommandLineParser& p)
{
    p.setApplicationDescription("Desktop simulator of distributed deep-learning training");
    p.addHelpOption();
    p.addVersionOption();
    p.addPositionalArgument("FILE", "Scenario YAML file to open; two files open compared (the first pinned as A).", "[FILE [FILE_B]]");
    p.addOption({ "preset", "Open a shipped preset by name.", "NAME" });
    p.addOption({ "tab", "Show a tab: " + dtsim::gui::tabNameList() + ".", "NAME" });
    p.addOption({ "screenshot", "Render the window to a PNG (or .svg, .pdf) and exit.", "OUT.png" });
    p.addOption({ "size", "The window's size for --screenshot (default 1600x1000; presentation mode fills the screen).", "WxH" });
    p.addOption({ "data", "Folder holding presets/ and resources/.", "DIR" });
    p.addOption({ "explain", "Open the teaching panel on a figure: step, mfu, tflops, tokens, memory, ttt, min, gpuh, wall, flops, bubble.", "FIGURE" });
    p.addOption({ "present", "Start in presentation mode (full screen, large type); Esc leaves it." });
    p.addOption({ "lecture", "Start a lecture script (a shipped one by name, or a file) in presentation mode; Page Down and Page Up step "
                             "through it (docs/teaching.md).", "SCRIPT" });
    p.addOption({ "step", "With --lecture: start at this step (1 is the first).", "N" });
    p.addOption({ "theme", "system, light or dark for this run (View > Theme remembers one).", "NAME" });
    p.addOption({ "bench-edits", "Time 200 slider edits per preset (offscreen): edit-to-screen p50/p95/max and the longest event-loop block; --preset and --tab narrow it." });
    p.addOption({ "json", "With --bench-edits: print the figures as JSON." });
}

// Everything the window is built with, from the data folder; none (and a message on
// stderr) when a file is missing or wrong.
std::optional<dtsim::gui::AppData> loadAppData(const QCommandLineParser& p)
{
    const dtsim::cli::DataPaths d = dtsim::cli::findDataPaths(p.value("data"));
    if (!d.problem.isEmpty()) {
        std::fprintf(stderr, "dtsim: %s\n", qPrintable(d.problem));
        return std::nullopt;
    }
    if (d.root.isEmpty()) {
        std::fprintf(stderr, "dtsim: cannot find dtsim's data (presets/ and resources/); pass --data DIR\n");
        return std::nullopt;
    }
    dtsim::gui::AppData data;
    try {
        data.catalog = dtsim::loadHardwareCatalog(d.hardwareDir());
        data.calibration = dtsim::loadCalibration(d.calibrationFile());
    } catch (const dtsim::InputError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return std::nullopt;
    }
    data.presetsDir = QString::fromStdString(d.presetsDir());
    data.docsDir = QDir(d.root).filePath("docs");
    try {
        data.topologies = dtsim::loadTopologyCatalog(d.topologiesDir());
        data.failureRates = dtsim::loadFailureRates(d.reliabilityFile());
        data.costRates = dtsim::loadCostRates(d.costFile());
        data.frontierAnchors = dtsim::loadFrontierAnchors(d.anchorsFile());
        data.residuals = dtsim::loadResiduals(d.residualsFile());
        data.models = dtsim::loadModelCatalogue(d.modelCatalogueFile());
    } catch (const dtsim::InputError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return std::nullopt;
    }

    data.reportJson = [](const dtsim::Scenario& s, const dtsim::Report& r) {
        return QJsonDocument(dtsim::cli::reportToJson(s, r)).toJson(QJsonDocument::Indented);
    };
    return data;
}

// The files or preset asked for, and the tab. False after a message on stderr when an
// argument is wrong (exit 2); `opened` says whether the scenario opened.
bool openFromArguments(dtsim::gui::MainWindow& window, const QCommandLineParser& p, const dtsim::gui::AppData& data, bool& opened)
{
    bool& ok = opened;
    ok = true;
    QStringList files = p.positionalArguments();
    if (files.size() > 2) {
        std::fprintf(stderr, "dtsim: at most two scenario files (A and B to compare)\n");
        return false;
    }
    // A name that is not a file but a shipped preset's opens the preset, as dtsim-cli does.
    for (QString& f : files)
        if (!QFileInfo::exists(f) && !f.contains('/') && QFileInfo::exists(QDir(data.presetsDir).filePath(f + ".yaml")))
            f = QDir(data.presetsDir).filePath(f + ".yaml");
    if (files.size() == 2)
        ok = window.openCompared(files[0], files[1]);
    else if (!files.isEmpty())
        ok = window.openFile(files.first());
    else
        ok = window.openPreset(p.isSet("preset") ? p.value("preset") : QString("llama3-405b-h100"));
    if (!ok) // the window shows it too; a script reading stderr learns why
        std::fprintf(stderr, "dtsim: %s\n", qPrintable(window.openError()));
    if (p.isSet("tab") && !window.selectTab(p.value("tab"))) {
        std::fprintf(stderr, "dtsim: unknown tab \"%s\" (%s)\n", qPrintable(p.value("tab")), qPrintable(dtsim::gui::tabNameList()));
        return false;
    }
    return true;
}

// Lay out at the size asked (1600x1000), let the background work finish, grab.
int takeScreenshot(dtsim::gui::MainWindow& window, const QCommandLineParser& p, bool presenting, bool opened)
{
    QSize size(1600, 1000);
    if (p.isSet("size")) {
        const QStringList wh = p.value("size").split('x');
        bool okW = false, okH = false;
        size = wh.size() == 2 ? QSize(wh[0].toInt(&okW), wh[1].toInt(&okH)) : QSize();
        if (!okW || !okH || size.width() < 200 || size.height() < 200 || size.width() > 8192 || size.height() > 8192) {
            std::fprintf(stderr, "dtsim: --size: \"%s\" is not WIDTHxHEIGHT from 200x200 to 8192x8192\n", qPrintable(p.value("size")));
            return 2;
        }
    }
    window.keepSizeOnShow();
    if (!presenting)
        window.resize(size);
    window.show();
    window.flushPending();
    QElapsedTimer timer;
    timer.start();
    while (window.evaluator()->busy() && timer.elapsed() < 30000 && opened) // the shown tab's analysis (flushPending asked for it)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents(); // queued replots
    // The whole window, as pixels (.png) or vectors (.svg, .pdf).
    const QString out = p.value("screenshot");
    QString error;
    const bool written = dtsim::gui::exportWidget(&window, out, &error); // written whole, or not at all
    if (!written) {
        std::fprintf(stderr, "dtsim: could not write %s: %s\n", qPrintable(out), qPrintable(error));
        return 2;
    }
    return opened ? 0 : 2;
}

} // namespace

int main(int argc, char** argv)
{
    // A file-size limit must fail the write (EFBIG, reported), not kill the window.
    std::signal(SIGXFSZ, SIG_IGN);
    // Screenshots need no display: choose the offscreen platform before Qt starts.
    if (wantsScreenshot(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    dtsim::gui::TimedApplication app(argc, argv);
    QApplication::setApplicationName("dtsim");
    QApplication::setOrganizationName("dtsim");
    QApplication::setDesktopFileName("org.dtsim.dtsim");
    QApplication::setWindowIcon(QIcon(":/icons/dtsim.svg"));
    QApplication::setApplicationVersion(DTSIM_VERSION);

    QCommandLineParser p;
    addOptions(p);
    p.process(app);
    const std::optional<dtsim::gui::AppData> loaded = loadAppData(p);
    if (!loaded)
        return 2;
    const dtsim::gui::AppData& data = *loaded;

    if (p.isSet("bench-edits")) {
        dtsim::gui::EditBenchOptions o;
        if (p.isSet("preset"))
            o.presets << p.value("preset");
        o.tab = p.value("tab");
        o.json = p.isSet("json");
        return dtsim::gui::runEditBench(app, data, o);
    }
    dtsim::gui::MainWindow window(data);
    {
        // The remembered theme, or the one asked for.
        const QString theme = p.isSet("theme") ? p.value("theme") : QSettings().value("view/theme", "system").toString();
        if (!window.setTheme(theme, false)) {
            std::fprintf(stderr, "dtsim: unknown theme \"%s\" (system, light, dark)\n", qPrintable(theme));
            return 2;
        }
    }
    // Checked before any work: a figure to explain, and where a screenshot goes.
    if (p.isSet("explain") && !window.teachingPanel()->hasFigure(p.value("explain"))) {
        std::fprintf(stderr, "dtsim: --explain: unknown figure \"%s\" (%s)\n", qPrintable(p.value("explain")),
            qPrintable(window.teachingPanel()->figureKeys().join(", ")));
        return 2;
    }
    if (p.isSet("screenshot")) {
        const QString problem = dtsim::gui::exportTargetProblem(p.value("screenshot"));
        if (!problem.isEmpty()) {
            std::fprintf(stderr, "dtsim: --screenshot: %s\n", qPrintable(problem));
            return 2;
        }
    }

    bool opened = true;
    if (!openFromArguments(window, p, data, opened))
        return 2;
    if (p.isSet("explain")) {
        window.teachingPanel()->selectFigure(p.value("explain"));
        window.teachingDock()->show();
    }
    if (p.isSet("lecture")) {
        if (!window.openLecture(p.value("lecture"))) {
            std::fprintf(stderr, "dtsim: %s (shipped: %s)\n", qPrintable(window.openError()), qPrintable(window.lectureNames().join(", ")));
            return 2;
        }
        bool stepOk = true;
        const int step = p.isSet("step") ? p.value("step").toInt(&stepOk) : 1;
        if (!stepOk || !window.showLectureStep(step - 1)) {
            std::fprintf(stderr, "dtsim: --step: \"%s\" is not a step from 1 to %d\n", qPrintable(p.value("step")), int(window.lecture().steps.size()));
            return 2;
        }
    }
    const bool presenting = p.isSet("present") || p.isSet("lecture");
    if (presenting)
        window.setPresentationMode(true);

    if (!p.isSet("screenshot")) {
        window.offerRecovery();
        window.show();
        return app.exec();
    }

    return takeScreenshot(window, p, presenting, opened);
}
