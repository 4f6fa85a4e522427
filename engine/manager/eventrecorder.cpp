// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/eventrecorder.h"

#include "engine/api/event.h"
#include "engine/api/timeformat.h"
#include "engine/client/restclient.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

namespace opbench {

namespace {
const GroupVersionResource kEvents{QString(), QStringLiteral("v1"), QStringLiteral("events")};
constexpr int kBurst = 25;
constexpr double kRefillSeconds = 300;
constexpr int kCacheSize = 4096;

QString objectIdentity(const Object &o)
{
    return o.apiVersion() + u'/' + o.kind() + u'/' + o.namespaceName() + u'/' + o.name() + u'/' + o.uid();
}
} // namespace

EventRecorder::EventRecorder(RestClient *client, QString component, QString host, Clock *clock, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_component(std::move(component))
    , m_host(std::move(host))
    , m_clock(clock ? clock : Clock::system())
{ }

void EventRecorder::event(const Object &object, const QString &type, const QString &reason, const QString &message)
{
    record(object, type, reason, message); // eager task; the result is dropped
}

Recorder EventRecorder::recorder()
{
    return Recorder([self = QPointer<EventRecorder>(this)](
                        const Object &object, const QString &type, const QString &reason, const QString &message) {
        if (self)
            self->event(object, type, reason, message);
    });
}

bool EventRecorder::allow(const QString &key)
{
    const auto now = m_clock->now();
    auto it = m_buckets.find(key);
    if (it == m_buckets.end())
        it = m_buckets.insert(key, Bucket{double(kBurst), now});
    const double elapsed = std::chrono::duration<double>(now - it->last).count();
    it->tokens = std::min(double(kBurst), it->tokens + elapsed / kRefillSeconds);
    it->last = now;
    if (it->tokens < 1)
        return false;
    it->tokens -= 1;
    return true;
}

QCoro::Task<Expected<Object>> EventRecorder::record(Object object, QString type, QString reason, QString message)
{
    const QString source = m_component + u'/' + m_host;
    const QString objId = objectIdentity(object);
    if (!allow(source + u'|' + objId + u'|' + type)) {
        ++m_dropped;
        co_return Status::tooManyRequests(QStringLiteral("event dropped by the spam filter"), 0);
    }
    const QString key = source + u'|' + objId + u'|' + type + u'|' + reason + u'|' + message;
    const auto seen = m_seen.constFind(key);
    if (seen == m_seen.constEnd())
        co_return co_await post(object, type, reason, message, key);

    const Seen prior = *seen;
    QJsonObject patch{{QStringLiteral("count"), prior.count + 1},
        {QStringLiteral("lastTimestamp"), formatTimestamp(m_clock->wallNow())}};
    QPointer<EventRecorder> self(this);
    Expected<Object> patched = co_await m_client->patch(kEvents, prior.namespaceName, prior.eventName,
        PatchType::StrategicMerge, QJsonDocument(patch).toJson(QJsonDocument::Compact));
    if (!self)
        co_return Status::transport(
            QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("event recorder destroyed"));
    if (patched) {
        m_seen[key].count = prior.count + 1;
        co_return patched;
    }
    if (!isNotFound(patched.error()))
        co_return patched;
    m_seen.remove(key);
    co_return co_await post(object, type, reason, message, key);
}

QCoro::Task<Expected<Object>> EventRecorder::post(
    Object object, QString type, QString reason, QString message, QString key)
{
    const QDateTime now = m_clock->wallNow();
    // client-go names Events <object>.<UnixNano>; the wall clock has milliseconds here, so two
    // events of one recorder in the same millisecond get consecutive values (names stay unique).
    const qint64 nanos = std::max(now.toMSecsSinceEpoch() * 1000000, m_lastNanos + 1);
    m_lastNanos = nanos;
    const QString ns = object.namespaceName().isEmpty() ? QStringLiteral("default") : object.namespaceName();
    Event ev;
    ev.meta().setName(object.name() + u'.' + QString::number(nanos, 16));
    ev.meta().setNamespace(ns);
    ev.setInvolvedObject(ObjectReference::to(object));
    ev.setType(type);
    ev.setReason(reason);
    ev.setMessage(message);
    ev.setCount(1);
    ev.setFirstTimestamp(now);
    ev.setLastTimestamp(now);
    ev.setSourceComponent(m_component);
    if (!m_host.isEmpty())
        ev.setSourceHost(m_host);
    ev.setReportingComponent(m_component);
    ev.setReportingInstance(m_host);
    QPointer<EventRecorder> self(this);
    Expected<Object> created = co_await m_client->create(kEvents, ns, ev.toObject());
    if (!self)
        co_return Status::transport(
            QString::fromLatin1(StatusReason::Cancelled), QStringLiteral("event recorder destroyed"));
    if (created) {
        if (m_seen.size() >= kCacheSize)
            m_seen.clear();
        m_seen.insert(key, Seen{created->name(), ns, 1, formatTimestamp(now)});
    }
    co_return created;
}

} // namespace opbench
