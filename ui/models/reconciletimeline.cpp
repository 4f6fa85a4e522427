// SPDX-License-Identifier: Apache-2.0
#include "ui/models/reconciletimeline.h"

#include <QHash>
#include <QObject>

#include <algorithm>
#include <numeric>

namespace opbench::ui {

namespace {

/// Lane of each item (same order as `items`) and the lane labels.
QList<int> assignLanes(const QList<TimelineItem> &items, TimelineLanes mode, QStringList *labels)
{
    QList<int> lanes(items.size(), 0);
    if (mode == TimelineLanes::ByKey) {
        QStringList keys;
        for (const TimelineItem &i : items)
            keys.append(i.key);
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        QHash<QString, int> laneOf;
        for (qsizetype k = 0; k < keys.size(); ++k)
            laneOf.insert(keys.at(k), int(k));
        for (qsizetype i = 0; i < items.size(); ++i)
            lanes[i] = laneOf.value(items.at(i).key);
        *labels = keys;
        return lanes;
    }
    // ByWorker: in start order, the first lane whose last reconcile ended by then.
    QList<qsizetype> order(items.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
        [&items](qsizetype a, qsizetype b) { return items.at(a).startMs < items.at(b).startMs; });
    QList<qint64> freeAt;
    for (qsizetype i : order) {
        const TimelineItem &it = items.at(i);
        qsizetype lane = 0;
        while (lane < freeAt.size() && freeAt.at(lane) > it.startMs)
            ++lane;
        if (lane == freeAt.size())
            freeAt.append(0);
        freeAt[lane] = it.startMs + std::max<qint64>(it.durationMs, 0);
        lanes[i] = int(lane);
    }
    labels->clear();
    for (qsizetype l = 0; l < freeAt.size(); ++l)
        labels->append(QObject::tr("worker %1").arg(l + 1));
    return lanes;
}

} // namespace

qreal TimelineLayout::xOf(qint64 ms) const
{
    const qint64 span = std::max<qint64>(1, toMs - fromMs);
    return plot.left() + plot.width() * qreal(ms - fromMs) / qreal(span);
}

int TimelineLayout::rowAt(QPointF pos) const
{
    constexpr qreal Tolerance = 3;
    for (auto it = bars.crbegin(); it != bars.crend(); ++it) {
        if (it->rect.adjusted(-Tolerance, 0, Tolerance, 0).contains(pos))
            return it->row;
    }
    return -1;
}

TimelineLayout layoutTimeline(
    const QList<TimelineItem> &items, TimelineLanes mode, const TimelineGeometry &g, const QList<TimelineSpan> &paused)
{
    TimelineLayout out;
    out.toMs = g.toMs;
    out.fromMs = g.toMs - std::max<qint64>(1, g.spanMs);
    const QList<int> lanes = assignLanes(items, mode, &out.lanes);
    qreal labelWidth = g.labelWidth;
    if (g.labelAdvance) {
        qreal widest = 0;
        for (const QString &label : std::as_const(out.lanes))
            widest = std::max(widest, g.labelAdvance(label));
        labelWidth = std::max<qreal>(0, std::min(widest + 8, g.size.width() - g.minPlotWidth));
    }
    out.laneHeight = g.laneHeight;
    out.plot = QRectF(labelWidth, g.axisHeight, std::max<qreal>(1, g.size.width() - labelWidth),
        std::max<qreal>(1, g.size.height() - g.axisHeight));
    QList<qsizetype> order(items.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
        [&items](qsizetype a, qsizetype b) { return items.at(a).startMs < items.at(b).startMs; });
    for (qsizetype i : order) {
        const TimelineItem &it = items.at(i);
        const qint64 end = it.startMs + std::max<qint64>(it.durationMs, 0);
        if (end < out.fromMs || it.startMs > out.toMs)
            continue;
        const qreal left = std::max(out.plot.left(), out.xOf(it.startMs));
        const qreal right = std::min(out.plot.right(), out.xOf(end));
        const qreal top = out.plot.top() + lanes.at(i) * g.laneHeight + 1;
        TimelineBar bar;
        bar.row = it.row;
        bar.lane = lanes.at(i);
        bar.result = it.result;
        bar.rect = QRectF(left, top, std::max(TimelineLayout::MinBarWidth, right - left), g.laneHeight - 2);
        out.bars.append(bar);
    }
    for (const TimelineSpan &s : paused) {
        const qint64 end = s.endMs < 0 ? out.toMs : s.endMs;
        if (end < out.fromMs || s.startMs > out.toMs)
            continue;
        const qreal left = std::max(out.plot.left(), out.xOf(s.startMs));
        const qreal right = std::min(out.plot.right(), out.xOf(end));
        out.paused.append(QRectF(left, out.plot.top(), std::max<qreal>(1, right - left), out.plot.height()));
    }
    return out;
}

} // namespace opbench::ui
