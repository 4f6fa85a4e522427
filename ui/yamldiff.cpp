// SPDX-License-Identifier: Apache-2.0
#include "ui/yamldiff.h"

#include "ui/linediff.h"

#include "engine/api/yamlcodec.h"

namespace opbench::ui {

QJsonObject withoutNoise(QJsonObject object)
{
    const QString metadataKey = QStringLiteral("metadata");
    const QString statusKey = QStringLiteral("status");
    if (object.contains(metadataKey)) {
        QJsonObject metadata = object.value(metadataKey).toObject();
        metadata.remove(QStringLiteral("resourceVersion"));
        metadata.remove(QStringLiteral("managedFields"));
        metadata.remove(QStringLiteral("generation"));
        object.insert(metadataKey, metadata);
    }
    if (object.value(statusKey).isObject()) {
        QJsonObject status = object.value(statusKey).toObject();
        status.remove(QStringLiteral("observedGeneration"));
        object.insert(statusKey, status);
    }
    return object;
}

QString objectYaml(const QJsonObject &object, bool hideNoise)
{
    if (object.isEmpty())
        return {};
    return QString::fromUtf8(jsonToYaml(hideNoise ? withoutNoise(object) : object));
}

QStringList yamlDiff(const QJsonObject &before, const QJsonObject &after, bool hideNoise, int context)
{
    auto lines = [hideNoise](const QJsonObject &o) {
        QString yaml = objectYaml(o, hideNoise);
        if (yaml.endsWith(u'\n'))
            yaml.chop(1);
        return yaml.isEmpty() ? QStringList() : yaml.split(u'\n');
    };
    return lineDiff(lines(before), lines(after), context);
}

} // namespace opbench::ui
