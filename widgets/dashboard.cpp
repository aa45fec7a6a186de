#include "dashboard.h"

#include <cstring>
#include <iterator>

#include "convergence_text.h"
#include "palette_colors.h"
#include "steady_label.h"

#include "simcore/units.h"

#include <QGridLayout>
#include <QEvent>
#include <QLabel>

namespace dtsim::gui {

namespace {
struct Tile {
    const char* key;
    const char* title;
    const char* widest; // the widest figure it shows, to size it once
};
constexpr Tile kTiles[] = { { "step", "Step time", "00.0 min" }, { "mfu", "MFU", "00.0%" },
    { "tflops", "TFLOP/s per GPU", "0000.0" }, { "tokens", "Tokens/s", "000 k" },
    { "memory", "Memory per GPU", "000.0 GiB / 000 GiB" }, { "ttt", "Time to train", "000 days" },
    { "min", "At 100% of peak", "000 days" }, { "gpuh", "GPU-hours", "000 M" }, { "wall", "Sync wall", "00000 GPUs" } };
}

Dashboard::Dashboard(QWidget* parent) : QWidget(parent)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(8, 4, 8, 4);
    grid->setHorizontalSpacing(18);
    m_grid = grid;
    grid->setSizeConstraint(QLayout::SetNoConstraint); // the rows follow the width (reflow), not the other way
    for (const Tile& t : kTiles) {
        auto* title = new QLabel(tr(t.title), this);
        title->setStyleSheet("color: palette(mid);");
        auto* value = new QLabel("-", this);
        m_titles.push_back(title);
        value->setObjectName(QString("dashboard-%1").arg(t.key));
        value->setCursor(Qt::PointingHandCursor);
        value->installEventFilter(this);
        m_values.insert(t.key, value);
        m_order.push_back(value);
    }
    // The loss the run ends at and the tokens it takes (hidden where no law applies).
    m_convergence = new SteadyLabel(this);
    m_convergence->setObjectName("dashboard-convergence");
    m_convergence->setReserve(widestConvergenceLine());
    m_convergence->setVisible(false);
    // The figures rest on the user's measurements: say so, and which.
    m_calibration = new QLabel(this);
    m_calibration->setObjectName("dashboard-calibration");
    m_calibration->setVisible(false);
    // The two note lines keep their height as their text changes, and the comparison's
    // line is there before anything is pinned: pinning A, or applying a change, never
    // moves the tabs under the pointer.
    m_band = new SteadyLabel(this);
    m_band->setObjectName("dashboard-band");
    m_band->setStyleSheet("color: palette(mid);");
    m_band->setReserve(bandText(99, tr("ampere, mixture-of-experts, 16-bit, 2048-131072 GPUs"), { "888.8 ms", "88.8%", "888 k", "88.8 days" }));
    m_compare = new SteadyLabel(this);
    m_compare->setObjectName("dashboard-compare");
    m_compare->setReserve(comparisonText(tr("a scenario pinned as A with a long name (tokens)"), true));
    m_compare->setSteadyText(unpinnedText());
    scaleFonts();
}

QString Dashboard::convergenceNote() const { return m_convergence->isHidden() ? QString() : m_convergence->text(); }
QString Dashboard::calibrationNote() const { return m_calibration->isHidden() ? QString() : m_calibration->text(); }
QString Dashboard::bandNote() const { return m_band->text(); }
QString Dashboard::compareNote() const { return m_pinned ? m_compare->text() : QString(); }

void Dashboard::setPinned(const QString& name, std::optional<Report> a, bool countsSamples)
{
    m_pinned = std::move(a);
    m_pinnedName = name;
    m_pinnedSamples = countsSamples;
    if (!m_pinned)
        m_compare->setSteadyText(unpinnedText());
    m_compare->setVisible(m_pinned.has_value() || !m_presenting);
}

void Dashboard::setPresenting(bool on)
{
    m_presenting = on;
    m_convergence->setReserve(widestConvergenceLine(on)); // one line on stage
    showLines();
    m_compare->setVisible(m_pinned.has_value() || !on);
}

void Dashboard::showLines()
{
    // On stage the tiles leave room for one line under them (a 1366x768 projector): the
    // error band's, but a loss target's tokens, which make the time to train what it is.
    const bool stageLoss = m_presenting && m_convergenceKnown && m_lossTarget;
    m_convergence->setVisible(m_convergenceKnown && (!m_presenting || m_lossTarget));
    if (m_convergenceKnown)
        m_convergence->setSteadyText(m_presenting ? m_convergenceText.second : m_convergenceText.first);
    m_band->setVisible(!stageLoss);
}

QString Dashboard::unpinnedText() const
{
    return QString("<span style=\"color: %1\">%2</span>")
        .arg(palette().color(QPalette::Mid).name(), tr("Ctrl+Shift+A pins this scenario as <b>A</b>: then every change shows here against it."));
}

QString Dashboard::bandText(int similar, const QString& similarity, const QStringList& ranges) const
{
    return tr("80% of %1 similar published runs (%2) would put these at: step %3, MFU %4, tokens/s %5, time to train %6")
        .arg(similar).arg(similarity, ranges.value(0), ranges.value(1), ranges.value(2), ranges.value(3));
}

QString Dashboard::comparisonText(const QString& name, bool withChanges, const Report* a, const Report* b) const
{
    // A's numbers and B's change from them: percent, or points for MFU. Without reports:
    // the widest such line, for the space it reserves.
    auto q = [](const std::string& x) { return QString::fromStdString(x); };
    QStringList parts;
    for (int h = 0; h < kHeadlineCount; ++h) {
        const Headline k = Headline(h);
        QString label = tr(headlineInfo(k).label);
        if (k == Headline::TokensPerSecond && m_pinnedSamples)
            label = tr("Samples/s");
        if (!a) {
            parts << tr("%1 %2 (B %3)").arg(label, "888.8 days", "+888.8%");
            continue;
        }
        const double va = headlineValue(*a, k);
        if (!withChanges || !b) {
            parts << tr("%1 %2").arg(label, q(formatHeadline(k, va)));
            continue;
        }
        const double vb = headlineValue(*b, k);
        const QString change = k == Headline::Mfu ? QString("%1%2 pts").arg(vb >= va ? "+" : "").arg(100 * (vb - va), 0, 'f', 1)
            : va != 0                              ? QString("%1%2%").arg(vb >= va ? "+" : "").arg(100 * (vb / va - 1), 0, 'f', 1)
                                                   : QString("-");
        parts << tr("%1 %2 (B %3)").arg(label, q(formatHeadline(k, va)), change);
    }
    return tr("<b>A</b> = %1: %2").arg(name.toHtmlEscaped(), parts.join(" &middot; "));
}

int Dashboard::tileWidth(int i) const
{
    // Its title or the widest figure it shows, so an edit never reflows the tiles.
    return std::max(m_titles[i]->fontMetrics().horizontalAdvance(m_titles[i]->text()),
        m_order[std::size_t(i)]->fontMetrics().horizontalAdvance(kTiles[i].widest));
}

void Dashboard::reflow()
{
    // As many tiles a row as fit: at 1366 px in presentation mode one row cut the
    // figures off ("16.1 da").
    const int spacing = m_grid->horizontalSpacing();
    const int available = width() - m_grid->contentsMargins().left() - m_grid->contentsMargins().right();
    const int count = int(m_order.size());
    // The fewest rows whose columns (each as wide as its widest tile) fit. Before it is
    // shown its width means nothing: one row (nine rows at the constructor's default
    // width grew the window to 946 px tall, and it stayed so).
    int columns = isVisible() ? 1 : count;
    for (int rows = 1; rows <= count && isVisible(); ++rows) {
        const int c = (count + rows - 1) / rows;
        int needed = -spacing;
        for (int col = 0; col < c; ++col) {
            int widest = 0;
            for (int i = col; i < count; i += c)
                widest = std::max(widest, tileWidth(i));
            needed += widest + spacing;
        }
        if (needed <= available) {
            columns = c;
            break;
        }
    }
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (int i = 0; i < count; ++i) {
        m_grid->removeWidget(m_titles[i]);
        m_grid->removeWidget(m_order[std::size_t(i)]);
    }
    for (int i = 0; i < count; ++i) {
        const int row = 2 * (i / columns), col = i % columns;
        m_grid->addWidget(m_titles[i], row, col);
        m_grid->addWidget(m_order[std::size_t(i)], row + 1, col);
    }
    // The lines under the tiles, each across them all.
    int line = 2 * ((count + columns - 1) / columns);
    for (QWidget* w : std::initializer_list<QWidget*> { m_convergence, m_calibration, m_band, m_compare }) {
        m_grid->removeWidget(w);
        m_grid->addWidget(w, line++, 0, 1, columns);
    }
}

QSize Dashboard::minimumSizeHint() const
{
    int widest = 0;
    for (int i = 0; i < int(m_order.size()); ++i)
        widest = std::max(widest, tileWidth(i));
    const QMargins m = m_grid->contentsMargins();
    return { widest + m.left() + m.right(), m_grid->minimumSize().height() };
}

void Dashboard::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    reflow();
}

void Dashboard::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    reflow(); // its first resize can come before it is visible, when its width meant nothing
}

void Dashboard::scaleFonts()
{
    // Relative to the dashboard's font, so presentation mode's larger type reaches it.
    QFont title = font(), value = font();
    title.setPointSizeF(font().pointSizeF() * 0.85);
    value.setPointSizeF(font().pointSizeF() * 1.5);
    value.setBold(true);
    for (QLabel* l : m_titles)
        l->setFont(title);
    for (QLabel* l : m_values)
        l->setFont(value);
    m_columns = 0; // wider type: lay the tiles out again
    if (!m_order.empty())
        reflow();
}

void Dashboard::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::FontChange)
        scaleFonts();
    QWidget::changeEvent(e);
}

void Dashboard::set(const QString& key, const QString& text, const QString& tip, bool alarm)
{
    QLabel* l = m_values.value(key);
    l->setText(text);
    l->setToolTip(tip);
    l->setStyleSheet(alarm ? QString("color: %1;").arg(errorColor().name()) : QString());
}

void Dashboard::showReport(const Scenario& s, const Report& r)
{
    const StepReport& st = r.step;
    auto q = [](const std::string& x) { return QString::fromStdString(x); };
    set("step", q(formatSeconds(st.stepTime)), tr("%1 micro-batches; bubble %2%").arg(st.microbatches).arg(100 * st.bubbleFraction, 0, 'f', 1));
    set("mfu", QString("%1%").arg(100 * st.mfu, 0, 'f', 1), tr("HFU %1%").arg(100 * st.hfu, 0, 'f', 1));
    set("tflops", QString::number(st.tflopsPerGpu, 'f', 1), tr("of %1 peak").arg(q(formatFlops(st.peakFlopsPerGpu))));
    set("tokens", q(formatCount(st.tokensPerSecond)));
    for (std::size_t i = 0; i < std::size(kTiles); ++i)
        if (std::strcmp(kTiles[i].key, "tokens") == 0)
            m_titles[int(i)]->setText(s.model.isLayerTable() ? tr("Samples/s") : tr("Tokens/s"));
    const bool fits = st.memory.fits;
    set("memory", QString("%1 / %2").arg(q(formatMemory(st.memory.total)), q(formatMemory(st.memory.capacity))),
        fits ? tr("fits") : tr("does not fit in memory"), !fits);
    const double deadline = s.training.deadline;
    set("ttt", q(formatDuration(r.timeToTrain)),
        deadline > 0 ? tr("%1 steps; deadline %2").arg(q(formatCount(r.steps)), q(formatDuration(deadline)))
                     : tr("%1 steps").arg(q(formatCount(r.steps))),
        deadline > 0 && r.timeToTrain > deadline);
    set("min", q(formatDuration(r.theoreticalMinTime)), tr("all GPUs at 100% of peak, no communication"));
    set("gpuh", q(formatCount(r.gpuHours)));
    set("wall", tr("%1 GPUs").arg(r.syncWallGpus), tr("fastest run at this global batch: %1").arg(q(formatDuration(r.syncWallTimeToTrain))));
    // How far to trust the numbers: where the measured value fell on the most similar
    // published runs (simcore/study/error_band.h).
    const ErrorBand band = errorBand(m_residuals, traitsOf(s));
    if (band.ok()) {
        auto range = [&](Headline h) {
            const Interval i = bandOf(h, headlineValue(r, h), band);
            return q(formatHeadline(h, i.low)) + QString::fromUtf8("\u2013") + q(formatHeadline(h, i.high));
        };
        m_band->setSteadyText(bandText(band.similar, q(band.similarity),
            { range(Headline::StepTime), range(Headline::Mfu), range(Headline::TokensPerSecond), range(Headline::TimeToTrain) }));
    } else {
        m_band->setSteadyText(tr("No similar published run to say how far to trust these numbers (%1 of the %2 needed).")
                            .arg(band.similar).arg(kMinSimilarRuns));
    }
    if (m_pinned) {
        if (m_pinnedSamples != s.model.isLayerTable()) {
            // A samples/s figure against a tokens/s one is no ratio: say so, and show A.
            m_compare->setSteadyText(tr("%1 <i>(A counts %2, this scenario %3: not compared)</i>")
                                         .arg(comparisonText(m_pinnedName, false, &*m_pinned),
                                             m_pinnedSamples ? tr("samples") : tr("tokens"),
                                             s.model.isLayerTable() ? tr("samples") : tr("tokens")));
        } else {
            m_compare->setSteadyText(comparisonText(m_pinnedName, true, &*m_pinned, &r));
        }
    }
    m_convergenceKnown = r.convergence.known;
    m_lossTarget = s.training.target == TrainingTarget::Loss;
    showLines();
    if (r.convergence.known)
        m_convergenceText = { convergenceLine(s, r.convergence), convergenceLine(s, r.convergence, true) };
    showLines();
    const CalibrationOverlay& o = s.calibration;
    m_calibration->setVisible(!o.empty());
    if (!o.empty()) {
        m_calibration->setText(tr("calibrated from %1: compute x%2, %n measured collective line(s)", nullptr, int(o.collectives.size()))
                                   .arg(q(o.file)).arg(o.computeScale, 0, 'f', 3));
        QStringList sources;
        if (!o.computeSource.empty())
            sources << tr("compute: %1").arg(q(o.computeSource));
        if (o.kernels.fitted())
            sources << tr("kernels (GEMM x%1, attention x%2, memory x%3): %4")
                           .arg(o.kernels.gemmScale, 0, 'f', 2).arg(o.kernels.attentionScale, 0, 'f', 2)
                           .arg(o.kernels.memoryScale, 0, 'f', 2).arg(q(o.kernels.source));
        for (const MeasuredCollective& m : o.collectives)
            sources << tr("%1 %2: %3").arg(q(measuredTierName(m.tier)), q(m.collective), q(m.source));
        m_calibration->setToolTip(sources.join("\n"));
    }
}

void Dashboard::showInvalid(const QString& reason)
{
    for (auto it = m_values.begin(); it != m_values.end(); ++it)
        set(it.key(), "-", reason);
    // No ranges for figures that are not there; A's own numbers stay.
    m_band->setSteadyText(tr("No error band: the plan is not valid."));
    if (!m_convergence->isHidden()) // it keeps its place: the tabs do not move under the pointer
        m_convergence->setSteadyText(tr("No loss or tokens: the plan is not valid."));
    if (m_pinned)
        m_compare->setSteadyText(comparisonText(m_pinnedName, false, &*m_pinned) + tr(" <i>(B: the plan is not valid)</i>"));
}

bool Dashboard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonRelease)
        for (auto it = m_values.begin(); it != m_values.end(); ++it)
            if (it.value() == watched) {
                emit figureClicked(it.key());
                return true;
            }
    return QWidget::eventFilter(watched, event);
}

QString Dashboard::value(const QString& key) const
{
    QLabel* l = m_values.value(key);
    return l ? l->text() : QString();
}

} // namespace dtsim::gui
