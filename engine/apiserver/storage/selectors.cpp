// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/storage/selectors.h"

#include "engine/api/fieldselector.h"
#include "engine/api/labelselector.h"

#include <QJsonObject>

namespace opbench::apiserver {

namespace {

QString lookupPath(const QJsonObject &root, const QString &dotted)
{
    const QStringList parts = dotted.split(u'.');
    QJsonValue v = root;
    for (const QString &p : parts)
        v = v.toObject().value(p);
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toInteger());
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

/// events.k8s.io field names read the core/v1 storage fields.
QString storageField(const QString &field)
{
    if (field.startsWith(QLatin1String("regarding.")))
        return QStringLiteral("involvedObject.") + field.mid(10);
    return field;
}

} // namespace

QStringList selectableFields(const ResourceType &type)
{
    if (type.custom)
        return {};
    const QString r = type.gvr().resource;
    if (r == QLatin1String("pods")) {
        return {QStringLiteral("spec.nodeName"), QStringLiteral("spec.restartPolicy"),
            QStringLiteral("spec.schedulerName"), QStringLiteral("spec.serviceAccountName"),
            QStringLiteral("status.phase"), QStringLiteral("status.podIP"), QStringLiteral("status.nominatedNodeName")};
    }
    if (r == QLatin1String("events")) {
        const QString prefix
            = type.gvr().group.isEmpty() ? QStringLiteral("involvedObject.") : QStringLiteral("regarding.");
        QStringList out;
        for (const char *f : {"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"})
            out << prefix + QLatin1String(f);
        out << QStringLiteral("reason") << QStringLiteral("reportingComponent") << QStringLiteral("source")
            << QStringLiteral("type");
        return out;
    }
    if (r == QLatin1String("secrets"))
        return {QStringLiteral("type")};
    if (r == QLatin1String("namespaces"))
        return {QStringLiteral("status.phase")};
    if (r == QLatin1String("replicasets"))
        return {QStringLiteral("status.replicas")};
    return {};
}

Expected<ObjectFilter> makeFilter(const ResourceType &type, const QString &labelSelector, const QString &fieldSelector)
{
    auto labels = LabelSelector::parse(labelSelector.trimmed());
    if (!labels)
        return labels.error();
    auto fields = FieldSelector::parse(fieldSelector.trimmed());
    if (!fields)
        return fields.error();
    const QStringList extra = selectableFields(type);
    bool needsJson = false;
    for (const FieldRequirement &r : fields->requirements()) {
        const bool meta = r.field == QLatin1String("metadata.name")
            || (type.namespaced() && r.field == QLatin1String("metadata.namespace"));
        if (!meta && !extra.contains(r.field))
            return Status::badRequest(QStringLiteral("field label not supported: %1").arg(r.field));
        needsJson = needsJson || !meta;
    }
    if (labels->isEmpty() && fields->isEmpty())
        return ObjectFilter();
    const LabelSelector ls = *labels;
    const FieldSelector fs = *fields;
    return ObjectFilter([ls, fs, needsJson](const Object &o) {
        if (!ls.isEmpty() && !ls.matches(o.labels()))
            return false;
        if (fs.isEmpty())
            return true;
        const QJsonObject json = needsJson ? o.json() : QJsonObject();
        return fs.matches([&](const QString &field) -> std::optional<QString> {
            if (field == QLatin1String("metadata.name"))
                return o.name();
            if (field == QLatin1String("metadata.namespace"))
                return o.namespaceName();
            if (field == QLatin1String("source"))
                return lookupPath(json, QStringLiteral("source.component"));
            return lookupPath(json, storageField(field));
        });
    });
}

} // namespace opbench::apiserver
