#include "plot_style.h"

#include <algorithm>
#include <vector>

namespace dtsim::gui {

namespace {

QRectF boxOf(QCPItemText* t) { return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized(); }

} // namespace

void separatePlotLabels(QCustomPlot* plot)
{
    std::vector<QCPItemText*> labels;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible() && !t->text().isEmpty())
            labels.push_back(t);
    // Top to bottom; each label is moved clear of those already placed.
    std::stable_sort(labels.begin(), labels.end(), [](QCPItemText* a, QCPItemText* b) { return boxOf(a).top() < boxOf(b).top(); });
    std::vector<QRectF> placed;
    for (QCPItemText* t : labels) {
        const QRect area = t->clipAxisRect() ? t->clipAxisRect()->rect() : plot->viewport();
        QRectF box = boxOf(t);
        const QRectF original = box;
        // Below whatever it touches, as often as it takes; where that leaves the plot,
        // above instead.
        for (int tries = 0; tries < int(placed.size()) + 1; ++tries) {
            auto hit = std::find_if(placed.begin(), placed.end(), [&](const QRectF& p) { return p.intersects(box); });
            if (hit == placed.end())
                break;
            box.moveTop(hit->bottom() + 1);
        }
        if (box.bottom() > area.bottom()) {
            box = original;
            for (int tries = 0; tries < int(placed.size()) + 1; ++tries) {
                auto hit = std::find_if(placed.begin(), placed.end(), [&](const QRectF& p) { return p.intersects(box); });
                if (hit == placed.end())
                    break;
                box.moveBottom(hit->top() - 1);
            }
        }
        if (box.top() != original.top()) {
            const QPointF at = t->position->pixelPosition();
            t->position->setPixelPosition(QPointF(at.x(), at.y() + box.top() - original.top()));
        }
        placed.push_back(box);
    }
}

} // namespace dtsim::gui
