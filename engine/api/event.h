// SPDX-License-Identifier: Apache-2.0
#pragma once
// Event (core/v1): what the event recorder writes and the GUI lists.

#include "engine/api/kind.h"
#include "engine/api/objectview.h"

#include <QDateTime>

namespace opbench {

/// core/v1 ObjectReference (Event.involvedObject).
struct ObjectReference
{
    QString apiVersion;
    QString kind;
    QString namespaceName;
    QString name;
    QString uid;
    QString resourceVersion;
    QString fieldPath;

    /// A reference to `object` (apiVersion, kind, namespace, name, uid, resourceVersion).
    static ObjectReference to(const Object &object);
    QJsonObject toJson() const;
    static ObjectReference fromJson(const QJsonObject &o);
    friend bool operator==(const ObjectReference &, const ObjectReference &) = default;
};

class Event : public ObjectView
{
public:
    /// v1 Event, "events", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty v1 Event.
    Event()
        : ObjectView(QStringLiteral("v1"), QStringLiteral("Event"))
    { }
    /// A new v1 Event `name` in `namespaceName`.
    Event(const QString &namespaceName, const QString &name);
    explicit Event(const Object &object)
        : ObjectView(object)
    { }

    ObjectReference involvedObject() const { return ObjectReference::fromJson(at({"involvedObject"}).toObject()); }
    void setInvolvedObject(const ObjectReference &ref) { setAt({"involvedObject"}, ref.toJson()); }
    QString reason() const { return stringAt({"reason"}); }
    void setReason(const QString &r) { setAt({"reason"}, r); }
    QString message() const { return stringAt({"message"}); }
    void setMessage(const QString &m) { setAt({"message"}, m); }
    /// "Normal" or "Warning".
    QString type() const { return stringAt({"type"}); }
    void setType(const QString &t) { setAt({"type"}, t); }
    /// count (1 when absent: a single occurrence).
    int count() const { return int(intAt({"count"}, 1)); }
    void setCount(int n) { setAt({"count"}, n); }
    QDateTime firstTimestamp() const;
    void setFirstTimestamp(const QDateTime &t);
    QDateTime lastTimestamp() const;
    void setLastTimestamp(const QDateTime &t);
    /// eventTime (MicroTime).
    QDateTime eventTime() const;
    void setEventTime(const QDateTime &t);
    QString sourceComponent() const { return stringAt({"source", "component"}); }
    void setSourceComponent(const QString &c) { setAt({"source", "component"}, c); }
    QString sourceHost() const { return stringAt({"source", "host"}); }
    void setSourceHost(const QString &h) { setAt({"source", "host"}, h); }
    QString reportingComponent() const { return stringAt({"reportingComponent"}); }
    void setReportingComponent(const QString &c) { setAt({"reportingComponent"}, c); }
    QString reportingInstance() const { return stringAt({"reportingInstance"}); }
    void setReportingInstance(const QString &i) { setAt({"reportingInstance"}, i); }
    QString action() const { return stringAt({"action"}); }
    void setAction(const QString &a) { setAt({"action"}, a); }
};

} // namespace opbench
