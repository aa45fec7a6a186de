#pragma once
// Crash recovery: while a scenario has unsaved changes, a copy is written (atomically,
// a couple of seconds after the last edit) to the session's file in the autosave
// folder. A clean exit or a save removes it. Each session holds a lock file; a copy
// whose lock is free belongs to a session that ended without cleaning up (a crash)
// and is offered for recovery at the next start.
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace dtsim::gui {

class ScenarioDocument;

struct RecoverableScenario {
    QString autosavePath; // the copy
    QString originalPath; // where the scenario was opened from ("" for none)
    QString yaml;         // the scenario, without the autosave header
    qint64 savedAtMs = 0;
};

class Autosave : public QObject {
    Q_OBJECT
public:
    // `folder` default: <AppDataLocation>/autosave.
    explicit Autosave(ScenarioDocument* doc, QString folder = {}, QObject* parent = nullptr);
    ~Autosave() override; // a normal end: the copy and the lock go

    static QString defaultFolder();
    // Copies left by sessions that are gone, newest first. Other live sessions' copies
    // are not listed.
    static std::vector<RecoverableScenario> orphans(const QString& folder);
    static void discard(const RecoverableScenario& r);

    QString path() const { return m_path; }
    bool saveNow();           // writes the copy if the document has unsaved changes
    QString lastError() const { return m_lastError; } // empty once a copy is written again
    void simulateCrash();     // tests: drop the lock and stop, leaving the copy behind
    static constexpr int kDelayMs = 2000;

signals:
    // The copy could not be written (a full disk, a read-only folder): the unsaved work
    // is not protected until it is. Retried on the next edit.
    void failed(const QString& error);
    void recovered();

private:
    void documentChanged();

    ScenarioDocument* m_doc;
    QString m_folder, m_path;
    std::unique_ptr<QLockFile> m_lock;
    QTimer m_timer;
    bool m_active = true;
    QString m_lastError;
};

} // namespace dtsim::gui
