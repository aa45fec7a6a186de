// Lecture scripts (simcore/loader/lecture_loader.h): a speaker steps through presets,
// field changes and views with a caption, in presentation mode, with Page Down / Page Up.
#include "main_window.h"

#include "lecture_bar.h"
#include "scenario_document.h"

#include "simcore/input_error.h"
#include "simcore/loader/read_file.h"
#include "simcore/loader/scenario_loader.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>

#include <iterator>

namespace dtsim::gui {

QString MainWindow::lecturesDir() const { return QDir(m_data.presetsDir).filePath("lectures"); }

QStringList MainWindow::lectureNames() const
{
    QStringList names;
    for (const QString& f : QDir(lecturesDir()).entryList({ "*.yaml" }, QDir::Files, QDir::Name))
        names << QFileInfo(f).completeBaseName();
    return names;
}

bool MainWindow::openLecture(const QString& nameOrPath)
{
    // A shipped script by name, or any file.
    const QString path = QFileInfo::exists(nameOrPath) ? nameOrPath : QDir(lecturesDir()).filePath(nameOrPath + ".yaml");
    try {
        LectureScript script = loadLectureScript(QFile::encodeName(path).toStdString(), tabNames());
        // Every step must load now, not halfway through the talk.
        for (const LectureStep& step : script.steps)
            lectureStepScenario(script, step);
        m_lecture = std::move(script);
    } catch (const InputError& e) {
        m_openError = tr("Could not open the lecture: %1").arg(QString::fromUtf8(e.what()));
        showBanner(m_openError);
        return false;
    }
    m_openError.clear();
    showBanner({});
    m_nextStep->setEnabled(true);
    m_previousStep->setEnabled(true);
    m_lectureBar->show();
    return showLectureStep(0);
}

Scenario MainWindow::lectureStepScenario(const LectureScript& script, const LectureStep& step, std::string* text) const
{
    const std::string preset = QFile::encodeName(QDir(m_data.presetsDir).filePath(QString::fromStdString(step.preset) + ".yaml")).toStdString();
    if (!QFileInfo::exists(QString::fromStdString(preset)))
        throw InputError(script.file, step.line, "preset", "no preset \"" + step.preset + "\" (File > New from preset lists them)");
    const std::string file = readTextFile(preset, "preset");
    if (text)
        *text = file;
    try {
        return loadScenarioText(file, preset, m_data.catalog, step.sets, m_data.topologies);
    } catch (const InputError& e) {
        // The step's change is to blame: say which, on its line of the script.
        for (std::size_t i = 0; i < step.sets.size(); ++i)
            if (step.sets[i].path == e.field())
                throw InputError(script.file, step.setLines[i], "steps[" + std::to_string(step.index) + "].set." + e.field(), e.reason());
        throw InputError(script.file, step.line, e.field(), e.reason());
    }
}

bool MainWindow::showLectureStep(int index)
{
    if (m_lecture.steps.empty() || index < 0 || index >= int(m_lecture.steps.size()))
        return false;
    const LectureStep& step = m_lecture.steps[std::size_t(index)];
    try {
        std::string text;
        const Scenario s = lectureStepScenario(m_lecture, step, &text);
        const QString path = QDir(m_data.presetsDir).filePath(QString::fromStdString(step.preset) + ".yaml");
        // The preset as on disk, the step's changes as edits: Save as keeps the preset's text.
        m_onDisk = { text, loadScenarioText(text, QFile::encodeName(path).toStdString(), m_data.catalog, {}, m_data.topologies) };
        m_doc->reset(s, path);
    } catch (const InputError& e) {
        showBanner(tr("Could not show the step: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_lectureIndex = index;
    selectTab(QString::fromStdString(step.tab));
    m_lectureBar->showStep(QString::fromStdString(m_lecture.title), index, int(m_lecture.steps.size()), QString::fromStdString(step.caption));
    return true;
}

void MainWindow::closeLecture()
{
    m_lecture = {};
    m_lectureIndex = -1;
    m_lectureBar->hide();
    // Page Up / Page Down page the views again.
    m_nextStep->setEnabled(false);
    m_previousStep->setEnabled(false);
}

} // namespace dtsim::gui
