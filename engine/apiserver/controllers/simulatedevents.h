// SPDX-License-Identifier: Apache-2.0
#pragma once
// SimulatedEvents: the core/v1 Events that the components the WorkloadSimulator plays would
// write in a real cluster (deployment-controller, replicaset-controller, default-scheduler,
// kubelet), with their reasons and messages, so `kubectl describe`, `kubectl events --for
// deployment/NAME` and the workbench show what a real cluster shows.
//
// Written through the Store like the simulator's other writes. Repeats of the same event (same
// object, reason and message) are aggregated as the real event recorder does: the stored Event's
// `count` and `lastTimestamp` go up instead of a new Event being written.

#include "engine/api/object.h"

#include <QHash>

namespace opbench {
class Clock;
}

namespace opbench::apiserver {

class Store;

class SimulatedEvents
{
public:
    enum class Type { Normal, Warning };

    /// `store` and `clock` must outlive this.
    SimulatedEvents(Store *store, Clock *clock);

    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool isEnabled() const { return m_enabled; }

    /// One event about `involved`, reported by `component` ("kubelet", "deployment-controller",
    /// ...). `fieldPath` names a container ("spec.containers{app}") for the kubelet's events.
    void record(const Object &involved, Type type, const QString &reason, const QString &message,
        const QString &component, const QString &fieldPath = {});

    // The components' events, worded as Kubernetes 1.3x words them.
    void scaledReplicaSet(const Object &deployment, const QString &replicaSet, int from, int to);
    void podCreated(const Object &replicaSet, const QString &pod);
    void podDeleted(const Object &replicaSet, const QString &pod);
    void podScheduled(const Object &pod, const QString &node);
    /// Pulling, then Pulled/Created/Started per container, or Failed/BackOff when `pullable` is false.
    void containersStarting(const Object &pod, const QJsonObject &podSpec, bool pullable);
    void containersStarted(const Object &pod, const QJsonObject &podSpec);

private:
    struct Aggregate
    {
        QString name;
        QString ns;
    };

    Store *m_store;
    Clock *m_clock;
    bool m_enabled = true;
    quint64 m_sequence = 0;
    QHash<QString, Aggregate> m_seen; // uid|reason|message -> the Event written for it
};

} // namespace opbench::apiserver
