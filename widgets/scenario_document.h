#pragma once
// The scenario being edited: its value, its file, and the undo history. Every edit goes
// through an undo command; consecutive edits of one field (a slider drag) merge into
// one step.
#include "simcore/scenario.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <functional>

namespace dtsim::gui {

class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);
    ~ScenarioDocument() override;

    const Scenario& scenario() const { return m_scenario; }
    QUndoStack* undoStack() { return &m_undo; }

    // Replaces the whole scenario (open, preset); clears the history.
    void reset(const Scenario& s, const QString& path);
    // One edit; `field` names it for merging ("parallel.tp"); `interactive` edits (a
    // slider being dragged) merge with the previous edit of the same field.
    void edit(const QString& field, const std::function<void(Scenario&)>& change, bool merge);

    QString path() const { return m_path; }
    void setPath(const QString& p);
    bool isModified() const { return !m_undo.isClean(); }
    void markSaved() { m_undo.setClean(); }
    void markUnsaved() { m_undo.resetClean(); } // no state of the history is on disk

    // Used by undo commands.
    void setScenario(const Scenario& s);

signals:
    void changed();                     // the scenario, once per edit, undo or redo
    void modifiedChanged(bool modified); // the file's saved state flipped
    void pathChanged(const QString& path);

private:
    Scenario m_scenario;
    QString m_path;
    QUndoStack m_undo;
    int m_gesture = 0;
};

} // namespace dtsim::gui
