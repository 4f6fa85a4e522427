// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/http/requestinfo.h"

#include <QStringList>

namespace opbench::apiserver {

namespace {

QString verbFor(const QByteArray &method, bool hasName, bool watch)
{
    if (method == "GET" || method == "HEAD")
        return watch ? QStringLiteral("watch") : (hasName ? QStringLiteral("get") : QStringLiteral("list"));
    if (method == "POST")
        return QStringLiteral("create");
    if (method == "PUT")
        return QStringLiteral("update");
    if (method == "PATCH")
        return QStringLiteral("patch");
    if (method == "DELETE")
        return hasName ? QStringLiteral("delete") : QStringLiteral("deletecollection");
    return QString::fromLatin1(method).toLower();
}

} // namespace

RequestInfo RequestInfo::parse(const Request &request)
{
    RequestInfo info;
    info.path = request.path;
    QStringList parts = request.path.split(u'/', Qt::SkipEmptyParts);
    if (parts.isEmpty() || (parts[0] != QLatin1String("api") && parts[0] != QLatin1String("apis")))
        return info;
    const bool core = parts[0] == QLatin1String("api");
    const qsizetype prefix = core ? 2 : 3; // api/v1 | apis/g/v
    if (parts.size() <= prefix)
        return info; // discovery
    info.isResourceRequest = true;
    info.apiGroup = core ? QString() : parts[1];
    info.apiVersion = parts[prefix - 1];
    QStringList rest = parts.mid(prefix);
    bool watch = request.boolParam(QStringLiteral("watch"));
    if (rest.first() == QLatin1String("watch")) {
        watch = true;
        rest.removeFirst();
    }
    if (rest.size() >= 2 && rest[0] == QLatin1String("namespaces")) {
        if (rest.size() == 2
            || (rest.size() == 3 && (rest[2] == QLatin1String("status") || rest[2] == QLatin1String("finalize")))) {
            info.resource = rest[0]; // a namespace object itself
            info.name = rest[1];
            info.subresource = rest.value(2);
            rest.clear();
        } else {
            info.namespaceName = rest[1];
            rest = rest.mid(2);
        }
    }
    if (!rest.isEmpty()) {
        if (rest.size() > 3) {
            info.malformed = true;
            return info;
        }
        info.resource = rest[0];
        info.name = rest.value(1);
        info.subresource = rest.value(2);
    }
    if (info.resource.isEmpty()) {
        info.malformed = true;
        return info;
    }
    info.verb = verbFor(request.method, !info.name.isEmpty(), watch && info.name.isEmpty());
    if (watch && !info.name.isEmpty() && request.method == "GET")
        info.verb = QStringLiteral("watch");
    return info;
}

} // namespace opbench::apiserver
