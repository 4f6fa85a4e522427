// SPDX-License-Identifier: Apache-2.0
#pragma once
// Tour: the guided tour of the controller pattern. Ten short lessons, each one a thing the
// learner does in the window and then sees; a lesson completes when the engine's own events show
// that it happened (not when a button is pressed). Pure logic on the snapshots the window already
// receives — the UI feeds them in and shows state(); nothing here touches a widget.
//
//   Tour tour;
//   connect(session->cacheFeed(), &CacheFeed::batch, &tour, &Tour::observeCache);  // … and the rest
//   tour.start();                    // stateChanged() follows each step

#include "engine/workbench/leadershipstate.h"
#include "engine/workbench/snapshots.h"

#include "engine/controller/reconciletrace.h"

#include <QHash>
#include <QObject>

#include <functional>

namespace opbench::workbench {

/// One lesson as the Tour panel shows it.
struct TourLesson
{
    QString id;     ///< "sync", "follow-key", …
    QString title;  ///< "The informer syncs the cache"
    QString task;   ///< what to do, in the window's words
    QString lesson; ///< the controller-runtime concept and the detail people get wrong
    QString panel;  ///< objectName of the dock that shows it (highlighted)
};

struct TourState
{
    int index = -1; ///< the current lesson; -1: not started
    int count = 0;
    bool done = false; ///< the current lesson's action was observed
    bool finished = false;
    TourLesson lesson;
    QStringList completed; ///< ids of the lessons completed so far
};

class Tour : public QObject
{
    Q_OBJECT
public:
    explicit Tour(QObject *parent = nullptr);

    static QList<TourLesson> lessons();
    const TourState &state() const { return m_state; }

public Q_SLOTS:
    /// Starts (or resumes at `index`) the tour.
    void start(int index = 0);
    /// The next lesson (allowed before the current one is done: the learner may skip).
    void next();
    void back();
    void stop();

    // The engine's events, as the window receives them.
    void observeCache(const opbench::workbench::CacheBatch &batch);
    void observeTraces(const QList<opbench::ReconcileTrace> &traces);
    void observeControl(const opbench::workbench::ControlState &state);
    void observeQueue(const opbench::workbench::QueueSample &sample);
    void observeLeadership(const opbench::workbench::LeadershipState &state);
    void observeTimeTravel(const opbench::workbench::CachePast &past);

Q_SIGNALS:
    void stateChanged(const opbench::workbench::TourState &state);

private:
    void enter(int index);
    void complete();
    const QString &currentId() const { return m_state.lesson.id; }

    TourState m_state;
    QList<TourLesson> m_lessons;
    // What each lesson waits for, observed since it started.
    bool m_paused = false;
    QHash<QString, QString> m_syncRvAtStart; // informer kind -> lastSyncRv when the lesson began
    bool m_sawHandedOff = false;
    bool m_sawBackoff = false;
};

} // namespace opbench::workbench

Q_DECLARE_METATYPE(opbench::workbench::TourState)
