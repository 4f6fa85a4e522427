// SPDX-License-Identifier: Apache-2.0
#include "engine/client/partialobjectmetadata.h"

#include <QJsonObject>

namespace opbench {

namespace {
const QString MetaApiVersion = QStringLiteral("meta.k8s.io/v1");
const QString PartialKind = QStringLiteral("PartialObjectMetadata");

Object withTypeAndMetadata(const Object &o, const QString &apiVersion, const QString &kind)
{
    const QJsonObject json = o.json();
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), apiVersion}, {QStringLiteral("kind"), kind},
        {QStringLiteral("metadata"), json.value(QLatin1String("metadata")).toObject()}});
}
} // namespace

bool isPartialObjectMetadata(const Object &o) { return o.kind() == PartialKind && o.apiVersion() == MetaApiVersion; }

Object toPartialObjectMetadata(const Object &o)
{
    if (o.isNull() || isPartialObjectMetadata(o))
        return o;
    return withTypeAndMetadata(o, MetaApiVersion, PartialKind);
}

Object metadataOnlyAs(const Object &o, const QString &apiVersion, const QString &kind)
{
    if (o.isNull())
        return o;
    return withTypeAndMetadata(o, apiVersion, kind);
}

Status metadataNotAcceptable(const Status &error, const QString &what)
{
    if (error.code() != 406)
        return error;
    return Status(error.code(), error.reason(),
        QStringLiteral("%1: the server does not serve PartialObjectMetadata (metadata-only) nor JSON for it (406 "
                       "Not Acceptable): %2")
            .arg(what, error.message()),
        error.details());
}

} // namespace opbench
