#include "parameter_panel.h"

#include "field_editor.h"
#include "palette_colors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QCoreApplication>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QVBoxLayout>

#include <cmath>

namespace dtsim::gui {

namespace {
constexpr int kSliderSteps = 1000;
}

// One field: label, slider and editor on a line; the inline error below.
class ParameterRow : public QWidget {
public:
    ParameterRow(const FieldSpec& spec, ParameterPanel* panel) : QWidget(panel), m_spec(spec)
    {
        auto* grid = new QGridLayout(this);
        grid->setContentsMargins(0, 2, 0, 2);
        grid->setHorizontalSpacing(6);
        grid->setVerticalSpacing(1);
        m_label = new QLabel(spec.label, this);
        m_label->setToolTip(spec.tooltip);
        grid->addWidget(m_label, 0, 0, 1, 2);

        m_editor = makeFieldEditor(spec, this);
        onFieldEdited(m_editor, spec, [this, panel](double value) {
            if (!m_updating)
                emit panel->edited(m_spec.id, value, false);
        });
        if (spec.kind == FieldKind::Flag) {
            grid->addWidget(m_editor, 0, 1, Qt::AlignRight);
        } else if (auto* spin = qobject_cast<QDoubleSpinBox*>(m_editor)) {
            m_slider = new QSlider(Qt::Horizontal, this);
            m_slider->setRange(0, kSliderSteps);
            m_slider->setToolTip(spec.tooltip);
            grid->addWidget(m_slider, 1, 0);
            grid->addWidget(spin, 1, 1);
            // A drag is one undo step: the first value of a drag starts a new one.
            connect(m_slider, &QSlider::sliderPressed, this, [this] { m_newDrag = true; });
            connect(m_slider, &QSlider::valueChanged, this, [this, panel, spin](int pos) {
                if (m_updating)
                    return;
                const double shown = m_slider->isSliderDown() ? roundestUnderThePointer(pos) : fromSlider(pos);
                {
                    const QSignalBlocker block(spin);
                    spin->setValue(shown);
                }
                const bool merge = m_slider->isSliderDown() && !m_newDrag;
                m_newDrag = false;
                emit panel->edited(m_spec.id, shown * m_spec.displayScale, merge);
            });
        } else {
            grid->addWidget(m_editor, 1, 0, 1, 2);
        }
        // The wheel scrolls the panel; it changes a value only once the control has focus
        // (a scroll over a slider set Vocabulary 128256 to 131072).
        for (QWidget* input : { static_cast<QWidget*>(m_slider), m_editor })
            if (input) {
                input->setFocusPolicy(Qt::StrongFocus);
                input->installEventFilter(panel);
            }

        m_error = new QLabel(this);
        m_error->setWordWrap(true);
        m_error->setStyleSheet(QString("color: %1;").arg(errorColor().name()));
        m_fix = new QPushButton(this);
        m_fix->setFlat(true);
        m_fix->setStyleSheet(QString("text-align: left; color: %1; text-decoration: underline;").arg(linkColor().name()));
        connect(m_fix, &QPushButton::clicked, this, [this, panel] { emit panel->fixRequested(m_spec.id); });
        grid->addWidget(m_error, 2, 0, 1, 2);
        grid->addWidget(m_fix, 3, 0, 1, 2);
        m_error->hide();
        m_fix->hide();
        grid->setColumnStretch(0, 1);
    }

    void show(const Scenario& s)
    {
        m_updating = true;
        showFieldValue(m_editor, m_spec, s);
        if (m_slider)
            m_slider->setValue(toSlider(m_spec.get(s) / m_spec.displayScale));
        m_updating = false;
    }

    void setError(const QString& message, const QString& fix)
    {
        m_error->setText(message);
        m_error->setVisible(!message.isEmpty());
        m_fix->setText(fix);
        m_fix->setVisible(!message.isEmpty() && !fix.isEmpty());
        m_label->setStyleSheet(message.isEmpty() ? QString() : QString("color: %1; font-weight: bold;").arg(errorColor().name()));
    }

    const FieldSpec& spec() const { return m_spec; }
    QSlider* slider() const { return m_slider; }
    QWidget* editor() const { return m_editor; }
    QString error() const { return m_error->isHidden() ? QString() : m_error->text(); }

private:
    double fromSlider(int pos) const
    {
        const double f = double(pos) / kSliderSteps;
        double v = m_spec.logScale && m_spec.min > 0 ? m_spec.min * std::pow(m_spec.max / m_spec.min, f)
                                                     : m_spec.min + f * (m_spec.max - m_spec.min);
        if (m_spec.kind == FieldKind::Integer) {
            // Powers of two where only those make sense (parallel degrees, batch sizes);
            // elsewhere multiples of the field's step (any layer count, widths of 64).
            // Every log slider snapped to powers of two: Layers went 126 -> 128 -> 256.
            // On a log slider the unit also grows with the value, to a power of two no finer
            // than one slider step there, so every multiple of it can be reached (16384
            // was skipped over by steps of 125 between multiples of 64).
            double unit = std::max(1.0, m_spec.step);
            if (m_spec.logScale && m_spec.min > 0) {
                const double stepRatio = std::pow(m_spec.max / m_spec.min, 1.0 / kSliderSteps) - 1;
                unit = std::max(unit, std::exp2(std::ceil(std::log2(std::max(1.0, v * stepRatio)))));
            }
            if (m_spec.powersOfTwo && v >= 1)
                v = std::exp2(std::round(std::log2(v)));
            else
                v = std::round(v / unit) * unit;
            v = std::clamp(v, m_spec.min, m_spec.max);
        }
        return v;
    }
    // A mouse drag moves a pixel at a time, several slider steps on a laptop's narrow
    // panel, so 80 or 96 layers fell between two pixels. Of the values a pixel spans, a
    // drag takes the roundest (most factors of two): common sizes are under the pointer.
    double roundestUnderThePointer(int pos) const
    {
        const double v = fromSlider(pos);
        if (m_spec.kind != FieldKind::Integer || m_spec.powersOfTwo)
            return v;
        const int span = std::max(1, m_slider->width() - m_slider->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, m_slider));
        const int half = std::max(1, int(std::ceil(0.5 * kSliderSteps / span)));
        const double low = fromSlider(std::max(0, pos - half)), high = fromSlider(std::min(kSliderSteps, pos + half));
        auto roundness = [](long long x) { return x == 0 ? 0 : __builtin_ctzll(static_cast<unsigned long long>(x)); };
        long long best = std::llround(v);
        for (long long x = std::llround(std::ceil(low)); x <= std::llround(std::floor(high)); ++x)
            if (roundness(x) > roundness(best) || (roundness(x) == roundness(best) && std::abs(double(x) - v) < std::abs(double(best) - v)))
                best = x;
        const double unit = std::max(1.0, m_spec.step);
        return std::fmod(double(best), unit) == 0 ? double(best) : v;
    }
    int toSlider(double shown) const
    {
        double f = 0;
        if (m_spec.logScale && m_spec.min > 0 && shown > 0)
            f = std::log(shown / m_spec.min) / std::log(m_spec.max / m_spec.min);
        else if (m_spec.max > m_spec.min)
            f = (shown - m_spec.min) / (m_spec.max - m_spec.min);
        return int(std::lround(std::clamp(f, 0.0, 1.0) * kSliderSteps));
    }

    FieldSpec m_spec;
    QLabel* m_label = nullptr;
    QSlider* m_slider = nullptr;
    QWidget* m_editor = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_fix = nullptr;
    bool m_updating = false;
    bool m_newDrag = false;
};

ParameterPanel::ParameterPanel(std::vector<FieldSpec> fields, QWidget* parent)
    : QWidget(parent)
    , m_fields(std::move(fields))
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search parameters"));
    m_search->setClearButtonEnabled(true);
    outer->addWidget(m_search);
    connect(m_search, &QLineEdit::textChanged, this, &ParameterPanel::filter);
    // Without it, dragging TP was a dead end: every TP but one broke tp x pp x cp x dp =
    // GPUs, and the dashboard showed "-".
    m_keepGpus = new QCheckBox(tr("Keep the GPU count (DP follows TP, PP, CP)"), this);
    m_keepGpus->setChecked(true);
    m_keepGpus->setToolTip(tr("Moving tensor, pipeline or context parallelism gives data parallelism the GPUs they "
                              "leave. Off: each degree moves alone and the plan rules say what to fix."));
    outer->addWidget(m_keepGpus);
    m_models = new QComboBox(this);
    m_models->setToolTip(tr("Replace the model with a public model's dimensions (each with its source in "
                            "resources/models/catalogue.yaml); the batch, plan and cluster stay. Undo takes it back."));
    m_models->hide(); // until there is a catalogue
    outer->addWidget(m_models);
    connect(m_models, &QComboBox::activated, this, [this](int index) {
        const QString id = m_models->itemData(index).toString();
        m_models->setCurrentIndex(0);
        if (!id.isEmpty())
            emit modelChosen(id);
    });

    auto* scroll = new QScrollArea(this);
    m_scroll = scroll;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget(scroll);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 6, 0);
    QHash<QString, QVBoxLayout*> groupLayouts;
    for (const FieldSpec& f : m_fields) {
        if (!groupLayouts.contains(f.group)) {
            auto* box = new QGroupBox(f.group, content);
            box->setCheckable(true); // unchecking collapses the section
            box->setChecked(true);
            auto* inner = new QWidget(box);
            auto* innerLayout = new QVBoxLayout(inner);
            innerLayout->setContentsMargins(0, 0, 0, 0);
            auto* boxLayout = new QVBoxLayout(box);
            boxLayout->setContentsMargins(6, 4, 6, 4);
            boxLayout->addWidget(inner);
            connect(box, &QGroupBox::toggled, inner, &QWidget::setVisible);
            column->addWidget(box);
            m_groups << box;
            groupLayouts.insert(f.group, innerLayout);
        }
        auto* row = new ParameterRow(f, this);
        groupLayouts.value(f.group)->addWidget(row);
        m_rows.insert(f.id, row);
    }
    column->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll, 1);
}

void ParameterPanel::setModelCatalogue(const std::vector<CatalogueModel>& models)
{
    m_models->clear();
    m_models->addItem(tr("Start from a public model..."));
    for (const CatalogueModel& m : models)
        m_models->addItem(tr("%1 (%2, %3B)").arg(QString::fromStdString(m.name)).arg(m.year).arg(m.parameters / 1e9, 0, 'f', m.parameters < 1e10 ? 1 : 0),
            QString::fromStdString(m.id));
    m_models->setVisible(!models.empty());
}

const FieldSpec* ParameterPanel::field(const QString& id) const
{
    for (const FieldSpec& f : m_fields)
        if (f.id == id)
            return &f;
    return nullptr;
}

void ParameterPanel::setScenario(const Scenario& s)
{
    QSet<QString> inapplicable;
    for (ParameterRow* row : std::as_const(m_rows)) {
        row->show(s);
        if (!row->spec().applies(s))
            inapplicable.insert(row->spec().id);
    }
    if (inapplicable != m_inapplicable) {
        m_inapplicable = inapplicable;
        filter(m_search->text());
    }
}

void ParameterPanel::setFieldError(const QString& id, const QString& message, const QString& fixLabel)
{
    if (ParameterRow* row = m_rows.value(id))
        row->setError(message, fixLabel);
    filter(m_search->text());
}

void ParameterPanel::clearErrors()
{
    for (ParameterRow* row : std::as_const(m_rows))
        row->setError({}, {});
    filter(m_search->text());
}

QSlider* ParameterPanel::slider(const QString& id) const
{
    ParameterRow* row = m_rows.value(id);
    return row ? row->slider() : nullptr;
}

QWidget* ParameterPanel::editor(const QString& id) const
{
    ParameterRow* row = m_rows.value(id);
    return row ? row->editor() : nullptr;
}

bool ParameterPanel::eventFilter(QObject* watched, QEvent* event)
{
    auto* input = qobject_cast<QWidget*>(watched);
    if (event->type() == QEvent::Wheel && input && !input->hasFocus()) {
        QCoreApplication::sendEvent(m_scroll->verticalScrollBar(), event); // scroll instead
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

bool ParameterPanel::keepsGpuCount() const { return m_keepGpus->isChecked(); }

QString ParameterPanel::errorText(const QString& id) const
{
    ParameterRow* row = m_rows.value(id);
    return row ? row->error() : QString();
}

void ParameterPanel::filter(const QString& text)
{
    for (ParameterRow* row : std::as_const(m_rows)) {
        const FieldSpec& f = row->spec();
        const bool match = text.isEmpty() || f.label.contains(text, Qt::CaseInsensitive)
            || f.id.contains(text, Qt::CaseInsensitive) || f.tooltip.contains(text, Qt::CaseInsensitive);
        // A row with an error stays in view whatever the filter: the DP row's "tp x pp x
        // cp x dp must equal the GPUs" was hidden while searching for TP.
        row->setVisible(!m_inapplicable.contains(f.id) && (match || !row->error().isEmpty()));
    }
    // A group whose every row belongs to the other kind of model (a layer table's Model
    // group) goes too.
    for (QGroupBox* box : std::as_const(m_groups)) {
        bool any = false;
        for (ParameterRow* row : std::as_const(m_rows))
            any = any || (row->spec().group == box->title() && !m_inapplicable.contains(row->spec().id));
        box->setVisible(any);
    }
}

} // namespace dtsim::gui
