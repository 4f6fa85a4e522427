// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/reconciletimelineview.h"

#include "ui/models/reconcilelistmodel.h"
#include "ui/widgets/palette.h"

#include <QDateTime>
#include <QMouseEvent>
#include <QPainter>
#include <QPolygonF>
#include <QTimer>

#include <cmath>

namespace opbench::ui {

namespace {
constexpr qreal LaneHeight = 14;
constexpr int TickMs = 500;
} // namespace

ReconcileTimelineView::ReconcileTimelineView(ReconcileListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_tick(new QTimer(this))
{
    setObjectName(QStringLiteral("reconcileTimeline"));
    setToolTip(tr("One bar per reconcile: length = duration, colour = result (green success, blue requeue after, "
                  "amber retry, red error, dark red terminal). Violet: paused. Click a bar to select it."));
    setAccessibleName(tr("Reconcile timeline"));
    // Time moves even when nothing reconciles: repaint twice a second while visible.
    m_tick->setInterval(TickMs);
    connect(m_tick, &QTimer::timeout, this, qOverload<>(&QWidget::update));
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, [this] { update(); });
    connect(model, &QAbstractItemModel::modelReset, this, qOverload<>(&QWidget::update));
}

void ReconcileTimelineView::setLaneMode(TimelineLanes mode)
{
    m_mode = mode;
    updateGeometry();
    update();
}

void ReconcileTimelineView::setKeyFilter(const QString &text)
{
    m_keyFilter = text.trimmed();
    updateGeometry();
    update();
}

void ReconcileTimelineView::setSpanMs(qint64 spanMs)
{
    m_spanMs = std::max<qint64>(1000, spanMs);
    update();
}

void ReconcileTimelineView::setPaused(bool paused)
{
    const bool open = !m_paused.isEmpty() && m_paused.last().endMs < 0;
    const qint64 now = nowMs();
    if (paused && !open)
        m_paused.append({now, -1});
    else if (!paused && open)
        m_paused.last().endMs = now;
    while (m_paused.size() > 200)
        m_paused.removeFirst();
    update();
}

qint64 ReconcileTimelineView::nowMs() const { return m_nowMs > 0 ? m_nowMs : QDateTime::currentMSecsSinceEpoch(); }

void ReconcileTimelineView::setNowMs(qint64 ms)
{
    m_nowMs = ms;
    update();
}

QList<int> ReconcileTimelineView::divergenceMarks() const
{
    QList<int> rows;
    for (const TimelineBar &b : currentLayout().bars)
        if (!m_model->divergenceAt(b.row).isEmpty())
            rows.append(b.row);
    return rows;
}

void ReconcileTimelineView::setSelectedRow(int row)
{
    m_selectedRow = row;
    update();
}

QList<TimelineItem> ReconcileTimelineView::items() const
{
    QList<TimelineItem> out;
    out.reserve(m_model->rowCount());
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const ReconcileTrace &t = m_model->traceAt(row);
        if (!m_keyFilter.isEmpty() && !t.request.toString().contains(m_keyFilter, Qt::CaseInsensitive))
            continue;
        TimelineItem i;
        i.row = row;
        i.key = t.request.toString();
        i.startMs = t.startedAt.toMSecsSinceEpoch();
        i.durationMs = std::chrono::duration_cast<std::chrono::milliseconds>(t.duration).count();
        i.result = t.result;
        out.append(i);
    }
    return out;
}

TimelineLayout ReconcileTimelineView::currentLayout() const
{
    TimelineGeometry g;
    g.size = size();
    const QFontMetricsF fm(font());
    g.labelAdvance = [fm](const QString &label) { return fm.horizontalAdvance(label); };
    g.axisHeight = fm.height() + 2;
    g.laneHeight = std::max<qreal>(LaneHeight, std::ceil(fm.height()) + 2);
    g.toMs = nowMs();
    g.spanMs = m_spanMs;
    return layoutTimeline(items(), m_mode, g, m_paused);
}

void ReconcileTimelineView::paintEvent(QPaintEvent *)
{
    const TimelineLayout l = currentLayout();
    if (int(l.lanes.size()) != m_laneCount) {
        m_laneCount = int(l.lanes.size());
        updateGeometry(); // grow (or shrink) with the lanes: the scroll area follows
    }
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    QColor pausedShade = resultColour(ResultColour::Paused);
    pausedShade.setAlpha(40);
    for (const QRectF &r : l.paused)
        p.fillRect(r, pausedShade);
    paintAxis(p, l);
    p.setPen(palette().text().color());
    const QFontMetrics fm = fontMetrics();
    for (qsizetype lane = 0; lane < l.lanes.size(); ++lane) {
        const qreal y = l.plot.top() + qreal(lane) * l.laneHeight;
        const QRectF label(2, y, l.plot.left() - 2, l.laneHeight);
        // The label column fits the widest label; only a view narrower than that elides.
        p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(l.lanes.at(lane), Qt::ElideMiddle, int(std::ceil(label.width()))));
    }
    for (const TimelineBar &b : l.bars)
        p.fillRect(b.rect, colourForResult(b.result));
    for (const TimelineBar &b : l.bars) { // a replay's divergence: a red triangle over the bar
        if (m_model->divergenceAt(b.row).isEmpty())
            continue;
        const qreal x = b.rect.center().x();
        const qreal top = b.rect.top();
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0xd0, 0x20, 0x20));
        p.drawPolygon(QPolygonF({QPointF(x - 4, top), QPointF(x + 4, top), QPointF(x, top + 6)}));
        p.setBrush(Qt::NoBrush);
    }
    for (const TimelineBar &b : l.bars) {
        if (b.row == m_selectedRow) {
            p.setPen(QPen(palette().highlight().color(), 2));
            p.drawRect(b.rect.adjusted(-1, -1, 1, 1));
        }
    }
}

void ReconcileTimelineView::paintAxis(QPainter &p, const TimelineLayout &l) const
{
    const qint64 span = l.toMs - l.fromMs;
    const qint64 step = span <= 15000 ? 1000 : span <= 60000 ? 5000 : span <= 300000 ? 30000 : 60000;
    p.setPen(palette().mid().color());
    for (qint64 t = l.toMs - (l.toMs % step); t >= l.fromMs; t -= step) {
        const qreal x = l.xOf(t);
        p.drawLine(QPointF(x, l.plot.top()), QPointF(x, l.plot.bottom()));
        const QString text = tr("-%1 s").arg((l.toMs - t) / 1000);
        p.drawText(QRectF(x - 40, 0, 80, l.plot.top()), Qt::AlignCenter, text);
    }
}

void ReconcileTimelineView::mousePressEvent(QMouseEvent *event)
{
    const int row = currentLayout().rowAt(event->position());
    if (row >= 0) {
        setSelectedRow(row);
        Q_EMIT rowClicked(row);
    }
    QWidget::mousePressEvent(event);
}

void ReconcileTimelineView::showEvent(QShowEvent *event)
{
    m_tick->start();
    QWidget::showEvent(event);
}

void ReconcileTimelineView::hideEvent(QHideEvent *event)
{
    m_tick->stop();
    QWidget::hideEvent(event);
}

QSize ReconcileTimelineView::sizeHint() const
{
    // Tall enough for every lane (the scroll area around it scrolls), at least five.
    const TimelineLayout l = currentLayout();
    const int lanes = int(std::max<qsizetype>(l.lanes.size(), 5));
    return {600, int(l.plot.top() + lanes * l.laneHeight) + 4};
}

QSize ReconcileTimelineView::minimumSizeHint() const
{
    // Every lane fits: in a resizable scroll area this is what makes it scroll, not clip.
    const TimelineLayout l = currentLayout();
    return {200, std::max(60, int(l.plot.top() + qreal(l.lanes.size()) * l.laneHeight) + 4)};
}

} // namespace opbench::ui
