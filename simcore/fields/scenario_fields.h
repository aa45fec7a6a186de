#pragma once
// The scenario's fields and sections, each declared once (field_def.h). Everything
// that spells a field derives from here: the loader, the writer, --set (through the
// loader), the parameter panel and docs/scenario.md.
#include "field_def.h"

#include <string>
#include <string_view>
#include <vector>

namespace dtsim {

// In file order: the loader reads and the writer writes them in this order, so a
// field's derived default may use any field declared before it.
const std::vector<SectionDef>& scenarioSections();
const std::vector<FieldDef>& scenarioFields();

const SectionDef* findSection(std::string_view path);
// The field at `path` ("parallel.tp"; list entries as "cluster.tiers[].latency"), or null.
const FieldDef* findField(std::string_view path);

// "parallel" for "parallel.tp", "cluster.tiers" for "cluster.tiers[].latency", "" at the top.
std::string_view sectionOf(std::string_view fieldPath);
// "tp" for "parallel.tp".
std::string_view keyOf(std::string_view path);
// The fields written directly in a section (not in its subsections), in file order.
const std::vector<const FieldDef*>& fieldsIn(std::string_view section);
// The sections directly inside a section.
const std::vector<const SectionDef*>& sectionsIn(std::string_view section);

// The name a Choice field writes for `value` (its first name), or "" if none.
std::string choiceName(const FieldDef& f, int value);

// The first field whose value the loader would refuse when the writer wrote it (an
// integer out of range, a quantity beyond what dtsim models, a declared check), so the
// GUI can refuse what it could not reopen. {field, reason}; empty field: none.
struct FieldValueIssue {
    std::string field;
    std::string reason;
};
FieldValueIssue fieldValueIssue(const Scenario& s);

// docs/scenario.md's field reference (the tables between its generated markers).
std::string fieldReferenceMarkdown();

} // namespace dtsim
