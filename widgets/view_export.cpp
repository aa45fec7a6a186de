#include "view_export.h"

#include "simcore/io/atomic_file.h"

#include <QFile>

#include <QAbstractItemModel>
#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTableView>
#include <QWidget>

namespace dtsim::gui {

namespace {

QString csvField(QString s)
{
    if (s.contains(',') || s.contains('"') || s.contains('\n')) {
        s.replace('"', "\"\"");
        return '"' + s + '"';
    }
    return s;
}

} // namespace

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    // Not QSaveFile: its buffered write succeeds into memory, and Qt 6.4 renames the
    // temporary over the file even when the flush in commit() fails (a full disk left
    // an empty scenario behind). simcore's writer checks every write, flush and close.
    std::string why;
    if (dtsim::writeFileAtomically(QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())), &why))
        return true;
    if (error)
        *error = QString::fromLocal8Bit(why.c_str());
    return false;
}

QString exportTargetProblem(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return QObject::tr("%1 is a folder; name a file such as %2").arg(path, QDir(path).filePath("dtsim.png"));
    if (!info.absoluteDir().exists())
        return QObject::tr("the folder %1 does not exist").arg(info.absolutePath());
    const QString ext = info.suffix().toLower();
    if (ext != "png" && ext != "svg" && ext != "pdf")
        return ext.isEmpty() ? QObject::tr("%1 has no extension: end it in .png, .svg or .pdf").arg(path)
                             : QObject::tr("unknown export format \".%1\": end the name in .png, .svg or .pdf").arg(ext);
    return {};
}

bool exportWidget(QWidget* w, const QString& path, QString* error)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    const QSize size = w->size();
    if (ext == "png") {
        // Rendered to a temporary name first, so a failed write keeps an older export.
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!w->grab().save(&buffer, "PNG")) {
            if (error)
                *error = QObject::tr("cannot render the view");
            return false;
        }
        return writeFileAtomically(path, bytes, error);
    }
    if (ext == "svg") {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(w->window()->windowTitle());
        svg.setDescription(QObject::tr("Exported from dtsim"));
        QPainter p(&svg);
        w->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        p.end();
        return writeFileAtomically(path, bytes, error);
    }
    if (ext == "pdf") {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&buffer);
        pdf.setTitle(w->window()->windowTitle());
        pdf.setCreator("dtsim");
        pdf.setPageSize(QPageSize(QSizeF(size) * 0.75, QPageSize::Point)); // one page the view's shape, 96 dpi
        pdf.setPageMargins(QMarginsF());
        pdf.setResolution(96);
        QPainter p(&pdf);
        w->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        p.end();
        buffer.close();
        return writeFileAtomically(path, bytes, error);
    }
    if (error)
        *error = QObject::tr("unknown export format \"%1\" (png, svg or pdf)").arg(ext);
    return false;
}

QString modelToCsv(const QAbstractItemModel& m)
{
    QString out;
    QStringList row;
    // A heading drawn on two lines is one line in the file ("fifo wait (days)").
    for (int c = 0; c < m.columnCount(); ++c)
        row << csvField(m.headerData(c, Qt::Horizontal).toString().replace('\n', ' '));
    out += row.join(',') + '\n';
    for (int r = 0; r < m.rowCount(); ++r) {
        row.clear();
        for (int c = 0; c < m.columnCount(); ++c)
            row << csvField(m.data(m.index(r, c)).toString());
        out += row.join(',') + '\n';
    }
    return out;
}

bool exportTablesCsv(QWidget* w, const QString& path, QString* error)
{
    QStringList parts;
    for (const QTableView* t : w->findChildren<QTableView*>())
        if (t->model() && t->model()->columnCount() > 0)
            parts << modelToCsv(*t->model());
    if (parts.isEmpty()) {
        if (error)
            *error = QObject::tr("this view has no table");
        return false;
    }
    return writeFileAtomically(path, parts.join('\n').toUtf8(), error);
}

} // namespace dtsim::gui
