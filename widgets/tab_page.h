#pragma once
// What every tab of the main window is to it. The window decides when a tab follows
// the document; the tab decides what that costs. A tab that draws the shared step
// report draws it; a tab whose figures need more (the frontier, the best plans, the
// Monte Carlo...) asks the evaluator for its own analysis, on the worker, and draws the
// newest answer. No tab is fed results by the window.
#include "simcore/report.h"
#include "simcore/scenario.h"

namespace dtsim::gui {

// The document after an edit and, when its plan is valid, that scenario again and the
// one step report MainWindow::refresh computed for it (both null otherwise).
struct TabInput {
    const Scenario& document;
    const Scenario* valid = nullptr;
    const Report* report = nullptr;
};

// `Edit`: every edit while the tab is shown (keep it to a few milliseconds).
// `Pause`: once the edits pause (120 ms), or when the tab is shown: the tab's own
// analysis. A tab shown late gets both, in that order.
enum class TabMoment { Edit, Pause };

class TabPage {
public:
    virtual ~TabPage() = default;
    virtual void follow(const TabInput& in, TabMoment when) = 0;
    // Whether the tab itself says when the plan is not valid (it clears, or its figures
    // do not depend on the plan). Otherwise the window lays a note over it.
    virtual bool saysWhenInvalid() const { return false; }
};

} // namespace dtsim::gui
