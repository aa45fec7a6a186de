#include "autosave.h"

#include "scenario_document.h"
#include "view_export.h"

#include "simcore/loader/scenario_writer.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace dtsim::gui {

namespace {

const char* kHeader = "# dtsim autosave\n";
const char* kOriginal = "# original: ";

} // namespace

QString Autosave::defaultFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("autosave");
}

Autosave::Autosave(ScenarioDocument* doc, QString folder, QObject* parent)
    : QObject(parent)
    , m_doc(doc)
    , m_folder(folder.isEmpty() ? defaultFolder() : std::move(folder))
{
    QDir().mkpath(m_folder);
    const QString session = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_path = QDir(m_folder).filePath("session-" + session + ".yaml");
    m_lock = std::make_unique<QLockFile>(m_path + ".lock");
    m_lock->setStaleLockTime(0); // only a dead owner makes it stale
    m_lock->tryLock(0);
    m_timer.setSingleShot(true);
    m_timer.setInterval(kDelayMs);
    connect(&m_timer, &QTimer::timeout, this, &Autosave::saveNow);
    connect(m_doc, &ScenarioDocument::changed, this, &Autosave::documentChanged);
    connect(m_doc->undoStack(), &QUndoStack::cleanChanged, this, &Autosave::documentChanged);
}

Autosave::~Autosave()
{
    if (m_active)
        QFile::remove(m_path);
}

void Autosave::documentChanged()
{
    if (!m_active)
        return;
    if (m_doc->isModified()) {
        m_timer.start();
    } else {
        m_timer.stop();
        QFile::remove(m_path); // saved, or undone back to the saved state
    }
}

bool Autosave::saveNow()
{
    if (!m_active || !m_doc->isModified())
        return false;
    const QByteArray text = QByteArray(kHeader) + kOriginal + m_doc->path().toUtf8() + "\n"
        + QByteArray::fromStdString(scenarioToYaml(m_doc->scenario()));
    QString why;
    if (!writeFileAtomically(m_path, text, &why)) {
        m_lastError = why;
        emit failed(why);
        return false;
    }
    if (!m_lastError.isEmpty()) {
        m_lastError.clear();
        emit recovered();
    }
    return true;
}

void Autosave::simulateCrash()
{
    m_timer.stop();
    m_active = false;
    m_lock->unlock();
}

std::vector<RecoverableScenario> Autosave::orphans(const QString& folder)
{
    std::vector<RecoverableScenario> found;
    const QDir dir(folder);
    // A session that crashed with nothing unsaved leaves only its lock: clear those,
    // or they pile up. A lock that can be taken belongs to no live session.
    for (const QFileInfo& f : dir.entryInfoList({ "session-*.yaml.lock" }, QDir::Files | QDir::Hidden)) {
        const QString copy = f.filePath().chopped(int(qstrlen(".lock")));
        if (QFileInfo::exists(copy))
            continue;
        QLockFile stale(f.filePath());
        stale.setStaleLockTime(0);
        if (stale.tryLock(0))
            stale.unlock(); // removes the file
    }
    for (const QFileInfo& f : dir.entryInfoList({ "session-*.yaml" }, QDir::Files)) {
        QLockFile lock(f.filePath() + ".lock");
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue; // its session is still running
        lock.unlock();
        QFile in(f.filePath());
        if (!in.open(QIODevice::ReadOnly))
            continue;
        const QByteArray header = in.readLine(), original = in.readLine();
        if (header != kHeader || !original.startsWith(kOriginal))
            continue;
        RecoverableScenario r;
        r.autosavePath = f.filePath();
        r.originalPath = QString::fromUtf8(original.mid(int(qstrlen(kOriginal)))).trimmed();
        r.yaml = QString::fromUtf8(in.readAll());
        r.savedAtMs = f.lastModified().toMSecsSinceEpoch();
        found.push_back(r);
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.savedAtMs > b.savedAtMs; });
    return found;
}

void Autosave::discard(const RecoverableScenario& r)
{
    QFile::remove(r.autosavePath);
    QFile::remove(r.autosavePath + ".lock");
}

} // namespace dtsim::gui
