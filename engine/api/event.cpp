// SPDX-License-Identifier: Apache-2.0
#include "engine/api/event.h"

#include "engine/api/timeformat.h"

namespace opbench {

const KindInfo &Event::kindInfo()
{
    static const KindInfo info(
        GroupVersionKind(QString(), QStringLiteral("v1"), QStringLiteral("Event")), QStringLiteral("events"));
    return info;
}

Event::Event(const QString &namespaceName, const QString &name)
    : Event()
{
    meta().setNamespace(namespaceName);
    meta().setName(name);
}

ObjectReference ObjectReference::to(const Object &object)
{
    return {object.apiVersion(), object.kind(), object.namespaceName(), object.name(), object.uid(),
        object.resourceVersion(), {}};
}

QJsonObject ObjectReference::toJson() const
{
    QJsonObject o;
    auto put = [&o](const char *k, const QString &v) {
        if (!v.isEmpty())
            o.insert(QLatin1String(k), v);
    };
    put("apiVersion", apiVersion);
    put("kind", kind);
    put("namespace", namespaceName);
    put("name", name);
    put("uid", uid);
    put("resourceVersion", resourceVersion);
    put("fieldPath", fieldPath);
    return o;
}

ObjectReference ObjectReference::fromJson(const QJsonObject &o)
{
    auto s = [&o](const char *k) { return o.value(QLatin1String(k)).toString(); };
    return {s("apiVersion"), s("kind"), s("namespace"), s("name"), s("uid"), s("resourceVersion"), s("fieldPath")};
}

namespace {
QJsonValue timeValue(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text);
}
} // namespace

QDateTime Event::firstTimestamp() const { return parseTimestamp(stringAt({"firstTimestamp"})); }
void Event::setFirstTimestamp(const QDateTime &t) { setAt({"firstTimestamp"}, timeValue(formatTimestamp(t))); }
QDateTime Event::lastTimestamp() const { return parseTimestamp(stringAt({"lastTimestamp"})); }
void Event::setLastTimestamp(const QDateTime &t) { setAt({"lastTimestamp"}, timeValue(formatTimestamp(t))); }
QDateTime Event::eventTime() const { return parseMicroTime(stringAt({"eventTime"})); }
void Event::setEventTime(const QDateTime &t) { setAt({"eventTime"}, timeValue(formatMicroTime(t))); }

} // namespace opbench
