// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/leaselock.h"

#include "engine/api/lease.h"
#include "engine/api/timeformat.h"
#include "engine/client/restclient.h"

namespace opbench {

namespace {
const GroupVersionResource kLeases{
    QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
} // namespace

bool LeaderElectionRecord::sameAs(const LeaderElectionRecord &o) const
{
    return holderIdentity == o.holderIdentity && leaseDurationSeconds == o.leaseDurationSeconds
        && formatMicroTime(acquireTime) == formatMicroTime(o.acquireTime)
        && formatMicroTime(renewTime) == formatMicroTime(o.renewTime) && leaseTransitions == o.leaseTransitions;
}

LeaderElectionRecord LeaderElectionRecord::fromLease(const Object &lease)
{
    const Lease l(lease);
    return {l.holderIdentity(), l.leaseDurationSeconds(), l.acquireTime(), l.renewTime(), l.leaseTransitions()};
}

Object LeaderElectionRecord::applyTo(const Object &lease, const LeaderElectionRecord &r)
{
    Lease l(lease);
    l.setHolderIdentity(r.holderIdentity);
    l.setLeaseDurationSeconds(r.leaseDurationSeconds);
    l.setAcquireTime(r.acquireTime);
    l.setRenewTime(r.renewTime);
    l.setLeaseTransitions(r.leaseTransitions);
    return l.toObject();
}

RestLeaseLock::RestLeaseLock(RestClient *client, QString namespaceName, QString name)
    : m_client(client)
    , m_namespace(std::move(namespaceName))
    , m_name(std::move(name))
{ }

QCoro::Task<Expected<LeaderElectionRecord>> RestLeaseLock::get()
{
    Expected<Object> got = co_await m_client->get(kLeases, m_namespace, m_name);
    if (!got)
        co_return got.error();
    m_lease = got.value();
    co_return LeaderElectionRecord::fromLease(m_lease);
}

QCoro::Task<Expected<void>> RestLeaseLock::create(LeaderElectionRecord record)
{
    Lease lease;
    lease.meta().setName(m_name);
    lease.meta().setNamespace(m_namespace);
    const Object obj = LeaderElectionRecord::applyTo(lease.toObject(), record);
    Expected<Object> created = co_await m_client->create(kLeases, m_namespace, obj);
    if (!created)
        co_return created.error();
    m_lease = created.value();
    co_return Expected<void>();
}

QCoro::Task<Expected<void>> RestLeaseLock::update(LeaderElectionRecord record)
{
    if (m_lease.isNull())
        co_return Status::transport(QString::fromLatin1(StatusReason::ConfigError),
            QStringLiteral("lease %1 not initialized: get or create it first").arg(describe()));
    const Object obj = LeaderElectionRecord::applyTo(m_lease, record);
    Expected<Object> updated = co_await m_client->update(kLeases, m_namespace, obj);
    if (!updated)
        co_return updated.error();
    m_lease = updated.value();
    co_return Expected<void>();
}

} // namespace opbench
