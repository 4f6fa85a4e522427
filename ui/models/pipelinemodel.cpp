// SPDX-License-Identifier: Apache-2.0
#include "ui/models/pipelinemodel.h"

#include <QLocale>

namespace opbench::ui {

namespace {

struct StageInfo
{
    const char *title;
    const char *dock;
    const char *explanation;
};

constexpr StageInfo Stages[PipelineModel::StageCount] = {
    {QT_TRANSLATE_NOOP("PipelineModel", "API server"), "faultsDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "Stores every object and gives each change a new resourceVersion; sends "
            "watch events to whoever watches. The Faults panel breaks it on purpose.")},
    {QT_TRANSLATE_NOOP("PipelineModel", "Reflector · watch"), "cacheDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "One LIST, then one long WATCH per kind: the events that reached the "
            "informers (adds, updates, deletes).")},
    {QT_TRANSLATE_NOOP("PipelineModel", "Cache · store"), "cacheDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "The informers' store, indexed by namespace: what every read of the "
            "reconciler sees. Eventually consistent: it lags the server a little.")},
    {QT_TRANSLATE_NOOP("PipelineModel", "Event handlers"), "queueDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "Turn each event into a key: For maps an object to its own key, Owns maps a "
            "child (Deployment) to its owner's key. Events become causes, not work items.")},
    {QT_TRANSLATE_NOOP("PipelineModel", "Work queue"), "queueDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "Keys waiting for a worker. A key already waiting is not added twice: its "
            "causes merge. Failed keys wait out a growing backoff first.")},
    {QT_TRANSLATE_NOOP("PipelineModel", "Workers"), "reconcilesDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "Take one key at a time from the queue; a key is never processed by two "
            "workers at once. Pause stops them taking new keys.")},
    {QT_TRANSLATE_NOOP("PipelineModel", "Reconciler"), "reconcilesDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "Reconcile(key): reads the whole desired and actual state and makes them "
            "agree. Level-triggered: it does not know which event woke it.")},
    {QT_TRANSLATE_NOOP("PipelineModel", "Client writes"), "childrenDock",
        QT_TRANSLATE_NOOP("PipelineModel",
            "Creates, updates and deletes sent back to the API server (reads come from "
            "the cache). Each write comes round again as a watch event.")},
};

bool isWrite(const TraceCall &c) { return c.verb != u"get" && c.verb != u"list"; }

QString number(qint64 n) { return QLocale().toString(n); }

} // namespace

PipelineModel::PipelineModel(QObject *parent)
    : QAbstractListModel(parent)
{
    m_shown = compute();
}

void PipelineModel::applyCache(const CacheBatch &batch)
{
    if (batch.informers.isEmpty())
        return;
    m_events = 0;
    m_objects = 0;
    m_synced = 0;
    m_relists = 0;
    m_watches = int(batch.informers.size());
    for (const InformerState &s : batch.informers) {
        m_events += s.events;
        m_relists += s.relists;
        m_objects += s.count;
        m_synced += s.synced ? 1 : 0;
        m_latestRv = std::max({m_latestRv, s.latestRv.toLongLong(), s.lastSyncRv.toLongLong()});
    }
}

void PipelineModel::applyQueue(const QueueSample &sample)
{
    m_queue = sample;
    m_queue.rows.clear(); // only the next ready time is needed
    m_nextReadyMs = -1;
    for (const QueueRow &r : sample.rows) {
        if (r.state == u"waiting" && r.readyInMs >= 0 && (m_nextReadyMs < 0 || r.readyInMs < m_nextReadyMs))
            m_nextReadyMs = r.readyInMs;
    }
}

void PipelineModel::applyControl(const ControlState &state) { m_control = state; }

void PipelineModel::applyReconciles(const QList<ReconcileTrace> &traces)
{
    for (const ReconcileTrace &t : traces) {
        ++m_reconciles;
        if (t.result == ReconcileTrace::Result::Error || t.result == ReconcileTrace::Result::TerminalError)
            ++m_failed;
        else if (t.result != ReconcileTrace::Result::Success)
            ++m_requeued;
        for (const TraceCall &c : t.calls) {
            if (isWrite(c)) {
                ++m_writes;
                m_conflicts += c.code == 409 ? 1 : 0;
            } else if (c.fromCache) {
                ++m_cacheReads;
            }
        }
    }
}

std::array<PipelineModel::Row, PipelineModel::StageCount> PipelineModel::compute() const
{
    std::array<Row, StageCount> r{};
    const qint64 handled = m_queue.causesFor + m_queue.causesOwns;
    r[ApiServer] = {m_latestRv, m_latestRv > 0 ? tr("rv %1").arg(m_latestRv) : QStringLiteral("–"),
        m_writes == 1 ? tr("1 write received from this controller")
                      : tr("%1 writes received from this controller").arg(number(m_writes)),
        State::Idle, m_events};
    QString reflectorDetail = tr("events · %1 watches · synced %2/%1").arg(m_watches).arg(m_synced);
    if (m_relists > 0) // the mark lesson 8 of the tour points at: a watch too old to resume
        reflectorDetail += tr(" · 410 → relist ×%1").arg(m_relists);
    r[Reflector]
        = {m_events, number(m_events), reflectorDetail, m_synced < m_watches ? State::Syncing : State::Idle, m_events};
    r[Cache] = {m_objects, number(m_objects), tr("objects, indexed by namespace · %1 kinds").arg(m_watches),
        m_synced < m_watches ? State::Syncing : State::Idle, m_events};
    r[Handlers] = {handled, number(handled),
        tr("causes · For %1 · Owns %2").arg(number(m_queue.causesFor), number(m_queue.causesOwns)), State::Idle,
        handled};
    const qint64 added = handled + m_queue.causesRequeue;
    QString queueDetail = tr("ready · %1 processing · %2 waiting").arg(m_queue.processing).arg(m_queue.waiting);
    State queueState = State::Idle;
    if (m_queue.waiting > 0) {
        queueState = State::Backoff;
        queueDetail = m_nextReadyMs >= 0 ? tr("ready · %1 waiting (backoff), next in %2 s")
                                               .arg(m_queue.waiting)
                                               .arg(double(m_nextReadyMs) / 1000.0, 0, 'f', 1)
                                         : tr("ready · %1 waiting (backoff)").arg(m_queue.waiting);
    }
    r[Queue] = {m_queue.depth, number(m_queue.depth), queueDetail, queueState, added};
    const bool halted = !m_control.pendingCalls.isEmpty();
    const int busy = std::max(m_queue.processing, m_control.activeWorkers);
    State workersState = State::Idle;
    QString workersDetail = tr("busy");
    if (halted) {
        workersState = State::Stepping;
        workersDetail = tr("busy · stepping one reconcile");
    } else if (m_control.paused) {
        workersState = State::Paused;
        workersDetail = tr("busy · paused: take no new keys");
    }
    r[Workers] = {busy, number(busy), workersDetail, workersState, m_reconciles};
    QString reconcilerDetail = tr("done · %1 requeued · %2 failed").arg(number(m_requeued), number(m_failed));
    if (halted)
        reconcilerDetail = tr("halted before %1").arg(m_control.pendingCalls.first());
    r[Reconciler]
        = {m_reconciles, number(m_reconciles), reconcilerDetail, halted ? State::Stepping : State::Idle, m_reconciles};
    r[ClientWrites] = {m_writes, number(m_writes),
        tr("writes · %1 reads from cache · %2 conflicts (409)").arg(number(m_cacheReads), number(m_conflicts)),
        State::Idle, m_writes};
    return r;
}

void PipelineModel::advance()
{
    std::array<Row, StageCount> next = compute();
    int first = -1;
    int last = -1;
    for (int i = 0; i < StageCount; ++i) {
        Row &n = next[size_t(i)];
        n.activity = std::max<qint64>(0, n.total - m_shown[size_t(i)].total);
        if (n.state == State::Idle && n.activity > 0)
            n.state = State::Active;
        if (!(n == m_shown[size_t(i)])) {
            first = first < 0 ? i : first;
            last = i;
        }
    }
    m_shown = next;
    if (first >= 0)
        Q_EMIT dataChanged(index(first), index(last));
}

int PipelineModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : StageCount; }

QVariant PipelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_shown[size_t(index.row())];
    const StageInfo &info = Stages[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return tr(info.title);
    case Qt::ToolTipRole:
        return tr("%1: %2 %3.\n%4\nClick to open the panel that shows it.")
            .arg(tr(info.title), r.countText, r.detail, tr(info.explanation));
    case CountRole:
        return r.count;
    case CountTextRole:
        return r.countText;
    case DetailRole:
        return r.detail;
    case StateRole:
        return int(r.state);
    case ActivityRole:
        return r.activity;
    case TotalRole:
        return r.total;
    case DockRole:
        return QString::fromLatin1(info.dock);
    default:
        return {};
    }
}

qint64 PipelineModel::count(Stage stage) const { return m_shown[size_t(stage)].count; }

QString PipelineModel::detail(Stage stage) const { return m_shown[size_t(stage)].detail; }

PipelineModel::State PipelineModel::state(Stage stage) const { return m_shown[size_t(stage)].state; }

qint64 PipelineModel::activity(Stage stage) const { return m_shown[size_t(stage)].activity; }

} // namespace opbench::ui
