// SPDX-License-Identifier: Apache-2.0
#pragma once
// LeaseLock: where the leader-election record lives. client-go's resourcelock.Interface
// restricted to the one lock kind Kubernetes still supports: a coordination.k8s.io/v1 Lease.
//
// get() reads the record and remembers the object it came from; update() writes a record as a
// compare-and-swap on that object's resourceVersion (409 Conflict when someone wrote in
// between). create() fails with 409 AlreadyExists when the lease appeared meanwhile.

#include "engine/api/expected.h"
#include "engine/api/object.h"

#include <QDateTime>
#include <QString>

#include <qcoro/qcorotask.h>

namespace opbench {

class RestClient;

/// The election record (spec of the Lease).
struct LeaderElectionRecord
{
    QString holderIdentity;
    int leaseDurationSeconds = 0;
    QDateTime acquireTime;
    QDateTime renewTime;
    int leaseTransitions = 0;

    /// Compares what is written on the wire (times at MicroTime precision).
    bool sameAs(const LeaderElectionRecord &o) const;
    static LeaderElectionRecord fromLease(const Object &lease);
    /// Writes the record into `lease` (a Lease object), keeping every other field.
    static Object applyTo(const Object &lease, const LeaderElectionRecord &record);
};

class LeaseLock
{
public:
    virtual ~LeaseLock() = default;
    /// The current record; a NotFound Status when the lease does not exist.
    virtual QCoro::Task<Expected<LeaderElectionRecord>> get() = 0;
    virtual QCoro::Task<Expected<void>> create(LeaderElectionRecord record) = 0;
    /// Compare-and-swap against the last object seen by get/create/update.
    virtual QCoro::Task<Expected<void>> update(LeaderElectionRecord record) = 0;
    /// "namespace/name", for logs and events.
    virtual QString describe() const = 0;
};

/// A Lease in an API server, through RestClient.
class RestLeaseLock final : public LeaseLock
{
public:
    /// `client` is not owned and must outlive the lock.
    RestLeaseLock(RestClient *client, QString namespaceName, QString name);
    QCoro::Task<Expected<LeaderElectionRecord>> get() override;
    QCoro::Task<Expected<void>> create(LeaderElectionRecord record) override;
    QCoro::Task<Expected<void>> update(LeaderElectionRecord record) override;
    QString describe() const override { return m_namespace + u'/' + m_name; }

private:
    RestClient *m_client;
    QString m_namespace;
    QString m_name;
    Object m_lease; // last object read or written (carries the resourceVersion)
};

} // namespace opbench
