// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcileTimelineView: the Reconciles panel's timeline. One bar per reconcile on a time axis
// (the last N seconds, following the newest), one lane per key or per worker, coloured by result
// (gui.md), paused periods shaded violet. As tall as its lanes (put it in a scroll area). Clicking a bar emits
// rowClicked() with the ReconcileListModel row. Geometry comes from layoutTimeline(); this class only paints.

#include "ui/models/reconciletimeline.h"

#include <QWidget>

class QTimer;

namespace opbench::ui {

class ReconcileListModel;

class ReconcileTimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit ReconcileTimelineView(ReconcileListModel *model, QWidget *parent = nullptr);

    void setLaneMode(TimelineLanes mode);
    /// Only reconciles whose key contains `text` (case-insensitive; "" for all), as the list's filter.
    void setKeyFilter(const QString &text);
    /// Window width in ms (default 30 s).
    void setSpanMs(qint64 spanMs);
    /// Records a pause starting or ending now (the Control state).
    void setPaused(bool paused);
    /// Highlights the bar of model row `row` (-1: none).
    void setSelectedRow(int row);
    /// A replay: the window's right edge is this wall-clock time (ms since the epoch) instead of
    /// now, so recorded reconciles show where they happened; 0 follows the clock again.
    void setNowMs(qint64 ms);
    /// The model rows of the bars marked as diverging from a recording, as last laid out.
    QList<int> divergenceMarks() const;
    /// The layout as last painted (or as it would be painted now).
    TimelineLayout currentLayout() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void rowClicked(int row);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QList<TimelineItem> items() const;
    qint64 nowMs() const;
    void paintAxis(QPainter &p, const TimelineLayout &l) const;

    ReconcileListModel *m_model;
    QTimer *m_tick;
    TimelineLanes m_mode = TimelineLanes::ByKey;
    qint64 m_spanMs = 30000;
    QList<TimelineSpan> m_paused;
    int m_selectedRow = -1;
    qint64 m_nowMs = 0; // a replay's "now" (0: the clock)
    QString m_keyFilter;
    int m_laneCount = 0; // as last laid out: the height asked for follows it
};

} // namespace opbench::ui
