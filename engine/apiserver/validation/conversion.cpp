// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/validation/conversion.h"

#include "engine/apiserver/validation/schemavalidator.h"

namespace opbench::apiserver {

namespace {

struct Rename
{
    const char *core;
    const char *events;
};

// core/v1 Event field → events.k8s.io/v1 field.
const Rename kEventRenames[] = {
    {"involvedObject", "regarding"},
    {"message", "note"},
    {"firstTimestamp", "deprecatedFirstTimestamp"},
    {"lastTimestamp", "deprecatedLastTimestamp"},
    {"count", "deprecatedCount"},
    {"source", "deprecatedSource"},
    {"reportingComponent", "reportingController"},
};

bool isEventsApi(const ResourceType &type)
{
    return !type.custom && type.gvr().group == QLatin1String("events.k8s.io");
}

void move(QJsonObject &o, const char *from, const char *to)
{
    const QLatin1String f(from);
    if (!o.contains(f))
        return;
    o.insert(QLatin1String(to), o.value(f));
    o.remove(f);
}

} // namespace

bool needsConversion(const ResourceType &type) { return type.gvr() != type.storage; }

QJsonObject toServed(const ResourceType &type, const QJsonObject &stored)
{
    QJsonObject o = stored;
    o.insert(QLatin1String("apiVersion"), type.apiVersion());
    if (isEventsApi(type)) {
        for (const Rename &r : kEventRenames)
            move(o, r.core, r.events);
    }
    return o;
}

Object toServed(const ResourceType &type, const Object &stored)
{
    if (!needsConversion(type) || stored.isNull())
        return stored;
    if (type.custom && !type.schema.isEmpty() && stored.resourceVersion().toULongLong() <= type.schemaSince) {
        // written before this schema: its defaults apply on read, as when the real server
        // decodes an object from etcd
        QJsonObject o = SchemaValidator(type.schema).applyDefaults(stored.json());
        o.insert(QLatin1String("apiVersion"), type.apiVersion());
        return Object::fromJson(o);
    }
    if (type.custom && stored.apiVersion() == type.apiVersion())
        return stored; // written at the version asked for
    return Object::fromJson(toServed(type, stored.json()));
}

QJsonObject toStorage(const ResourceType &type, const QJsonObject &served)
{
    if (!needsConversion(type))
        return served;
    QJsonObject o = served;
    o.insert(QLatin1String("apiVersion"), type.storageApiVersion());
    if (isEventsApi(type)) {
        for (const Rename &r : kEventRenames)
            move(o, r.events, r.core);
    }
    return o;
}

} // namespace opbench::apiserver
