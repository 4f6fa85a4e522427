// SPDX-License-Identifier: Apache-2.0
#include "engine/api/crdmapping.h"

#include "engine/api/status.h"
#include "engine/api/yamlcodec.h"

#include <QFile>
#include <QJsonArray>

namespace opbench {

namespace {

Status fieldError(const QString &where, const QString &field, const QString &what)
{
    return Status::badRequest(QStringLiteral("%1: %2: %3").arg(where, field, what));
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out.append(s.toString());
    return out;
}

} // namespace

Expected<QList<ResourceMapping>> crdMappings(const QJsonObject &crd, const QString &where)
{
    const QString kind = crd.value(QLatin1String("kind")).toString();
    if (kind != QLatin1String("CustomResourceDefinition"))
        return fieldError(
            where, QStringLiteral("kind"), QStringLiteral("expected CustomResourceDefinition, got \"%1\"").arg(kind));
    const QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
    const QString group = spec.value(QLatin1String("group")).toString();
    if (group.isEmpty())
        return fieldError(where, QStringLiteral("spec.group"), QStringLiteral("required"));
    const QJsonObject names = spec.value(QLatin1String("names")).toObject();
    ResourceMapping base;
    base.kind = names.value(QLatin1String("kind")).toString();
    base.gvr.group = group;
    base.gvr.resource = names.value(QLatin1String("plural")).toString();
    if (base.kind.isEmpty())
        return fieldError(where, QStringLiteral("spec.names.kind"), QStringLiteral("required"));
    if (base.gvr.resource.isEmpty())
        return fieldError(where, QStringLiteral("spec.names.plural"), QStringLiteral("required"));
    base.listKind = names.value(QLatin1String("listKind")).toString();
    base.singular = names.value(QLatin1String("singular")).toString();
    base.shortNames = strings(names.value(QLatin1String("shortNames")));
    base.categories = strings(names.value(QLatin1String("categories")));
    const QString scope = spec.value(QLatin1String("scope")).toString();
    if (scope != QLatin1String("Namespaced") && scope != QLatin1String("Cluster"))
        return fieldError(where, QStringLiteral("spec.scope"),
            QStringLiteral("must be Namespaced or Cluster, got \"%1\"").arg(scope));
    base.namespaced = scope == QLatin1String("Namespaced");

    QList<ResourceMapping> out;
    const QJsonArray versions = spec.value(QLatin1String("versions")).toArray();
    for (qsizetype i = 0; i < versions.size(); ++i) {
        const QJsonObject v = versions.at(i).toObject();
        const QString name = v.value(QLatin1String("name")).toString();
        if (name.isEmpty())
            return fieldError(where, QStringLiteral("spec.versions[%1].name").arg(i), QStringLiteral("required"));
        if (!v.value(QLatin1String("served")).toBool())
            continue;
        ResourceMapping m = base;
        m.gvr.version = name;
        const QJsonObject sub = v.value(QLatin1String("subresources")).toObject();
        for (const char *s : {"status", "scale"})
            if (sub.contains(QLatin1String(s)))
                m.subresources.append(QLatin1String(s));
        if (v.value(QLatin1String("storage")).toBool())
            out.prepend(m);
        else
            out.append(m);
    }
    if (out.isEmpty())
        return fieldError(where, QStringLiteral("spec.versions"), QStringLiteral("no served version"));
    return out;
}

Expected<QList<ResourceMapping>> crdMappings(const QByteArray &yaml, const QString &source)
{
    auto docs = yamlToJson(yaml);
    if (!docs)
        return Status::badRequest(QStringLiteral("%1: %2").arg(source, docs.error().message()));
    if (docs->isEmpty())
        return Status::badRequest(QStringLiteral("%1: no CustomResourceDefinition in it").arg(source));
    QList<ResourceMapping> out;
    for (qsizetype i = 0; i < docs->size(); ++i) {
        const QString where = docs->size() == 1 ? source : QStringLiteral("%1: document %2").arg(source).arg(i + 1);
        auto one = crdMappings(docs->at(i), where);
        if (!one)
            return one.error();
        out.append(*one);
    }
    return out;
}

Expected<QList<ResourceMapping>> crdMappingsFromFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Status::badRequest(QStringLiteral("cannot read the CRD file %1: %2").arg(path, f.errorString()));
    return crdMappings(f.readAll(), path);
}

} // namespace opbench
