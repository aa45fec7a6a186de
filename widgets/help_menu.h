#pragma once
// The Help menu: the keys, the manual shipped with dtsim (offline), and About.
#include <QString>

class QMainWindow;
class QMenu;

namespace dtsim::gui {

// `docsDir` holds README.md and the docs/ pages (installed with the package).
QMenu* addHelpMenu(QMainWindow* window, const QString& docsDir);
QString shortcutsText(); // the keys, as HTML
QString aboutText();     // version, licence, the libraries

} // namespace dtsim::gui
