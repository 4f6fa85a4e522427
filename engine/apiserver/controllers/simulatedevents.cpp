// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/controllers/simulatedevents.h"

#include "engine/apiserver/controllers/simulatorrules.h"
#include "engine/apiserver/storage/store.h"
#include "engine/base/clock.h"

#include <QJsonArray>
#include <QLoggingCategory>

namespace opbench::apiserver {

Q_LOGGING_CATEGORY(lcSimEvents, "opbench.apiserver.simulator.events")

namespace {

const GroupVersionResource kEvents{QString(), QStringLiteral("v1"), QStringLiteral("events")};
constexpr qsizetype kMaxRemembered = 4096; // aggregation memory, as the real recorder's LRU

QJsonObject reference(const Object &o, const QString &fieldPath)
{
    QJsonObject ref{{QStringLiteral("apiVersion"), o.apiVersion()}, {QStringLiteral("kind"), o.kind()},
        {QStringLiteral("name"), o.name()}, {QStringLiteral("uid"), o.uid()},
        {QStringLiteral("resourceVersion"), o.resourceVersion()}};
    if (!o.namespaceName().isEmpty())
        ref.insert(QStringLiteral("namespace"), o.namespaceName());
    if (!fieldPath.isEmpty())
        ref.insert(QStringLiteral("fieldPath"), fieldPath);
    return ref;
}

QList<QJsonObject> containersOf(const QJsonObject &podSpec)
{
    QList<QJsonObject> out;
    const QJsonArray containers = podSpec.value(QLatin1String("containers")).toArray();
    for (const auto &c : containers)
        out.append(c.toObject());
    return out;
}

QString containerPath(const QJsonObject &c)
{
    return QStringLiteral("spec.containers{%1}").arg(c.value(QLatin1String("name")).toString());
}

QString image(const QJsonObject &c) { return c.value(QLatin1String("image")).toString(); }

} // namespace

SimulatedEvents::SimulatedEvents(Store *store, Clock *clock)
    : m_store(store)
    , m_clock(clock)
{ }

void SimulatedEvents::record(const Object &involved, Type type, const QString &reason, const QString &message,
    const QString &component, const QString &fieldPath)
{
    if (!m_enabled || involved.isNull())
        return;
    const QString now = sim::timestamp(m_clock->wallNow());
    const QString seenKey = involved.uid() + u'|' + fieldPath + u'|' + reason + u'|' + message;
    if (const auto it = m_seen.constFind(seenKey); it != m_seen.constEnd()) {
        QJsonObject stored = m_store->find({kEvents, it->ns, it->name}).json();
        if (!stored.isEmpty()) { // aggregated: one Event, its count going up
            stored.insert(QStringLiteral("count"), stored.value(QLatin1String("count")).toInt(1) + 1);
            stored.insert(QStringLiteral("lastTimestamp"), now);
            if (m_store->update(kEvents, it->ns, it->name, stored))
                return;
        }
    }
    if (m_seen.size() >= kMaxRemembered)
        m_seen.clear();
    const QString ns = involved.namespaceName().isEmpty() ? QStringLiteral("default") : involved.namespaceName();
    // The real recorder's name: the object's name and the time in nanoseconds, in hex.
    const quint64 stamp = quint64(m_clock->wallNow().toMSecsSinceEpoch()) * 1000000ULL + (++m_sequence % 1000000ULL);
    const QString name = involved.name() + u'.' + QString::number(stamp, 16);
    QJsonObject source{{QStringLiteral("component"), component}};
    if (component == QLatin1String("kubelet"))
        source.insert(QStringLiteral("host"), QStringLiteral("opbench-node"));
    const QJsonObject event{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Event")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns}}},
        {QStringLiteral("involvedObject"), reference(involved, fieldPath)}, {QStringLiteral("reason"), reason},
        {QStringLiteral("message"), message}, {QStringLiteral("source"), source},
        {QStringLiteral("firstTimestamp"), now}, {QStringLiteral("lastTimestamp"), now}, {QStringLiteral("count"), 1},
        {QStringLiteral("type"), type == Type::Normal ? QStringLiteral("Normal") : QStringLiteral("Warning")},
        {QStringLiteral("eventTime"), QJsonValue::Null}, {QStringLiteral("reportingComponent"), component},
        {QStringLiteral("reportingInstance"),
            component == QLatin1String("kubelet") ? QStringLiteral("opbench-node") : QString()}};
    if (const auto created = m_store->create(kEvents, ns, event); created)
        m_seen.insert(seenKey, Aggregate{name, ns});
    else
        qCDebug(lcSimEvents) << "event" << reason << "about" << involved.key()
                             << "not written:" << created.error().message();
}

void SimulatedEvents::scaledReplicaSet(const Object &deployment, const QString &replicaSet, int from, int to)
{
    if (from == to)
        return;
    const QString verb = to > from ? QStringLiteral("up") : QStringLiteral("down");
    record(deployment, Type::Normal, QStringLiteral("ScalingReplicaSet"),
        QStringLiteral("Scaled %1 replica set %2 from %3 to %4").arg(verb, replicaSet).arg(from).arg(to),
        QStringLiteral("deployment-controller"));
}

void SimulatedEvents::podCreated(const Object &replicaSet, const QString &pod)
{
    record(replicaSet, Type::Normal, QStringLiteral("SuccessfulCreate"), QStringLiteral("Created pod: %1").arg(pod),
        QStringLiteral("replicaset-controller"));
}

void SimulatedEvents::podDeleted(const Object &replicaSet, const QString &pod)
{
    record(replicaSet, Type::Normal, QStringLiteral("SuccessfulDelete"), QStringLiteral("Deleted pod: %1").arg(pod),
        QStringLiteral("replicaset-controller"));
}

void SimulatedEvents::podScheduled(const Object &pod, const QString &node)
{
    record(pod, Type::Normal, QStringLiteral("Scheduled"),
        QStringLiteral("Successfully assigned %1/%2 to %3").arg(pod.namespaceName(), pod.name(), node),
        QStringLiteral("default-scheduler"));
}

void SimulatedEvents::containersStarting(const Object &pod, const QJsonObject &podSpec, bool pullable)
{
    const QString kubelet = QStringLiteral("kubelet");
    for (const QJsonObject &c : containersOf(podSpec)) {
        const QString path = containerPath(c);
        record(pod, Type::Normal, QStringLiteral("Pulling"), QStringLiteral("Pulling image \"%1\"").arg(image(c)),
            kubelet, path);
        if (pullable || sim::imagePullable(image(c)))
            continue;
        record(pod, Type::Warning, QStringLiteral("Failed"),
            QStringLiteral("Failed to pull image \"%1\": rpc error: code = NotFound desc = failed to pull and unpack "
                           "image \"%1\": not found")
                .arg(image(c)),
            kubelet, path);
        record(pod, Type::Warning, QStringLiteral("Failed"), QStringLiteral("Error: ErrImagePull"), kubelet, path);
        record(pod, Type::Normal, QStringLiteral("BackOff"),
            QStringLiteral("Back-off pulling image \"%1\"").arg(image(c)), kubelet, path);
        record(pod, Type::Warning, QStringLiteral("Failed"), QStringLiteral("Error: ImagePullBackOff"), kubelet, path);
    }
}

void SimulatedEvents::containersStarted(const Object &pod, const QJsonObject &podSpec)
{
    const QString kubelet = QStringLiteral("kubelet");
    for (const QJsonObject &c : containersOf(podSpec)) {
        const QString path = containerPath(c);
        const QString name = c.value(QLatin1String("name")).toString();
        record(pod, Type::Normal, QStringLiteral("Pulled"),
            QStringLiteral("Successfully pulled image \"%1\"").arg(image(c)), kubelet, path);
        record(pod, Type::Normal, QStringLiteral("Created"), QStringLiteral("Created container %1").arg(name), kubelet,
            path);
        record(pod, Type::Normal, QStringLiteral("Started"), QStringLiteral("Started container %1").arg(name), kubelet,
            path);
    }
}

} // namespace opbench::apiserver
