// SPDX-License-Identifier: Apache-2.0
#pragma once
// layoutTimeline() → TimelineLayout: where each reconcile's bar goes on the Reconciles panel's time axis. Pure
// geometry, no widgets: one lane per key or per concurrent worker slot, x from the start time,
// width from the duration (never thinner than MinBarWidth), plus the paused/stepping periods as
// shaded spans. The painted view (ui/widgets/reconciletimelineview) only draws what this returns.

#include "engine/controller/reconciletrace.h"

#include <QList>
#include <QRectF>
#include <QStringList>

#include <functional>

namespace opbench::ui {

/// One reconcile as the timeline needs it (built from a ReconcileListModel row).
struct TimelineItem
{
    int row = -1;       ///< the row in the ReconcileListModel
    QString key;        ///< "ns/name"
    qint64 startMs = 0; ///< wall clock, ms since the epoch
    qint64 durationMs = 0;
    ReconcileTrace::Result result = ReconcileTrace::Result::Success;
};

/// A period during which the controller was paused (endMs < 0: still paused).
struct TimelineSpan
{
    qint64 startMs = 0;
    qint64 endMs = -1;
};

enum class TimelineLanes {
    ByKey,    ///< one lane per key, sorted by key
    ByWorker, ///< one lane per concurrent reconcile (greedy: the first lane free at the start)
};

struct TimelineBar
{
    int row = -1; ///< the model row
    int lane = 0;
    ReconcileTrace::Result result = ReconcileTrace::Result::Success;
    QRectF rect; ///< in the view's coordinates
};

struct TimelineGeometry
{
    QSizeF size;           ///< the whole view
    qreal labelWidth = 90; ///< lane labels on the left
    qreal axisHeight = 16; ///< time axis on top
    qreal laneHeight = 14;
    /// When set, the label column is as wide as the widest lane label (plus a margin) so labels
    /// are never clipped, leaving at least minPlotWidth for the bars.
    std::function<qreal(const QString &)> labelAdvance;
    qreal minPlotWidth = 120;
    qint64 toMs = 0;       ///< right edge of the window (wall clock)
    qint64 spanMs = 30000; ///< width of the window in time
};

struct TimelineLayout
{
    static constexpr qreal MinBarWidth = 2;

    QStringList lanes;       ///< lane labels, top to bottom
    QList<TimelineBar> bars; ///< bars inside the window only
    QList<QRectF> paused;    ///< shaded paused periods (clipped to the plot)
    QRectF plot;             ///< where bars may go
    qreal laneHeight = 14;
    qint64 fromMs = 0;
    qint64 toMs = 0;

    /// The model row of the bar under `pos` (a 3 px tolerance), or -1. When bars overlap, the
    /// one that started last wins (it is drawn on top).
    int rowAt(QPointF pos) const;
    /// The x coordinate of wall-clock time `ms` (may fall outside the plot).
    qreal xOf(qint64 ms) const;
};

/// Lays out `items` (any order) in the window [g.toMs - g.spanMs, g.toMs]. Items ending before
/// the window or starting after it get no bar, but ByKey still gives their key a lane so lanes do
/// not jump while time passes. `paused` periods are shaded.
TimelineLayout layoutTimeline(const QList<TimelineItem> &items, TimelineLanes lanes, const TimelineGeometry &g,
    const QList<TimelineSpan> &paused = {});

} // namespace opbench::ui
