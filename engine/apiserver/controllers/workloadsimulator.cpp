// SPDX-License-Identifier: Apache-2.0
// WorkloadSimulator: event routing, the ReplicaSet controller and the kubelet. The Deployment
// controller is in workloaddeployments.cpp.
#include "engine/apiserver/controllers/workloadsimulator.h"

#include "engine/apiserver/controllers/simulatorrules.h"
#include "engine/apiserver/storage/store.h"

#include <QJsonArray>
#include <QLoggingCategory>

#include <algorithm>

namespace opbench::apiserver {

Q_LOGGING_CATEGORY(lcSim, "opbench.apiserver.simulator")

namespace {

const GroupVersionResource kPods{QString(), QStringLiteral("v1"), QStringLiteral("pods")};
const GroupVersionResource kReplicaSets{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("replicasets")};

bool isResource(const GroupVersionResource &gvr, const char *group, const char *resource)
{
    return gvr.group == QLatin1String(group) && gvr.resource == QLatin1String(resource);
}

std::pair<QString, QString> splitKey(const QString &key)
{
    const qsizetype slash = key.indexOf(u'/');
    return {key.left(slash), key.mid(slash + 1)};
}

bool controlledBy(const Object &o, const QString &uid)
{
    const auto ref = o.controllerReference();
    return ref && ref->uid == uid;
}

// Pods to remove first when scaling down: not ready, then the newest.
bool deleteBefore(const WorkloadSimulator::PodInfo &a, const WorkloadSimulator::PodInfo &b)
{
    if (a.ready != b.ready)
        return !a.ready;
    if (a.pod.creationTimestamp() != b.pod.creationTimestamp())
        return a.pod.creationTimestamp() > b.pod.creationTimestamp();
    return a.pod.name() > b.pod.name();
}

WorkloadSimulator::PodInfo podInfo(const Store *store, const Object &pod)
{
    WorkloadSimulator::PodInfo info{pod, false, {}};
    info.ready = sim::podReady(store->jsonOf(pod), &info.readySince);
    return info;
}

// A pod for `rs` from its template: named <rs>-<5 chars>, controlled by the ReplicaSet.
QJsonObject podFor(const Object &rs, const QJsonObject &tmpl)
{
    const QJsonObject tmeta = tmpl.value(QLatin1String("metadata")).toObject();
    const QJsonObject owner{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("ReplicaSet")}, {QStringLiteral("name"), rs.name()},
        {QStringLiteral("uid"), rs.uid()}, {QStringLiteral("controller"), true},
        {QStringLiteral("blockOwnerDeletion"), true}};
    QJsonObject meta{{QStringLiteral("name"), rs.name() + u'-' + sim::randomSuffix()},
        {QStringLiteral("namespace"), rs.namespaceName()},
        {QStringLiteral("labels"), tmeta.value(QLatin1String("labels"))},
        {QStringLiteral("ownerReferences"), QJsonArray{owner}}};
    if (tmeta.contains(QLatin1String("annotations")))
        meta.insert(QStringLiteral("annotations"), tmeta.value(QLatin1String("annotations")));
    QJsonObject spec = tmpl.value(QLatin1String("spec")).toObject();
    spec.insert(QStringLiteral("nodeName"), QStringLiteral("opbench-node"));
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Pod")}, {QStringLiteral("metadata"), meta},
        {QStringLiteral("spec"), spec}};
}

} // namespace

WorkloadSimulator::WorkloadSimulator(
    Store *store, Clock *clock, std::chrono::milliseconds podReadyDelay, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_clock(clock)
    , m_readyDelay(podReadyDelay)
    , m_events(store, clock)
{
    connect(m_store, &Store::committed, this, &WorkloadSimulator::onCommitted);
}

WorkloadSimulator::~WorkloadSimulator()
{
    if (m_kubeletTimer)
        m_clock->cancel(m_kubeletTimer);
    for (const auto &d : std::as_const(m_deadlines))
        m_clock->cancel(d.first);
    for (const quint64 id : std::as_const(m_rsTimers))
        m_clock->cancel(id);
}

void WorkloadSimulator::resyncAll()
{
    for (const GroupVersionResource &gvr : m_store->populatedResources()) {
        const bool deploy = isResource(gvr, "apps", "deployments");
        const bool rs = isResource(gvr, "apps", "replicasets");
        const bool pod = isResource(gvr, "", "pods");
        if (!deploy && !rs && !pod)
            continue;
        const auto list = m_store->list(gvr);
        for (const Object &o : list ? list->items : QList<Object>())
            (deploy ? m_dirtyDeployments : rs ? m_dirtyReplicaSets : m_newPods).insert(o.key());
    }
    schedule();
}

void WorkloadSimulator::setEnabled(bool enabled)
{
    if (m_enabled == enabled)
        return;
    m_enabled = enabled;
    if (enabled)
        resyncAll();
}

void WorkloadSimulator::markOwner(const Object &o, const QString &kind)
{
    const auto ref = o.controllerReference();
    if (ref && ref->kind == kind) {
        const QString key = objectKey(o.namespaceName(), ref->name);
        const bool deployment = kind == QLatin1String("Deployment");
        if (!(deployment ? m_quietDeployments : m_quietReplicaSets).contains(key))
            (deployment ? m_dirtyDeployments : m_dirtyReplicaSets).insert(key);
    }
}

void WorkloadSimulator::onCommitted(const StoreEvent &event)
{
    if (!m_enabled)
        return;
    const Object &o = event.object;
    const bool deleted = event.type == EventType::Deleted;
    if (isResource(event.gvr, "apps", "deployments")) {
        if (deleted) {
            if (auto it = m_deadlines.find(o.key()); it != m_deadlines.end()) {
                m_clock->cancel(it->first);
                m_deadlines.erase(it);
            }
        } else if (!m_quietDeployments.contains(o.key())) {
            m_dirtyDeployments.insert(o.key());
        }
    } else if (isResource(event.gvr, "apps", "replicasets")) {
        if (deleted) {
            if (const quint64 id = m_rsTimers.take(o.key()))
                m_clock->cancel(id);
        } else if (!m_quietReplicaSets.contains(o.key()))
            m_dirtyReplicaSets.insert(o.key());
        markOwner(o, QStringLiteral("Deployment"));
    } else if (isResource(event.gvr, "", "pods")) {
        if (deleted)
            m_admitted.remove(o.uid());
        else if (!o.isBeingDeleted() && !m_admitted.contains(o.uid()))
            m_newPods.insert(o.key());
        markOwner(o, QStringLiteral("ReplicaSet"));
    } else {
        return;
    }
    schedule();
}

void WorkloadSimulator::schedule()
{
    if (m_scheduled || (m_dirtyDeployments.isEmpty() && m_dirtyReplicaSets.isEmpty() && m_newPods.isEmpty()))
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &WorkloadSimulator::processQueued, Qt::QueuedConnection);
}

void WorkloadSimulator::processQueued()
{
    m_scheduled = false;
    if (!m_enabled) {
        m_newPods.clear();
        m_dirtyReplicaSets.clear();
        m_dirtyDeployments.clear();
        return;
    }
    const QSet<QString> pods = std::exchange(m_newPods, {});
    const QSet<QString> replicaSets = std::exchange(m_dirtyReplicaSets, {});
    const QSet<QString> deployments = std::exchange(m_dirtyDeployments, {});
    for (const QString &key : pods)
        kubeletAdmit(key);
    // A mark made earlier in this pass for an object synced later in it is redundant.
    for (const QString &key : replicaSets) {
        m_dirtyReplicaSets.remove(key);
        syncReplicaSet(key);
    }
    for (const QString &key : deployments) {
        m_dirtyDeployments.remove(key);
        syncDeployment(key);
    }
    armKubelet();
    schedule(); // events caused by this pass
}

void WorkloadSimulator::syncReplicaSet(const QString &key)
{
    // Nested inside a Deployment sync the key is quiet already (and stays so until its end).
    const bool nested = m_quietReplicaSets.contains(key);
    m_quietReplicaSets.insert(key);
    syncReplicaSetQuietly(key);
    if (!nested)
        m_quietReplicaSets.remove(key);
}

void WorkloadSimulator::syncReplicaSetQuietly(const QString &key)
{
    const auto [ns, name] = splitKey(key);
    const Object rs = m_store->find({kReplicaSets, ns, name});
    if (rs.isNull() || rs.isBeingDeleted())
        return;
    const QJsonObject json = m_store->jsonOf(rs);
    const int desired = sim::desiredReplicas(json.value(QLatin1String("spec")).toObject());
    QList<PodInfo> pods = activePods(rs);
    if (pods.size() < desired)
        createPods(rs, json, desired - int(pods.size()), pods);
    if (pods.size() > desired)
        deleteExcessPods(rs, pods, desired);
    writeReplicaSetStatus(key, rs, json, pods);
}

QList<WorkloadSimulator::PodInfo> WorkloadSimulator::activePods(const Object &rs) const
{
    QList<PodInfo> pods;
    for (const ObjectRef &ref : m_store->dependentsOf(rs.uid())) {
        if (ref.gvr.resource != QLatin1String("pods"))
            continue;
        const Object p = m_store->find(ref);
        if (!p.isNull() && !p.isBeingDeleted() && controlledBy(p, rs.uid()))
            pods.append(podInfo(m_store, p));
    }
    return pods;
}

void WorkloadSimulator::createPods(const Object &rs, const QJsonObject &rsJson, int count, QList<PodInfo> &pods)
{
    const QJsonObject tmpl = rsJson.value(QLatin1String("spec")).toObject().value(QLatin1String("template")).toObject();
    for (int i = 0; i < count; ++i) {
        for (int attempt = 0; attempt < 3; ++attempt) {
            const auto created = m_store->create(kPods, rs.namespaceName(), podFor(rs, tmpl));
            if (created) {
                // The kubelet admits it at once: one pass, one ReplicaSet status write.
                m_newPods.remove(created->key());
                m_events.podCreated(rs, created->name());
                const Object admitted = admit(*created, tmpl.value(QLatin1String("spec")).toObject());
                pods.append(admitted.isNull() ? PodInfo{*created, false, {}} : podInfo(m_store, admitted));
                break;
            }
            if (!isAlreadyExists(created.error())) { // a name collision is retried with a new suffix
                qCWarning(lcSim) << "cannot create a pod for replicaset" << rs.name() << ":"
                                 << created.error().message();
                return;
            }
        }
    }
}

void WorkloadSimulator::deleteExcessPods(const Object &rs, QList<PodInfo> &pods, int desired)
{
    std::sort(pods.begin(), pods.end(), deleteBefore);
    while (pods.size() > desired) {
        const Object victim = pods.takeFirst().pod;
        DeleteOptions options;
        options.preconditionUid = victim.uid();
        if (m_store->remove(kPods, victim.namespaceName(), victim.name(), options))
            m_events.podDeleted(rs, victim.name());
    }
}

void WorkloadSimulator::writeReplicaSetStatus(
    const QString &key, const Object &rs, const QJsonObject &json, const QList<PodInfo> &pods)
{
    // available = ready for minReadySeconds; a wake-up re-examines pods that will be.
    const int minReady = json.value(QLatin1String("spec")).toObject().value(QLatin1String("minReadySeconds")).toInt();
    const QDateTime now = m_clock->wallNow();
    int ready = 0;
    int available = 0;
    QDateTime nextAvailable;
    for (const PodInfo &p : pods) {
        if (!p.ready)
            continue;
        const QDateTime since = p.readySince;
        ++ready;
        const QDateTime at = since.addSecs(minReady);
        if (minReady == 0 || !since.isValid() || at <= now)
            ++available;
        else if (!nextAvailable.isValid() || at < nextAvailable)
            nextAvailable = at;
    }
    if (nextAvailable.isValid() && !m_rsTimers.contains(key)) {
        const auto delay = std::chrono::milliseconds(std::max<qint64>(0, now.msecsTo(nextAvailable)) + 1);
        m_rsTimers.insert(key, m_clock->callAfter(delay, this, [this, key]() {
            m_rsTimers.remove(key);
            m_dirtyReplicaSets.insert(key);
            schedule();
        }));
    }
    const QJsonObject status = sim::replicaSetStatus(int(pods.size()), ready, available, rs.generation());
    if (status == json.value(QLatin1String("status")).toObject())
        return;
    QJsonObject next = json;
    next.insert(QStringLiteral("status"), status);
    const auto r = m_store->updateStatus(kReplicaSets, rs.namespaceName(), rs.name(), next);
    if (!r && isConflict(r.error()))
        m_dirtyReplicaSets.insert(key); // retried on the next pass
    else if (!r)
        qCWarning(lcSim) << "cannot write the status of replicaset" << key << ":" << r.error().message();
}

Object WorkloadSimulator::kubeletAdmit(const QString &key)
{
    const auto [ns, name] = splitKey(key);
    const Object pod = m_store->find({kPods, ns, name});
    if (pod.isNull() || pod.isBeingDeleted() || m_admitted.contains(pod.uid()))
        return {};
    m_admitted.insert(pod.uid());
    const QJsonObject json = m_store->jsonOf(pod);
    const QString phase = json.value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString();
    if (!phase.isEmpty() && phase != QLatin1String("Pending"))
        return {}; // already running (e.g. restored from a state file)
    return admit(pod, json.value(QLatin1String("spec")).toObject());
}

Object WorkloadSimulator::admit(const Object &pod, const QJsonObject &spec)
{
    m_admitted.insert(pod.uid());
    const QString now = sim::timestamp(m_clock->wallNow());
    const bool pullable = sim::podImagesPullable(spec);
    const bool immediate = pullable && m_readyDelay.count() == 0;
    // updateStatus takes only .status: no need to re-encode the whole pod.
    const QJsonObject body{{QStringLiteral("status"),
        immediate ? sim::podRunningStatus(spec, now, now, ++m_podCounter) : sim::podPendingStatus(spec, now)}};
    const auto r = m_store->updateStatus(kPods, pod.namespaceName(), pod.name(), body);
    if (!r)
        qCWarning(lcSim) << "cannot write the status of pod" << pod.key() << ":" << r.error().message();
    m_events.podScheduled(pod, QStringLiteral("opbench-node")); // the node podFor() assigns
    m_events.containersStarting(pod, spec, pullable);
    if (immediate)
        m_events.containersStarted(pod, spec);
    if (pullable && !immediate)
        m_due.emplace(m_clock->now() + m_readyDelay, Due{pod.namespaceName(), pod.name(), pod.uid()});
    return r ? *r : Object();
}

void WorkloadSimulator::kubeletWake()
{
    m_kubeletTimer = 0;
    const Clock::TimePoint now = m_clock->now();
    const QString stamp = sim::timestamp(m_clock->wallNow());
    while (!m_due.empty() && m_due.begin()->first <= now) {
        const Due due = m_due.begin()->second;
        m_due.erase(m_due.begin());
        const Object pod = m_store->find({kPods, due.ns, due.name});
        if (pod.isNull() || pod.uid() != due.uid || pod.isBeingDeleted())
            continue;
        QJsonObject json = m_store->jsonOf(pod);
        const QJsonObject spec = json.value(QLatin1String("spec")).toObject();
        const QString started
            = json.value(QLatin1String("status")).toObject().value(QLatin1String("startTime")).toString();
        json.insert(QStringLiteral("status"),
            sim::podRunningStatus(spec, stamp, started.isEmpty() ? stamp : started, ++m_podCounter));
        if (auto r = m_store->updateStatus(kPods, due.ns, due.name, json); !r)
            qCWarning(lcSim) << "cannot mark pod" << due.name << "ready:" << r.error().message();
        else
            m_events.containersStarted(pod, spec);
    }
    armKubelet();
}

void WorkloadSimulator::armKubelet()
{
    if (m_due.empty()) {
        if (m_kubeletTimer)
            m_clock->cancel(m_kubeletTimer);
        m_kubeletTimer = 0;
        return;
    }
    const Clock::TimePoint earliest = m_due.begin()->first;
    if (m_kubeletTimer && m_kubeletAt == earliest)
        return;
    if (m_kubeletTimer)
        m_clock->cancel(m_kubeletTimer);
    m_kubeletAt = earliest;
    m_kubeletTimer = m_clock->callAt(earliest, this, [this]() { kubeletWake(); });
}

} // namespace opbench::apiserver
