#pragma once
// Exports of whatever a view shows: the widget drawn to PNG (pixels), SVG or PDF
// (vectors, through QPainter), and its tables to CSV. One place, so every tab and
// chart exports the same way.
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractItemModel;
class QWidget;
QT_END_NAMESPACE

namespace dtsim::gui {

// Format from the extension: .png, .svg or .pdf. False with `error` set on failure.
bool exportWidget(QWidget* w, const QString& path, QString* error);
// Why `path` cannot take an export, before any work: a folder, a missing folder, or an
// extension that names no format. Empty when it can.
QString exportTargetProblem(const QString& path);
// Every table (QTableWidget or QTableView) under `w`, one after another, separated by a
// blank line; false when there is none or the file cannot be written.
bool exportTablesCsv(QWidget* w, const QString& path, QString* error);
QString modelToCsv(const QAbstractItemModel& m);
// Writes `bytes` atomically (simcore/io/atomic_file.h): the whole file or the old one,
// with the system's reason on failure; regular files only.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

} // namespace dtsim::gui
