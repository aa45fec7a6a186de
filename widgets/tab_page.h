#pragma once
// What every tab of the main window is to it. The window decides when a tab follows
// the document; the tab decides what that costs. A tab that draws the shared step
// report draws it; a tab whose figures need more (the frontier, the best plans, the
// Monte Carlo...) asks the evaluator for its own analysis, on the worker, and draws the
// newest answer. The window feeds a tab nothing but TabInput.
#include "simcore/report.h"
#include "simcore/scenario.h"

namespace dtsim::gui {

// The document after an edit and, when its plan is valid, that scenario again and the
// one step report MainWindow::refresh computed for it (both null otherwise); and the
// scenario pinned as A for comparison, with its report (both null when none is).
struct TabInput {
    const Scenario& document;
    const Scenario* valid = nullptr;
    const Report* report = nullptr;
    const Scenario* pinned = nullptr;
    const Report* pinnedReport = nullptr;
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
    // Presentation mode went on or off (a tab may lay itself out for a projector).
    virtual void setPresenting(bool) {}
    // The theme changed: what the tab keeps drawn in the old palette is redrawn at its
    // next update.
    virtual void restyle() {}
};

} // namespace dtsim::gui
