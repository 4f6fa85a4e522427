// SPDX-License-Identifier: Apache-2.0
// WorkloadSimulator: the Deployment controller (ReplicaSets, rollout, Deployment status).
#include "engine/apiserver/controllers/simulatorrules.h"
#include "engine/apiserver/controllers/workloadsimulator.h"
#include "engine/apiserver/storage/store.h"

#include <QJsonArray>
#include <QLoggingCategory>

#include <algorithm>

namespace opbench::apiserver {

Q_DECLARE_LOGGING_CATEGORY(lcSim)

using RsPlan = WorkloadSimulator::RsPlan;

namespace {

const GroupVersionResource kDeployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const GroupVersionResource kReplicaSets{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("replicasets")};

QJsonObject sub(const QJsonObject &o, const char *key) { return o.value(QLatin1String(key)).toObject(); }

// One decode of a ReplicaSet's counts (Object::json() parses the document each time).
RsPlan planFor(const Object &rs, const QJsonObject &json)
{
    const QJsonObject status = sub(json, "status");
    const int spec = sim::desiredReplicas(sub(json, "spec"));
    return RsPlan{rs, spec, spec, status.value(QLatin1String("replicas")).toInt(),
        status.value(QLatin1String("availableReplicas")).toInt()};
}

int revisionOf(const Object &rs) { return rs.annotations().value(QLatin1String(sim::kRevisionAnnotation)).toInt(); }

QJsonObject replicaSetFor(
    const Object &d, const QJsonObject &spec, const QString &hash, int replicas, int revision, int maxReplicas)
{
    QJsonObject tmpl = spec.value(QLatin1String("template")).toObject();
    QJsonObject tmeta = sub(tmpl, "metadata");
    QJsonObject labels = sub(tmeta, "labels");
    labels.insert(QLatin1String(sim::kPodTemplateHashLabel), hash);
    tmeta.insert(QStringLiteral("labels"), labels);
    tmpl.insert(QStringLiteral("metadata"), tmeta);
    QJsonObject selector = sub(spec, "selector");
    QJsonObject matchLabels = sub(selector, "matchLabels");
    matchLabels.insert(QLatin1String(sim::kPodTemplateHashLabel), hash);
    selector.insert(QStringLiteral("matchLabels"), matchLabels);
    QJsonObject rsSpec{{QStringLiteral("replicas"), replicas}, {QStringLiteral("selector"), selector},
        {QStringLiteral("template"), tmpl}};
    if (spec.contains(QLatin1String("minReadySeconds")))
        rsSpec.insert(QStringLiteral("minReadySeconds"), spec.value(QLatin1String("minReadySeconds")));
    const QJsonObject annotations{{QLatin1String(sim::kRevisionAnnotation), QString::number(revision)},
        {QLatin1String(sim::kDesiredReplicasAnnotation), QString::number(sim::desiredReplicas(spec))},
        {QLatin1String(sim::kMaxReplicasAnnotation), QString::number(maxReplicas)}};
    const QJsonObject owner{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")}, {QStringLiteral("name"), d.name()},
        {QStringLiteral("uid"), d.uid()}, {QStringLiteral("controller"), true},
        {QStringLiteral("blockOwnerDeletion"), true}};
    const QJsonObject meta{{QStringLiteral("name"), d.name() + u'-' + hash},
        {QStringLiteral("namespace"), d.namespaceName()}, {QStringLiteral("labels"), labels},
        {QStringLiteral("annotations"), annotations}, {QStringLiteral("ownerReferences"), QJsonArray{owner}}};
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("ReplicaSet")}, {QStringLiteral("metadata"), meta},
        {QStringLiteral("spec"), rsSpec}};
}

// Rolling update: how far to scale the new RS up, and the old ones down (the real controller's
// reconcileNewReplicaSet / cleanupUnhealthyReplicas / scaleDownOldReplicaSetsForRollingUpdate).
void planRolling(RsPlan &fresh, QList<RsPlan> &old, int desired, const sim::RolloutLimits &l)
{
    int oldTotal = 0;
    for (const RsPlan &p : std::as_const(old))
        oldTotal += p.replicas;
    if (fresh.replicas > desired) {
        fresh.replicas = desired;
    } else if (fresh.replicas < desired) {
        const int maxTotal = desired + l.maxSurge;
        const int current = oldTotal + fresh.replicas;
        if (current < maxTotal)
            fresh.replicas += std::min(maxTotal - current, desired - fresh.replicas);
    }
    const int minAvailable = desired - l.maxUnavailable;
    const int freshAvailable = fresh.rs.isNull() ? 0 : fresh.available;
    const int maxScaledDown = oldTotal + fresh.replicas - minAvailable - (fresh.replicas - freshAvailable);
    if (maxScaledDown <= 0 || oldTotal == 0)
        return;
    int budget = maxScaledDown;
    for (RsPlan &p : old) { // unhealthy replicas first
        const int unhealthy = p.replicas - p.available;
        const int cut = std::min(budget, std::max(0, unhealthy));
        p.replicas -= cut;
        budget -= cut;
    }
    int available = freshAvailable;
    for (const RsPlan &p : std::as_const(old))
        available += p.available;
    int scaleDown = available - minAvailable;
    for (RsPlan &p : old) {
        const int cut = std::min(p.replicas, std::max(0, scaleDown));
        p.replicas -= cut;
        scaleDown -= cut;
    }
}

void planRecreate(RsPlan &fresh, QList<RsPlan> &old, int desired)
{
    int oldPods = 0;
    for (RsPlan &p : old) {
        oldPods += p.replicas + p.statusReplicas;
        p.replicas = 0;
    }
    fresh.replicas = oldPods == 0 ? desired : 0;
}

// Sorts the Deployment's live ReplicaSets into the one matching its template and the old ones
// (oldest first); returns the highest revision among the old ones.
int collectReplicaSets(
    Store *store, const Object &d, const QJsonObject &bareTemplate, RsPlan &fresh, QList<RsPlan> &old)
{
    int maxOldRevision = 0;
    for (const ObjectRef &ref : store->dependentsOf(d.uid())) {
        const Object rs = ref.gvr.resource == QLatin1String("replicasets") ? store->find(ref) : Object();
        if (rs.isNull() || rs.isBeingDeleted() || !rs.controllerReference() || rs.controllerReference()->uid != d.uid())
            continue;
        const QJsonObject json = store->jsonOf(rs);
        if (fresh.rs.isNull() && sim::templateWithoutHash(sub(sub(json, "spec"), "template")) == bareTemplate) {
            fresh = planFor(rs, json);
        } else {
            old.append(planFor(rs, json));
            maxOldRevision = std::max(maxOldRevision, revisionOf(rs));
        }
    }
    std::sort(old.begin(), old.end(), [](const RsPlan &a, const RsPlan &b) {
        return a.rs.creationTimestamp() != b.rs.creationTimestamp()
            ? a.rs.creationTimestamp() < b.rs.creationTimestamp()
            : a.rs.name() < b.rs.name();
    });
    return maxOldRevision;
}

// Deletes the oldest fully scaled-down old ReplicaSets beyond revisionHistoryLimit (their pods
// are gone already; the garbage collector would take any left).
void cleanupHistory(Store *store, const QList<RsPlan> &old, int limit)
{
    QList<Object> idle;
    for (const RsPlan &p : old) {
        if (p.replicas == 0 && p.statusReplicas == 0)
            idle.append(p.rs);
    }
    for (qsizetype i = 0; i + std::max(0, limit) < idle.size(); ++i) {
        DeleteOptions options;
        options.preconditionUid = idle.at(i).uid();
        (void)store->remove(kReplicaSets, idle.at(i).namespaceName(), idle.at(i).name(), options);
    }
}

} // namespace

void WorkloadSimulator::syncDeployment(const QString &key)
{
    m_quietDeployments.insert(key);
    const bool again = syncDeploymentQuietly(key);
    m_quietDeployments.remove(key);
    m_quietReplicaSets.clear();
    if (again) // a step of a rollout: the next one once this one's effects are seen
        m_dirtyDeployments.insert(key);
}

// Returns whether the Deployment needs another sync (ReplicaSets changed and the rollout is
// incomplete, or old ReplicaSets may be due for cleanup).
bool WorkloadSimulator::syncDeploymentQuietly(const QString &key)
{
    const qsizetype slash = key.indexOf(u'/');
    const QString ns = key.left(slash);
    const QString name = key.mid(slash + 1);
    const Object d = m_store->find({kDeployments, ns, name});
    if (d.isNull() || d.isBeingDeleted())
        return false;
    const QJsonObject spec = sub(m_store->jsonOf(d), "spec");
    const int desired = sim::desiredReplicas(spec);
    const sim::RolloutLimits limits = sim::rolloutLimits(spec, desired);
    const QJsonObject tmpl = spec.value(QLatin1String("template")).toObject();
    const QString hash = sim::podTemplateHash(tmpl);

    RsPlan fresh;
    QList<RsPlan> old;
    const int maxOldRevision = collectReplicaSets(m_store, d, sim::templateWithoutHash(tmpl), fresh, old);
    m_quietReplicaSets.insert(objectKey(ns, d.name() + u'-' + hash));
    for (const RsPlan &p : std::as_const(old))
        m_quietReplicaSets.insert(p.rs.key());
    if (!fresh.rs.isNull())
        m_quietReplicaSets.insert(fresh.rs.key());
    if (spec.value(QLatin1String("paused")).toBool()) {
        syncPaused(key, fresh, old, desired, limits);
        return false;
    }
    if (limits.recreate)
        planRecreate(fresh, old, desired);
    else
        planRolling(fresh, old, desired, limits);

    const int maxReplicas = desired + limits.maxSurge;
    const int revision
        = fresh.rs.isNull() || revisionOf(fresh.rs) <= maxOldRevision ? maxOldRevision + 1 : revisionOf(fresh.rs);
    bool createdNow = false;
    if (fresh.rs.isNull()) {
        const auto created
            = m_store->create(kReplicaSets, ns, replicaSetFor(d, spec, hash, fresh.replicas, revision, maxReplicas));
        if (!created) {
            qCWarning(lcSim) << "cannot create the replicaset of deployment" << key << ":" << created.error().message();
            return false;
        }
        fresh.rs = *created;
        createdNow = true;
        m_events.scaledReplicaSet(d, fresh.rs.name(), 0, fresh.replicas);
        m_quietReplicaSets.insert(fresh.rs.key());
    }
    // A created or rescaled ReplicaSet is synced at once (its events are quiet).
    bool changed = scaleReplicaSet(fresh.rs, fresh.replicas, desired, maxReplicas, revision) || createdNow;
    if (changed)
        syncReplicaSet(fresh.rs.key());
    for (const RsPlan &p : std::as_const(old)) {
        if (p.replicas != p.specReplicas && scaleReplicaSet(p.rs, p.replicas, desired, maxReplicas, std::nullopt)) {
            syncReplicaSet(p.rs.key());
            changed = true;
        }
    }
    const QJsonValue historyLimit = spec.value(QLatin1String("revisionHistoryLimit"));
    cleanupHistory(m_store, old, historyLimit.isDouble() ? historyLimit.toInt() : 10);
    writeDeploymentRevision(d, revision);
    const bool complete = writeDeploymentStatus(key, fresh.rs.name(), createdNow, limits.maxUnavailable, false);
    return changed && (!complete || !old.isEmpty()); // old ones: history cleanup once they are idle
}

void WorkloadSimulator::syncPaused(
    const QString &key, RsPlan &fresh, QList<RsPlan> &old, int desired, const sim::RolloutLimits &limits)
{
    // Paused: no new ReplicaSet, no rollout; a lone active ReplicaSet (or the newest) follows
    // spec.replicas. Several active ones (a paused rollout) are left as they are.
    QList<RsPlan *> active;
    for (RsPlan &p : old) {
        if (p.replicas > 0)
            active.append(&p);
    }
    if (!fresh.rs.isNull() && fresh.replicas > 0)
        active.append(&fresh);
    RsPlan *target = active.size() == 1 ? active.first() : nullptr;
    if (active.isEmpty())
        target = !fresh.rs.isNull() ? &fresh : (old.isEmpty() ? nullptr : &old.last());
    if (target && target->replicas != desired
        && scaleReplicaSet(target->rs, desired, desired, desired + limits.maxSurge, std::nullopt))
        syncReplicaSet(target->rs.key());
    writeDeploymentStatus(key, fresh.rs.name(), false, limits.maxUnavailable, true);
}

bool WorkloadSimulator::scaleReplicaSet(
    const Object &rs, int replicas, int desired, int maxReplicas, std::optional<int> revision)
{
    QJsonObject json = m_store->jsonOf(m_store->find({kReplicaSets, rs.namespaceName(), rs.name()}));
    if (json.isEmpty())
        return false;
    const QJsonObject before = json;
    QJsonObject spec = sub(json, "spec");
    const int previous = spec.value(QLatin1String("replicas")).toInt(1);
    spec.insert(QStringLiteral("replicas"), replicas);
    json.insert(QStringLiteral("spec"), spec);
    QJsonObject meta = sub(json, "metadata");
    QJsonObject annotations = sub(meta, "annotations");
    annotations.insert(QLatin1String(sim::kDesiredReplicasAnnotation), QString::number(desired));
    annotations.insert(QLatin1String(sim::kMaxReplicasAnnotation), QString::number(maxReplicas));
    if (revision)
        annotations.insert(QLatin1String(sim::kRevisionAnnotation), QString::number(*revision));
    meta.insert(QStringLiteral("annotations"), annotations);
    json.insert(QStringLiteral("metadata"), meta);
    if (json == before)
        return false;
    const auto r = m_store->update(kReplicaSets, rs.namespaceName(), rs.name(), json);
    if (!r)
        qCWarning(lcSim) << "cannot scale replicaset" << rs.name() << ":" << r.error().message();
    else if (const auto owner = rs.controllerReference(); owner && owner->kind == QLatin1String("Deployment"))
        m_events.scaledReplicaSet(
            m_store->find({kDeployments, rs.namespaceName(), owner->name}), rs.name(), previous, replicas);
    return r.ok();
}

void WorkloadSimulator::writeDeploymentRevision(const Object &d, int revision)
{
    const QString value = QString::number(revision);
    if (d.annotations().value(QLatin1String(sim::kRevisionAnnotation)) == value)
        return;
    QJsonObject json = m_store->jsonOf(m_store->find({kDeployments, d.namespaceName(), d.name()}));
    QJsonObject meta = sub(json, "metadata");
    QJsonObject annotations = sub(meta, "annotations");
    annotations.insert(QLatin1String(sim::kRevisionAnnotation), value);
    meta.insert(QStringLiteral("annotations"), annotations);
    json.insert(QStringLiteral("metadata"), meta);
    if (auto r = m_store->update(kDeployments, d.namespaceName(), d.name(), json); !r)
        qCWarning(lcSim) << "cannot annotate deployment" << d.name() << ":" << r.error().message();
}

bool WorkloadSimulator::writeDeploymentStatus(
    const QString &key, const QString &newRs, bool createdNow, int maxUnavailable, bool paused)
{
    const qsizetype slash = key.indexOf(u'/');
    const Object d = m_store->find({kDeployments, key.left(slash), key.mid(slash + 1)});
    if (d.isNull())
        return true;
    QJsonObject json = m_store->jsonOf(d);
    const QJsonObject spec = sub(json, "spec");
    sim::DeploymentObservation obs;
    obs.generation = d.generation();
    obs.desired = sim::desiredReplicas(spec);
    obs.maxUnavailable = maxUnavailable;
    obs.newReplicaSet = newRs;
    obs.createdNow = createdNow;
    obs.paused = paused;
    obs.progressDeadlineSeconds = spec.value(QLatin1String("progressDeadlineSeconds")).toInt(600);
    obs.now = m_clock->wallNow();
    for (const ObjectRef &ref : m_store->dependentsOf(d.uid())) {
        const Object rs = ref.gvr.resource == QLatin1String("replicasets") ? m_store->find(ref) : Object();
        if (rs.isNull() || !rs.controllerReference() || rs.controllerReference()->uid != d.uid())
            continue;
        const QJsonObject rsJson = m_store->jsonOf(rs);
        const QJsonObject status = sub(rsJson, "status");
        obs.replicas += status.value(QLatin1String("replicas")).toInt();
        obs.specReplicas += sim::desiredReplicas(sub(rsJson, "spec"));
        obs.ready += status.value(QLatin1String("readyReplicas")).toInt();
        obs.available += status.value(QLatin1String("availableReplicas")).toInt();
        if (rs.name() == newRs)
            obs.updated = status.value(QLatin1String("replicas")).toInt();
    }
    const QJsonObject old = sub(json, "status");
    const QJsonObject next = sim::nextDeploymentStatus(old, obs);
    if (next != old) {
        json.insert(QStringLiteral("status"), next);
        const auto r = m_store->updateStatus(kDeployments, d.namespaceName(), d.name(), json);
        if (!r) {
            qCWarning(lcSim) << "cannot write the status of deployment" << key << ":" << r.error().message();
            return false;
        }
    }
    armDeadline(key, sim::progressDeadline(next, obs.progressDeadlineSeconds));
    return obs.updated == obs.desired && obs.replicas == obs.desired && obs.available == obs.desired;
}

void WorkloadSimulator::armDeadline(const QString &key, const QDateTime &at)
{
    auto it = m_deadlines.find(key);
    if (it != m_deadlines.end()) {
        if (at.isValid() && it->second == at)
            return;
        m_clock->cancel(it->first);
        m_deadlines.erase(it);
    }
    if (!at.isValid())
        return;
    const auto delay = std::chrono::milliseconds(std::max<qint64>(0, m_clock->wallNow().msecsTo(at)));
    const quint64 id = m_clock->callAfter(delay, this, [this, key]() {
        m_deadlines.remove(key);
        m_dirtyDeployments.insert(key);
        schedule();
    });
    m_deadlines.insert(key, {id, at});
}

} // namespace opbench::apiserver
