// SPDX-License-Identifier: Apache-2.0
#include "engine/api/typed/crdfiles.h"

#include "engine/api/typed/crdgen.h"
#include "engine/api/yamlcodec.h"

#include <QRegularExpression>

namespace opbench {

Expected<QList<CrdFile>> crdFiles(const QByteArray &yamlStream)
{
    const Expected<QList<QJsonObject>> docs = yamlToJson(yamlStream);
    if (!docs)
        return docs.error();
    static const QRegularExpression plainName(QStringLiteral("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"));
    QList<CrdFile> out;
    for (qsizetype i = 0; i < docs->size(); ++i) {
        const QJsonObject &doc = docs->at(i);
        const QString kind = doc.value(QLatin1String("kind")).toString();
        const QString name = doc.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        if (kind != QLatin1String("CustomResourceDefinition"))
            return Status::badRequest(
                QStringLiteral("document %1: expected a CustomResourceDefinition, got kind \"%2\"")
                    .arg(i + 1)
                    .arg(kind));
        if (!plainName.match(name).hasMatch())
            return Status::badRequest(
                QStringLiteral("document %1: metadata.name \"%2\" is not a CRD name (plural.group)")
                    .arg(i + 1)
                    .arg(name));
        out.append(CrdFile(name + QLatin1String(".yaml"), crdYaml(doc)));
    }
    return out;
}

} // namespace opbench
