#pragma once
// One scenario field's editor, as its declaration describes it (parameter_fields.h): a
// spin box with the field's unit and range, a combo box of its choices, a check box, or
// a line of text. The parameter panel's rows and the Topology tab's form both make
// theirs here, so a field edits the same way wherever it shows.
#include "parameter_fields.h"

#include <QString>

#include <functional>
#include <string>

class QWidget;

namespace dtsim::gui {

// Tagged with the field's id and entry (fieldIdOf, fieldEntryOf): tests find every
// editor of a field by them.
QWidget* makeFieldEditor(const FieldSpec& spec, QWidget* parent);

// A user's edit: `edited` gets the value FieldSpec::set takes (stored units; a choice's
// index), `editedText` a Text field's new text. Values shown by showFieldValue call neither.
void onFieldEdited(QWidget* editor, const FieldSpec& spec, std::function<void(double)> edited);
void onFieldTextEdited(QWidget* editor, std::function<void(const std::string&)> editedText);

// Shows the scenario's value. A spin box widens its range to show a value outside it.
void showFieldValue(QWidget* editor, const FieldSpec& spec, const Scenario& s);

QString fieldIdOf(const QWidget* editor); // "" when `editor` is no field's
int fieldEntryOf(const QWidget* editor);

} // namespace dtsim::gui
