// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/controllers/simulatorrules.h"

#include "engine/base/recentlybuilt.h"

#include <QCborMap>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <cmath>
#include <tuple>
#include <utility>

namespace opbench::apiserver::sim {

namespace {

const char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
constexpr int kAlphabetSize = sizeof(kAlphabet) - 1;

QJsonObject condition(
    const QString &type, bool status, const QString &reason, const QString &message, const QString &now)
{
    // Every pod gets the same few within a second: the last ones built are shared (per thread).
    thread_local RecentlyBuilt<std::tuple<QString, bool, QString, QString, QString>, QJsonObject> recent;
    return recent.get(std::tuple(type, status, reason, message, now), [&] {
        QJsonObject c{{QStringLiteral("type"), type},
            {QStringLiteral("status"), status ? QStringLiteral("True") : QStringLiteral("False")},
            {QStringLiteral("lastProbeTime"), QJsonValue::Null}, {QStringLiteral("lastTransitionTime"), now}};
        if (!reason.isEmpty())
            c.insert(QStringLiteral("reason"), reason);
        if (!message.isEmpty())
            c.insert(QStringLiteral("message"), message);
        return c;
    });
}

QJsonArray containerStatuses(
    const QJsonObject &podSpec, const std::function<QJsonObject(const QJsonObject &)> &forContainer)
{
    QJsonArray out;
    for (const QJsonValue &c : podSpec.value(QLatin1String("containers")).toArray())
        out.append(forContainer(c.toObject()));
    return out;
}

QStringList containerNames(const QJsonObject &podSpec)
{
    QStringList names;
    for (const QJsonValue &c : podSpec.value(QLatin1String("containers")).toArray())
        names << c.toObject().value(QLatin1String("name")).toString();
    return names;
}

// Deployment conditions by type, in the fixed order [Available, Progressing].
struct Conditions
{
    QJsonObject available;
    QJsonObject progressing;

    // SetDeploymentCondition: same status and reason → unchanged; same status → keep the
    // transition time.
    static void set(QJsonObject &slot, bool status, const QString &type, const QString &reason, const QString &message,
        const QString &now)
    {
        const QString st = status ? QStringLiteral("True") : QStringLiteral("False");
        if (slot.value(QLatin1String("status")).toString() == st
            && slot.value(QLatin1String("reason")).toString() == reason)
            return;
        QString transition = now;
        if (slot.value(QLatin1String("status")).toString() == st)
            transition = slot.value(QLatin1String("lastTransitionTime")).toString();
        slot = QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("status"), st},
            {QStringLiteral("reason"), reason}, {QStringLiteral("message"), message},
            {QStringLiteral("lastUpdateTime"), now}, {QStringLiteral("lastTransitionTime"), transition}};
    }
};

bool timedOut(const QJsonObject &cond, int deadlineSeconds, const QDateTime &now)
{
    const QString reason = cond.value(QLatin1String("reason")).toString();
    if (cond.isEmpty() || reason == QLatin1String("NewReplicaSetAvailable"))
        return false;
    if (reason == QLatin1String("ProgressDeadlineExceeded"))
        return true;
    const QDateTime from = QDateTime::fromString(cond.value(QLatin1String("lastUpdateTime")).toString(), Qt::ISODate);
    return from.isValid() && now > from.addSecs(deadlineSeconds);
}

int count(const QJsonObject &status, const char *key) { return status.value(QLatin1String(key)).toInt(); }

// The Progressing condition after a sync (the real controller's getNewReplicaSet and
// syncRolloutStatus): created / found, then complete, progressing, or timed out.
void updateProgressing(QJsonObject &cond, const QJsonObject &old, const DeploymentObservation &obs, const QString &now)
{
    const QString rs = obs.newReplicaSet;
    const QString type = QStringLiteral("Progressing");
    const QString reason = cond.value(QLatin1String("reason")).toString();
    const auto unknown = [&](const QString &why, const QString &message) {
        cond = QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("status"), QStringLiteral("Unknown")},
            {QStringLiteral("reason"), why}, {QStringLiteral("message"), message},
            {QStringLiteral("lastUpdateTime"), now}, {QStringLiteral("lastTransitionTime"), now}};
    };
    if (obs.paused) { // no rollout while paused (checkPausedConditions)
        if (reason != QLatin1String("DeploymentPaused"))
            unknown(QStringLiteral("DeploymentPaused"), QStringLiteral("Deployment is paused"));
        return;
    }
    if (reason == QLatin1String("DeploymentPaused"))
        unknown(QStringLiteral("DeploymentResumed"), QStringLiteral("Deployment is resumed"));
    if (obs.createdNow)
        Conditions::set(cond, true, type, QStringLiteral("NewReplicaSetCreated"),
            QStringLiteral("Created new replica set \"%1\"").arg(rs), now);
    else if (!rs.isEmpty() && cond.isEmpty())
        Conditions::set(cond, true, type, QStringLiteral("FoundNewReplicaSet"),
            QStringLiteral("Found new replica set \"%1\"").arg(rs), now);
    const bool alreadyComplete = obs.replicas == obs.updated
        && cond.value(QLatin1String("reason")).toString() == QLatin1String("NewReplicaSetAvailable");
    if (alreadyComplete || rs.isEmpty())
        return;
    const bool complete = obs.updated == obs.desired && obs.replicas == obs.desired && obs.available == obs.desired;
    const bool progress = obs.updated > count(old, "updatedReplicas")
        || (obs.replicas - obs.updated) < (count(old, "replicas") - count(old, "updatedReplicas"))
        || obs.ready > count(old, "readyReplicas") || obs.available > count(old, "availableReplicas");
    if (complete) {
        Conditions::set(cond, true, type, QStringLiteral("NewReplicaSetAvailable"),
            QStringLiteral("ReplicaSet \"%1\" has successfully progressed.").arg(rs), now);
    } else if (progress) {
        // Progress refreshes lastUpdateTime even with the same reason (a special case upstream).
        const bool wasTrue = cond.value(QLatin1String("status")).toString() == QLatin1String("True");
        const QString transition = wasTrue ? cond.value(QLatin1String("lastTransitionTime")).toString() : now;
        cond = QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("status"), QStringLiteral("True")},
            {QStringLiteral("reason"), QStringLiteral("ReplicaSetUpdated")},
            {QStringLiteral("message"), QStringLiteral("ReplicaSet \"%1\" is progressing.").arg(rs)},
            {QStringLiteral("lastUpdateTime"), now}, {QStringLiteral("lastTransitionTime"), transition}};
    } else if (timedOut(cond, obs.progressDeadlineSeconds, obs.now)) {
        Conditions::set(cond, false, type, QStringLiteral("ProgressDeadlineExceeded"),
            QStringLiteral("ReplicaSet \"%1\" has timed out progressing.").arg(rs), now);
    }
}

} // namespace

QString timestamp(const QDateTime &t) { return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ")); }

QJsonObject templateWithoutHash(QJsonObject podTemplate)
{
    QJsonObject meta = podTemplate.value(QLatin1String("metadata")).toObject();
    QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    labels.remove(QLatin1String(kPodTemplateHashLabel));
    meta.insert(QStringLiteral("labels"), labels);
    podTemplate.insert(QStringLiteral("metadata"), meta);
    return podTemplate;
}

QString podTemplateHash(const QJsonObject &podTemplate)
{
    const QByteArray bytes = QJsonDocument(templateWithoutHash(podTemplate)).toJson(QJsonDocument::Compact);
    quint32 h = 2166136261u;
    for (const char c : bytes) {
        h ^= static_cast<quint8>(c);
        h *= 16777619u;
    }
    QString out;
    for (const QChar d : QString::number(h))
        out += QLatin1Char(kAlphabet[d.unicode() % kAlphabetSize]);
    return out;
}

QString randomSuffix()
{
    QString s;
    for (int i = 0; i < 5; ++i)
        s += QLatin1Char(kAlphabet[QRandomGenerator::global()->bounded(kAlphabetSize)]);
    return s;
}

bool imagePullable(const QString &image)
{
    QString ref = image.section(u'@', 0, 0);
    QString tag;
    const qsizetype colon = ref.lastIndexOf(u':');
    if (colon > ref.lastIndexOf(u'/')) {
        tag = ref.mid(colon + 1);
        ref.truncate(colon);
    }
    return tag != QLatin1String("bad") && !ref.contains(QLatin1String("does-not-exist"));
}

bool podImagesPullable(const QJsonObject &podSpec, QString *badImage)
{
    for (const char *list : {"initContainers", "containers"}) {
        for (const QJsonValue &c : podSpec.value(QLatin1String(list)).toArray()) {
            const QString image = c.toObject().value(QLatin1String("image")).toString();
            if (!imagePullable(image)) {
                if (badImage)
                    *badImage = image;
                return false;
            }
        }
    }
    return true;
}

int intOrPercent(const QJsonValue &v, int total, bool roundUp, int fallback)
{
    if (v.isDouble())
        return std::max(0, v.toInt());
    if (!v.isString())
        return fallback;
    QString s = v.toString();
    if (!s.endsWith(u'%'))
        return std::max(0, s.toInt());
    s.chop(1);
    const double scaled = s.toDouble() * total / 100.0;
    return std::max(0, static_cast<int>(roundUp ? std::ceil(scaled) : std::floor(scaled)));
}

RolloutLimits rolloutLimits(const QJsonObject &deploymentSpec, int replicas)
{
    const QJsonObject strategy = deploymentSpec.value(QLatin1String("strategy")).toObject();
    RolloutLimits l;
    if (strategy.value(QLatin1String("type")).toString() == QLatin1String("Recreate")) {
        l.recreate = true;
        return l;
    }
    const QJsonObject ru = strategy.value(QLatin1String("rollingUpdate")).toObject();
    l.maxSurge = intOrPercent(
        ru.value(QLatin1String("maxSurge")), replicas, true, intOrPercent(QStringLiteral("25%"), replicas, true, 0));
    l.maxUnavailable = intOrPercent(ru.value(QLatin1String("maxUnavailable")), replicas, false,
        intOrPercent(QStringLiteral("25%"), replicas, false, 0));
    if (l.maxSurge == 0 && l.maxUnavailable == 0)
        l.maxUnavailable = 1;
    return l;
}

int desiredReplicas(const QJsonObject &spec)
{
    const QJsonValue r = spec.value(QLatin1String("replicas"));
    return r.isDouble() ? std::max(0, r.toInt()) : 1;
}

QJsonObject podPendingStatus(const QJsonObject &podSpec, const QString &now, const QString &startTime)
{
    const QString names = containerNames(podSpec).join(u' ');
    const QString notReady = QStringLiteral("containers with unready status: [%1]").arg(names);
    const QJsonArray statuses = containerStatuses(podSpec, [](const QJsonObject &c) {
        const QString image = c.value(QLatin1String("image")).toString();
        QJsonObject waiting{{QStringLiteral("reason"), QStringLiteral("ContainerCreating")}};
        if (!imagePullable(image))
            waiting = QJsonObject{{QStringLiteral("reason"), QStringLiteral("ImagePullBackOff")},
                {QStringLiteral("message"), QStringLiteral("Back-off pulling image \"%1\"").arg(image)}};
        return QJsonObject{{QStringLiteral("name"), c.value(QLatin1String("name"))}, {QStringLiteral("image"), image},
            {QStringLiteral("imageID"), QString()}, {QStringLiteral("ready"), false},
            {QStringLiteral("started"), false}, {QStringLiteral("restartCount"), 0},
            {QStringLiteral("state"), QJsonObject{{QStringLiteral("waiting"), waiting}}}};
    });
    return QJsonObject{{QStringLiteral("phase"), QStringLiteral("Pending")},
        {QStringLiteral("conditions"),
            QJsonArray{condition(QStringLiteral("Initialized"), true, {}, {}, now),
                condition(QStringLiteral("Ready"), false, QStringLiteral("ContainersNotReady"), notReady, now),
                condition(
                    QStringLiteral("ContainersReady"), false, QStringLiteral("ContainersNotReady"), notReady, now),
                condition(QStringLiteral("PodScheduled"), true, {}, {}, now)}},
        {QStringLiteral("hostIP"), QStringLiteral("10.0.0.1")},
        {QStringLiteral("startTime"), startTime.isEmpty() ? now : startTime},
        {QStringLiteral("qosClass"), QStringLiteral("BestEffort")}, {QStringLiteral("containerStatuses"), statuses}};
}

namespace {

/// A running container's status. The pods of a ReplicaSet have the same containers, ready within
/// the same second: the last ones built are shared (per thread). The container is compared as
/// CBOR, where an integer never equals a double (its hash prints them differently).
QJsonObject runningContainerStatus(const QJsonObject &c, const QString &now)
{
    thread_local RecentlyBuilt<std::pair<QCborMap, QString>, QJsonObject> recent;
    return recent.get(std::pair(QCborMap::fromJsonObject(c), now), [&] {
        const QString image = c.value(QLatin1String("image")).toString();
        QJsonObject json{{QStringLiteral("name"), c.value(QLatin1String("name"))}, {QStringLiteral("image"), image},
            {QStringLiteral("imageID"), image}, {QStringLiteral("ready"), true}, {QStringLiteral("started"), true},
            {QStringLiteral("restartCount"), 0},
            {QStringLiteral("containerID"), QStringLiteral("opbench://") + podTemplateHash(c)},
            {QStringLiteral("state"),
                QJsonObject{{QStringLiteral("running"), QJsonObject{{QStringLiteral("startedAt"), now}}}}}};
        return json;
    });
}

} // namespace

QJsonObject podRunningStatus(const QJsonObject &podSpec, const QString &now, const QString &startTime, int ipSuffix)
{
    const QJsonArray statuses
        = containerStatuses(podSpec, [&now](const QJsonObject &c) { return runningContainerStatus(c, now); });
    const QString ip = QStringLiteral("10.244.%1.%2").arg((ipSuffix / 250) % 250).arg(ipSuffix % 250 + 2);
    return QJsonObject{{QStringLiteral("phase"), QStringLiteral("Running")},
        {QStringLiteral("conditions"),
            QJsonArray{condition(QStringLiteral("Initialized"), true, {}, {}, startTime),
                condition(QStringLiteral("Ready"), true, {}, {}, now),
                condition(QStringLiteral("ContainersReady"), true, {}, {}, now),
                condition(QStringLiteral("PodScheduled"), true, {}, {}, startTime)}},
        {QStringLiteral("hostIP"), QStringLiteral("10.0.0.1")}, {QStringLiteral("podIP"), ip},
        {QStringLiteral("podIPs"), QJsonArray{QJsonObject{{QStringLiteral("ip"), ip}}}},
        {QStringLiteral("startTime"), startTime}, {QStringLiteral("qosClass"), QStringLiteral("BestEffort")},
        {QStringLiteral("containerStatuses"), statuses}};
}

bool podReady(const QJsonObject &pod, QDateTime *since)
{
    for (const QJsonValue &c :
        pod.value(QLatin1String("status")).toObject().value(QLatin1String("conditions")).toArray()) {
        const QJsonObject o = c.toObject();
        if (o.value(QLatin1String("type")).toString() != QLatin1String("Ready"))
            continue;
        if (since)
            *since = QDateTime::fromString(o.value(QLatin1String("lastTransitionTime")).toString(), Qt::ISODate);
        return o.value(QLatin1String("status")).toString() == QLatin1String("True");
    }
    return false;
}

QJsonObject replicaSetStatus(int replicas, int ready, int available, qint64 observedGeneration)
{
    QJsonObject status{
        {QStringLiteral("replicas"), replicas}, {QStringLiteral("observedGeneration"), observedGeneration}};
    if (replicas > 0)
        status.insert(QStringLiteral("fullyLabeledReplicas"), replicas);
    if (ready > 0)
        status.insert(QStringLiteral("readyReplicas"), ready);
    if (available > 0)
        status.insert(QStringLiteral("availableReplicas"), available);
    return status;
}

QJsonObject nextDeploymentStatus(const QJsonObject &old, const DeploymentObservation &obs)
{
    const QString now = timestamp(obs.now);
    QJsonObject st{{QStringLiteral("observedGeneration"), obs.generation}};
    const auto put = [&st](const char *key, int v) {
        if (v > 0)
            st.insert(QLatin1String(key), v);
    };
    put("replicas", obs.replicas);
    put("updatedReplicas", obs.updated);
    put("readyReplicas", obs.ready);
    put("availableReplicas", obs.available);
    put("unavailableReplicas", std::max(0, obs.specReplicas - obs.available));

    Conditions conds;
    for (const QJsonValue &c : old.value(QLatin1String("conditions")).toArray()) {
        const QString type = c.toObject().value(QLatin1String("type")).toString();
        if (type == QLatin1String("Available"))
            conds.available = c.toObject();
        else if (type == QLatin1String("Progressing"))
            conds.progressing = c.toObject();
    }
    const bool minAvailable = obs.available >= obs.desired - obs.maxUnavailable;
    Conditions::set(conds.available, minAvailable, QStringLiteral("Available"),
        minAvailable ? QStringLiteral("MinimumReplicasAvailable") : QStringLiteral("MinimumReplicasUnavailable"),
        minAvailable ? QStringLiteral("Deployment has minimum availability.")
                     : QStringLiteral("Deployment does not have minimum availability."),
        now);

    updateProgressing(conds.progressing, old, obs, now);
    QJsonArray list{conds.available};
    if (!conds.progressing.isEmpty())
        list.append(conds.progressing);
    st.insert(QStringLiteral("conditions"), list);
    return st;
}

QDateTime progressDeadline(const QJsonObject &status, int progressDeadlineSeconds)
{
    for (const QJsonValue &c : status.value(QLatin1String("conditions")).toArray()) {
        const QJsonObject o = c.toObject();
        if (o.value(QLatin1String("type")).toString() != QLatin1String("Progressing"))
            continue;
        const QString reason = o.value(QLatin1String("reason")).toString();
        if (o.value(QLatin1String("status")).toString() == QLatin1String("False")
            || reason == QLatin1String("NewReplicaSetAvailable") || reason == QLatin1String("DeploymentPaused"))
            return {};
        const QDateTime from = QDateTime::fromString(o.value(QLatin1String("lastUpdateTime")).toString(), Qt::ISODate);
        return from.isValid() ? from.addSecs(progressDeadlineSeconds + 1) : QDateTime();
    }
    return {};
}

} // namespace opbench::apiserver::sim
