// SPDX-License-Identifier: Apache-2.0
#pragma once
// Lease (coordination.k8s.io/v1): the leader-election record. Times are MicroTime.

#include "engine/api/kind.h"
#include "engine/api/objectview.h"

#include <QDateTime>

namespace opbench {

class Lease : public ObjectView
{
public:
    /// coordination.k8s.io/v1 Lease, "leases", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty coordination.k8s.io/v1 Lease.
    Lease()
        : ObjectView(QStringLiteral("coordination.k8s.io/v1"), QStringLiteral("Lease"))
    { }
    /// A new coordination.k8s.io/v1 Lease `name` in `namespaceName`.
    Lease(const QString &namespaceName, const QString &name);
    explicit Lease(const Object &object)
        : ObjectView(object)
    { }

    QString holderIdentity() const { return stringAt({"spec", "holderIdentity"}); }
    void setHolderIdentity(const QString &id) { setAt({"spec", "holderIdentity"}, id); }
    /// spec.leaseDurationSeconds (0 when absent).
    int leaseDurationSeconds() const { return int(intAt({"spec", "leaseDurationSeconds"})); }
    void setLeaseDurationSeconds(int s) { setAt({"spec", "leaseDurationSeconds"}, s); }
    /// Invalid QDateTime when absent or unparsable.
    QDateTime acquireTime() const;
    void setAcquireTime(const QDateTime &t);
    QDateTime renewTime() const;
    void setRenewTime(const QDateTime &t);
    int leaseTransitions() const { return int(intAt({"spec", "leaseTransitions"})); }
    void setLeaseTransitions(int n) { setAt({"spec", "leaseTransitions"}, n); }
};

} // namespace opbench
