// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/transform/partialmetadata.h"

#include <QJsonDocument>

namespace opbench::apiserver {

bool acceptsPartialMetadata(const QByteArray &accept)
{
    const qsizetype partial = accept.indexOf("as=PartialObjectMetadata");
    if (partial < 0)
        return false;
    const qsizetype table = accept.indexOf("as=Table");
    return table < 0 || partial < table;
}

QJsonObject partialObjectMetadata(const Object &object)
{
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata")},
        {QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1")},
        {QStringLiteral("metadata"), object.json().value(QLatin1String("metadata"))}};
}

QByteArray partialMetadataListHead(const QJsonObject &listMeta)
{
    return R"({"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":)"
        + QJsonDocument(listMeta).toJson(QJsonDocument::Compact) + R"(,"items":[)";
}

} // namespace opbench::apiserver
