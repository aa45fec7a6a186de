#include "help_menu.h"

#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QUrl>

namespace dtsim::gui {

QString shortcutsText()
{
    return QObject::tr(
        "<table>"
        "<tr><td><b>Ctrl+Z / Ctrl+Shift+Z</b></td><td>undo / redo an edit (a slider drag is one step)</td></tr>"
        "<tr><td><b>Ctrl+O / Ctrl+S</b></td><td>open / save a scenario</td></tr>"
        "<tr><td><b>F2</b></td><td>how the clicked figure is computed</td></tr>"
        "<tr><td><b>F11</b>, <b>Esc</b></td><td>presentation mode on / off</td></tr>"
        "<tr><td><b>W / S</b></td><td>zoom in / out of a timeline (Timeline, Reliability, Cluster)</td></tr>"
        "<tr><td><b>A / D</b></td><td>pan a timeline left / right; drag with the mouse too</td></tr>"
        "<tr><td><b>F</b>, double click</td><td>fit the timeline to the window</td></tr>"
        "<tr><td>mouse wheel</td><td>scrolls the panel; changes a slider or box once it has focus (click it first)</td></tr>"
        "</table>");
}

QString aboutText()
{
    return QObject::tr("<h3>dtsim %1</h3>"
                       "<p>A simulator of distributed deep-learning training: step time, utilization, memory, "
                       "failures and checkpoints, cost, energy and carbon, and shared clusters.</p>"
                       "<p>Licensed under the GNU General Public License, version 3 or later. "
                       "Built with Qt %2 (Qt Charts), QCustomPlot 2.1 and yaml-cpp.</p>")
        .arg(QStringLiteral(DTSIM_VERSION_STRING), QString::fromLatin1(qVersion()));
}

QMenu* addHelpMenu(QMainWindow* window, const QString& docsDir)
{
    QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
    QAction* keys = help->addAction(QObject::tr("&Keyboard and mouse"), window,
        [window] { QMessageBox::information(window, QObject::tr("Keyboard and mouse"), shortcutsText()); });
    keys->setObjectName("help-keys");
    // The manual opens from disk, without a network: README.md first, then docs/*.md.
    QMenu* manual = help->addMenu(QObject::tr("&Manual"));
    manual->setObjectName("help-manual");
    const QDir docs(docsDir);
    QStringList pages;
    for (const QString& candidate : { docs.filePath("README.md"), QDir(docsDir + "/..").filePath("README.md") })
        if (QFileInfo::exists(candidate)) {
            pages << QFileInfo(candidate).absoluteFilePath();
            break;
        }
    for (const QString& f : docs.entryList({ "*.md" }, QDir::Files, QDir::Name))
        if (f != "README.md")
            pages << docs.filePath(f);
    for (const QString& page : pages)
        manual->addAction(QFileInfo(page).completeBaseName(), window, [page] { QDesktopServices::openUrl(QUrl::fromLocalFile(page)); });
    if (pages.isEmpty())
        manual->addAction(QObject::tr("(not found in %1)").arg(docsDir))->setEnabled(false);
    help->addSeparator();
    QAction* about = help->addAction(QObject::tr("&About dtsim"), window,
        [window] { QMessageBox::about(window, QObject::tr("About dtsim"), aboutText()); });
    about->setObjectName("help-about");
    return help;
}

} // namespace dtsim::gui
