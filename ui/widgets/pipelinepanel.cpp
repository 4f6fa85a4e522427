// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/pipelinepanel.h"

#include "ui/models/pipelinemodel.h"
#include "ui/widgets/palette.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTimer>
#include <QToolTip>

#include <cmath>

namespace opbench::ui {

namespace {
constexpr int TickMs = 250;
constexpr qreal Margin = 8;
constexpr qreal ArrowGap = 22;
constexpr qreal ReturnLane = 18; // below the boxes: the writes going back to the API server
constexpr qreal MinBoxWidth = 84;

QColor stateColour(PipelineModel::State s, const QPalette &pal)
{
    switch (s) {
    case PipelineModel::State::Active:
        return resultColour(ResultColour::Success);
    case PipelineModel::State::Paused:
    case PipelineModel::State::Stepping:
        return resultColour(ResultColour::Paused);
    case PipelineModel::State::Backoff:
        return resultColour(ResultColour::RateLimited);
    case PipelineModel::State::Idle:
    case PipelineModel::State::Syncing:
        break;
    }
    return pal.mid().color();
}

QString stateTag(PipelineModel::State s)
{
    switch (s) {
    case PipelineModel::State::Paused:
        return PipelinePanel::tr("paused");
    case PipelineModel::State::Stepping:
        return PipelinePanel::tr("stepping");
    case PipelineModel::State::Backoff:
        return PipelinePanel::tr("backoff");
    case PipelineModel::State::Syncing:
        return PipelinePanel::tr("syncing");
    default:
        return {};
    }
}
} // namespace

PipelinePanel::PipelinePanel(PipelineModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("pipelinePanel"));
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Controller pipeline"));
    setAccessibleDescription(tr("The controller's stages from the API server to the client writes, with a count per "
                                "stage. Left and Right choose a stage, Enter opens the panel that shows it."));
    m_timer->setInterval(TickMs);
    connect(m_timer, &QTimer::timeout, this, &PipelinePanel::tick);
    connect(model, &QAbstractItemModel::dataChanged, this, qOverload<>(&QWidget::update));
}

int PipelinePanel::dotCount(qint64 activity)
{
    if (activity <= 0)
        return 0;
    return activity < 10 ? 1 : activity < 1000 ? 2 : 3;
}

qreal PipelinePanel::boxHeight() const
{
    const QFontMetricsF fm(font());
    return fm.height() * 5.2 + 10; // title, big count (1.6 lines), two lines of detail
}

QRectF PipelinePanel::stageRect(int row) const
{
    if (row < 0 || row >= PipelineModel::StageCount)
        return {};
    const int n = PipelineModel::StageCount;
    const qreal w = std::max(MinBoxWidth, (width() - 2 * Margin - (n - 1) * ArrowGap) / n);
    const qreal h = boxHeight();
    const qreal top = std::max(Margin, (height() - h - ReturnLane) / 2);
    return {Margin + row * (w + ArrowGap), top, w, h};
}

int PipelinePanel::stageAt(QPointF pos) const
{
    for (int row = 0; row < PipelineModel::StageCount; ++row) {
        if (stageRect(row).contains(pos))
            return row;
    }
    return -1;
}

QSize PipelinePanel::sizeHint() const
{
    const int n = PipelineModel::StageCount;
    return {int(2 * Margin + n * 150 + (n - 1) * ArrowGap), int(boxHeight() + ReturnLane + 2 * Margin)};
}

QSize PipelinePanel::minimumSizeHint() const
{
    const int n = PipelineModel::StageCount;
    return {int(2 * Margin + n * MinBoxWidth + (n - 1) * ArrowGap), int(boxHeight() + ReturnLane + 2 * Margin)};
}

void PipelinePanel::tick()
{
    m_model->advance();
    ++m_frame;
    update();
}

void PipelinePanel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const auto activityOf
        = [this](int row) { return m_model->data(m_model->index(row), PipelineModel::ActivityRole).toLongLong(); };
    for (int row = 0; row + 1 < PipelineModel::StageCount; ++row) {
        const QRectF a = stageRect(row);
        const QRectF b = stageRect(row + 1);
        paintArrow(
            p, {QPointF(a.right() + 2, a.center().y()), QPointF(b.left() - 2, b.center().y())}, activityOf(row + 1));
    }
    // The writes go back round to the API server, where they become the next watch events.
    const QRectF last = stageRect(PipelineModel::StageCount - 1);
    const QRectF first = stageRect(0);
    const qreal y = last.bottom() + ReturnLane - 4;
    paintArrow(p,
        {QPointF(last.center().x(), last.bottom() + 2), QPointF(last.center().x(), y), QPointF(first.center().x(), y),
            QPointF(first.center().x(), first.bottom() + 2)},
        activityOf(PipelineModel::ClientWrites));
    p.setPen(palette().placeholderText().color());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.drawText(QRectF(first.center().x() + 8, y - QFontMetricsF(small).height() - 1,
                   last.center().x() - first.center().x() - 16, QFontMetricsF(small).height()),
        Qt::AlignCenter, tr("every write comes back as a watch event"));
    p.setFont(font());
    for (int row = 0; row < PipelineModel::StageCount; ++row)
        paintStage(p, row, stageRect(row));
}

void PipelinePanel::paintArrow(QPainter &p, const QList<QPointF> &path, qint64 activity) const
{
    QPen pen(palette().mid().color(), 1.5);
    p.setPen(pen);
    for (qsizetype i = 0; i + 1 < path.size(); ++i)
        p.drawLine(path.at(i), path.at(i + 1));
    const QPointF tip = path.last();
    const QPointF from = path.at(path.size() - 2);
    const QLineF dir(tip, from);
    QLineF wing1 = dir;
    wing1.setLength(6);
    wing1.setAngle(dir.angle() + 30);
    QLineF wing2 = dir;
    wing2.setLength(6);
    wing2.setAngle(dir.angle() - 30);
    QPainterPath head;
    head.moveTo(tip);
    head.lineTo(wing1.p2());
    head.lineTo(wing2.p2());
    head.closeSubpath();
    p.fillPath(head, palette().mid().color());
    const int dots = dotCount(activity);
    if (dots == 0)
        return;
    // Dots spaced along the path, moving one quarter of the spacing each tick.
    qreal total = 0;
    for (qsizetype i = 0; i + 1 < path.size(); ++i)
        total += QLineF(path.at(i), path.at(i + 1)).length();
    p.setPen(Qt::NoPen);
    p.setBrush(resultColour(ResultColour::Success));
    for (int d = 0; d < dots; ++d) {
        qreal at = std::fmod((qreal(d) + qreal(m_frame % 4) / 4.0) / dots, 1.0) * total;
        for (qsizetype i = 0; i + 1 < path.size(); ++i) {
            const QLineF seg(path.at(i), path.at(i + 1));
            if (at <= seg.length()) {
                p.drawEllipse(seg.pointAt(seg.length() > 0 ? at / seg.length() : 0), 3, 3);
                break;
            }
            at -= seg.length();
        }
    }
    p.setBrush(Qt::NoBrush);
}

void PipelinePanel::paintStage(QPainter &p, int row, const QRectF &box) const
{
    const QModelIndex idx = m_model->index(row);
    const auto state = PipelineModel::State(idx.data(PipelineModel::StateRole).toInt());
    const QColor outline = stateColour(state, palette());
    QPainterPath shape;
    shape.addRoundedRect(box, 6, 6);
    p.fillPath(shape, palette().base());
    QPen pen(outline, state == PipelineModel::State::Idle ? 1 : state == PipelineModel::State::Stepping ? 3 : 2);
    if (state == PipelineModel::State::Syncing || state == PipelineModel::State::Paused)
        pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.drawPath(shape);
    if (row == m_current && hasFocus()) {
        p.setPen(QPen(palette().highlight().color(), 1, Qt::DotLine));
        p.drawRoundedRect(box.adjusted(-3, -3, 3, 3), 8, 8);
    }
    const QRectF inner = box.adjusted(6, 4, -6, -4);
    const QFontMetricsF fm(font());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().text().color());
    const QString title = idx.data().toString();
    p.drawText(QRectF(inner.left(), inner.top(), inner.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetricsF(bold).elidedText(title, Qt::ElideRight, inner.width()));
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    const QFontMetricsF bigFm(big);
    const QRectF countRect(inner.left(), inner.top() + fm.height(), inner.width(), bigFm.height());
    p.setFont(big);
    p.setPen(state == PipelineModel::State::Idle ? palette().text().color() : outline);
    p.drawText(countRect, Qt::AlignLeft | Qt::AlignVCenter,
        bigFm.elidedText(idx.data(PipelineModel::CountTextRole).toString(), Qt::ElideRight, countRect.width()));
    const QString tag = stateTag(state);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    if (!tag.isEmpty()) {
        p.setFont(small);
        p.setPen(outline.darker(110));
        p.drawText(countRect, Qt::AlignRight | Qt::AlignBottom, tag);
    }
    p.setFont(small);
    p.setPen(palette().placeholderText().color());
    const QRectF detailRect(
        inner.left(), countRect.bottom() + 2, inner.width(), inner.bottom() - countRect.bottom() - 2);
    p.drawText(
        detailRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, idx.data(PipelineModel::DetailRole).toString());
    p.setFont(font());
}

void PipelinePanel::activate(int row)
{
    if (row < 0 || row >= PipelineModel::StageCount)
        return;
    m_current = row;
    update();
    Q_EMIT stageActivated(row);
    Q_EMIT openDockRequested(m_model->data(m_model->index(row), PipelineModel::DockRole).toString());
}

void PipelinePanel::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        activate(stageAt(event->position()));
    QWidget::mousePressEvent(event);
}

void PipelinePanel::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Left:
        m_current = std::max(0, m_current - 1);
        update();
        return;
    case Qt::Key_Right:
        m_current = std::min(int(PipelineModel::StageCount) - 1, m_current + 1);
        update();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        activate(m_current);
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

bool PipelinePanel::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = stageAt(help->pos());
        if (row >= 0)
            QToolTip::showText(help->globalPos(), m_model->data(m_model->index(row), Qt::ToolTipRole).toString(), this,
                stageRect(row).toRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void PipelinePanel::showEvent(QShowEvent *event)
{
    m_model->advance();
    m_timer->start();
    QWidget::showEvent(event);
}

void PipelinePanel::hideEvent(QHideEvent *event)
{
    m_timer->stop();
    QWidget::hideEvent(event);
}

} // namespace opbench::ui
