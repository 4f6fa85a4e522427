// SPDX-License-Identifier: Apache-2.0
#pragma once
// PipelineModel: the controller's machinery as stages, one row each — API server → reflector
// (list + watch) → cache (store + indexes) → event handlers (For / Owns) → work queue → workers →
// reconciler → client writes (back to the API server) — with a count per stage, a line of
// detail, what it is doing (paused, stepping, backing off) and how much went through it since
// the previous advance().
//
// It aggregates what the engine already publishes (CacheBatch informer states, QueueSample,
// ControlState, reconcile traces). Applying is cheap and independent of the number of objects;
// views see the result only at advance() (the Pipeline panel calls it a few times a second), so
// 10,000 objects arriving at once move each count once instead of flooding the view.

#include "ui/session/snapshots.h"

#include "engine/controller/reconciletrace.h"

#include <QAbstractListModel>

#include <array>

namespace opbench::ui {

class PipelineModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Stage { ApiServer, Reflector, Cache, Handlers, Queue, Workers, Reconciler, ClientWrites, StageCount };
    Q_ENUM(Stage)
    /// What a stage is doing, as the panel marks it (gui.md colours).
    enum class State { Idle, Active, Paused, Stepping, Backoff, Syncing };
    Q_ENUM(State)
    enum Roles {
        CountRole = Qt::UserRole + 1, ///< qint64: the stage's main number
        CountTextRole,                ///< QString: that number as shown ("10,000")
        DetailRole,                   ///< QString: one line under the number
        StateRole,                    ///< int: State
        ActivityRole,                 ///< qint64: items through the stage since the previous advance()
        TotalRole,                    ///< qint64: items through the stage since the session started
        DockRole,                     ///< QString: objectName of the dock that shows the stage
    };

    explicit PipelineModel(QObject *parent = nullptr);

    void applyCache(const opbench::workbench::CacheBatch &batch);
    void applyQueue(const opbench::workbench::QueueSample &sample);
    void applyControl(const opbench::workbench::ControlState &state);
    void applyReconciles(const QList<opbench::ReconcileTrace> &traces);
    /// Publishes what was applied since the previous call (one dataChanged for the stages that
    /// changed) and measures each stage's activity over that interval.
    void advance();

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    /// Shorthands for data(index(stage), role).
    qint64 count(Stage stage) const;
    QString detail(Stage stage) const;
    State state(Stage stage) const;
    qint64 activity(Stage stage) const;

private:
    struct Row
    {
        qint64 count = 0;
        QString countText;
        QString detail;
        State state = State::Idle;
        qint64 total = 0;
        qint64 activity = 0;
        friend bool operator==(const Row &, const Row &) = default;
    };
    /// The stages as the live numbers say now.
    std::array<Row, StageCount> compute() const;

    // Live numbers, applied from snapshots.
    qint64 m_latestRv = 0;
    qint64 m_events = 0;
    int m_watches = 0;
    int m_synced = 0;
    qint64 m_relists = 0; ///< LISTs after the first, all informers ("410 → relist")
    qint64 m_objects = 0;
    QueueSample m_queue;
    qint64 m_nextReadyMs = -1;
    ControlState m_control;
    qint64 m_reconciles = 0;
    qint64 m_failed = 0;
    qint64 m_requeued = 0;
    qint64 m_writes = 0;
    qint64 m_cacheReads = 0;
    qint64 m_conflicts = 0;
    // Published.
    std::array<Row, StageCount> m_shown{};
};

} // namespace opbench::ui
