#pragma once
// The left-hand panel: one row per scenario field (slider + spin box with unit, or a
// choice), grouped in collapsible sections, filtered by a search box, with an inline
// error and a one-click fix under any field the plan rules reject.
#include "simcore/loader/model_catalogue_loader.h"
#include "parameter_fields.h"

#include <QHash>
#include <QSet>
#include <QWidget>

class QLineEdit;
class QSlider;
class QLabel;
class QPushButton;
class QGroupBox;
class QCheckBox;
class QComboBox;
class QScrollArea;

namespace dtsim::gui {

class ParameterRow;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(std::vector<FieldSpec> fields, QWidget* parent = nullptr);

    void setScenario(const Scenario& s); // shows values, emits nothing
    void setFieldError(const QString& id, const QString& message, const QString& fixLabel);
    void clearErrors();

    // The row's field: how an edit of it changes the scenario (null when not shown).
    const FieldSpec* field(const QString& id) const;

    QSlider* slider(const QString& id) const;   // for tests
    QWidget* editor(const QString& id) const;   // spin box, combo box or check box
    QString errorText(const QString& id) const; // empty when none
    // "Keep the GPU count": moving TP, PP or CP rebalances DP (on by default).
    bool keepsGpuCount() const;
    QCheckBox* keepGpuCountBox() const { return m_keepGpus; }
    // The list of public models a what-if can start from (resources/models/catalogue.yaml).
    void setModelCatalogue(const std::vector<CatalogueModel>& models);
    QComboBox* modelCatalogueBox() const { return m_models; }

signals:
    void edited(const QString& id, double storedValue, bool merge);
    void fixRequested(const QString& id);
    void modelChosen(const QString& catalogueId); // the scenario's model becomes that one

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void filter(const QString& text);

    std::vector<FieldSpec> m_fields;
    QHash<QString, ParameterRow*> m_rows;
    QSet<QString> m_inapplicable; // rows for the other kind of model (transformer, layer table)
    QList<QGroupBox*> m_groups;
    QLineEdit* m_search = nullptr;
    QCheckBox* m_keepGpus = nullptr;
    QComboBox* m_models = nullptr;
    QScrollArea* m_scroll = nullptr;
};

} // namespace dtsim::gui
