// SPDX-License-Identifier: Apache-2.0
#include "engine/api/typed/customresource.h"

namespace opbench::typed {

QString objectLabel(const QJsonObject &document)
{
    const QJsonObject meta = document.value(QLatin1String("metadata")).toObject();
    const QString kind = document.value(QLatin1String("kind")).toString();
    return kind + u' '
        + objectKey(meta.value(QLatin1String("namespace")).toString(), meta.value(QLatin1String("name")).toString());
}

bool kindMatches(const QJsonObject &document, const GroupVersionKind &gvk)
{
    // A document without apiVersion or kind (a list item some servers send bare) is taken as is.
    const QString apiVersion = document.value(QLatin1String("apiVersion")).toString();
    const QString kind = document.value(QLatin1String("kind")).toString();
    return (apiVersion.isEmpty() || apiVersion == gvk.apiVersion()) && (kind.isEmpty() || kind == gvk.kind);
}

} // namespace opbench::typed
