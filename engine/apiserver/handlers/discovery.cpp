// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/handlers/discovery.h"

#include "engine/apiserver/handlers/openapi.h"

#include <QJsonArray>

#include <algorithm>

namespace opbench::apiserver {

namespace {

QJsonArray toArray(const QStringList &l)
{
    QJsonArray a;
    for (const QString &s : l)
        a.append(s);
    return a;
}

QJsonObject groupVersion(const QString &group, const QString &version)
{
    return QJsonObject{{QStringLiteral("groupVersion"), group.isEmpty() ? version : group + u'/' + version},
        {QStringLiteral("version"), version}};
}

QJsonObject subresourceEntry(const ResourceType &t, const QString &sub)
{
    QJsonObject e{{QStringLiteral("name"), t.mapping.gvr.resource + u'/' + sub},
        {QStringLiteral("singularName"), QString()}, {QStringLiteral("namespaced"), t.namespaced()},
        {QStringLiteral("kind"), t.kind()},
        {QStringLiteral("verbs"), toArray({QStringLiteral("get"), QStringLiteral("patch"), QStringLiteral("update")})}};
    if (sub == QLatin1String("scale")) {
        e.insert(QStringLiteral("group"), QStringLiteral("autoscaling"));
        e.insert(QStringLiteral("version"), QStringLiteral("v1"));
        e.insert(QStringLiteral("kind"), QStringLiteral("Scale"));
    } else if (sub == QLatin1String("finalize")) {
        e.insert(QStringLiteral("verbs"), toArray({QStringLiteral("update")}));
    }
    return e;
}

} // namespace

Discovery::Discovery(ResourceRegistry *registry)
    : m_registry(registry)
{
    QObject::connect(registry, &ResourceRegistry::changed, registry, [cache = m_openApiV2] { cache->reset(); });
}

namespace {

/// The media types of an Accept header, highest q first (stable for equal q), parameters
/// other than q dropped; "*/*" when there is no header.
QList<QByteArray> acceptedTypes(const QByteArray &accept)
{
    QList<QPair<double, QByteArray>> clauses;
    for (const QByteArray &clause : (accept.trimmed().isEmpty() ? QByteArray("*/*") : accept).split(',')) {
        const QList<QByteArray> parts = clause.split(';');
        double q = 1;
        for (qsizetype i = 1; i < parts.size(); ++i)
            if (parts[i].trimmed().startsWith("q="))
                q = parts[i].trimmed().mid(2).toDouble();
        if (q > 0)
            clauses.append({q, parts.first().trimmed().toLower()});
    }
    std::stable_sort(clauses.begin(), clauses.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    QList<QByteArray> out;
    for (const auto &c : clauses)
        out.append(c.second);
    return out;
}

bool mediaMatches(const QByteArray &clause, const QByteArray &offered)
{
    if (clause == "*/*" || clause == offered)
        return true;
    return clause.endsWith("/*") && offered.startsWith(clause.chopped(1));
}

} // namespace

void Discovery::openApiV2(const Request &request, Responder responder, bool legacyPath) const
{
    if (!m_openApiV2->has_value())
        *m_openApiV2 = OpenApiV2::encode(OpenApiV2(m_registry).document());
    const OpenApiV2::Encoded &doc = **m_openApiV2;
    // kube-openapi's handler: JSON first, then the two protobuf names; the protobuf answer's
    // Content-Type spells the subtype with '.', not '@' (Go's mime parser refuses the '@'). The
    // legacy /swagger-2.0.0.pb-v1 path is protobuf only.
    static const QByteArray json = "application/json";
    static const QByteArray pbDeprecated = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
    static const QByteArray pb = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
    const QByteArray *body = nullptr;
    const QByteArray *etag = nullptr;
    QByteArray contentType;
    if (legacyPath) {
        body = &doc.protobuf, etag = &doc.protobufEtag, contentType = pb;
    } else {
        for (const QByteArray &clause : acceptedTypes(request.header("accept"))) {
            if (mediaMatches(clause, json)) {
                body = &doc.json, etag = &doc.jsonEtag, contentType = json;
            } else if (clause == pbDeprecated || clause == pb) {
                body = &doc.protobuf, etag = &doc.protobufEtag, contentType = pb;
            } else {
                continue;
            }
            break;
        }
    }
    if (!body) {
        responder.sendStatus(Status(406, QString::fromLatin1(StatusReason::NotAcceptable),
            QStringLiteral("only application/json and %1 are served here").arg(QLatin1String(pb))));
        return;
    }
    const Responder::Headers headers{
        {QByteArrayLiteral("ETag"), *etag}, {QByteArrayLiteral("Vary"), QByteArrayLiteral("Accept")}};
    bool notModified = false;
    for (const QByteArray &tag : request.header("if-none-match").split(','))
        notModified = notModified || tag.trimmed() == *etag || tag.trimmed() == "*";
    if (notModified) {
        responder.send(304, QByteArray(), QByteArray(), headers);
        return;
    }
    responder.send(200, contentType, *body, headers);
}

bool Discovery::isPublicPath(const QString &path)
{
    static const QStringList pub{
        QStringLiteral("/healthz"), QStringLiteral("/livez"), QStringLiteral("/readyz"), QStringLiteral("/version")};
    for (const QString &p : pub)
        if (path == p || path.startsWith(p + u'/'))
            return true;
    return false;
}

QJsonObject Discovery::apiVersions() const
{
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIVersions")},
        {QStringLiteral("versions"), toArray(m_registry->versions(QString()))},
        {QStringLiteral("serverAddressByClientCIDRs"),
            QJsonArray{QJsonObject{{QStringLiteral("clientCIDR"), QStringLiteral("0.0.0.0/0")},
                {QStringLiteral("serverAddress"), m_serverAddress}}}}};
}

QJsonObject Discovery::group(const QString &name) const
{
    QJsonArray versions;
    for (const QString &v : m_registry->versions(name))
        versions.append(groupVersion(name, v));
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIGroup")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("name"), name},
        {QStringLiteral("versions"), versions},
        {QStringLiteral("preferredVersion"), groupVersion(name, m_registry->preferredVersion(name))}};
}

QJsonObject Discovery::groupList() const
{
    QJsonArray groups;
    for (const QString &g : m_registry->groups()) {
        if (g.isEmpty())
            continue;
        QJsonObject o = group(g);
        o.remove(QStringLiteral("kind"));
        o.remove(QStringLiteral("apiVersion"));
        groups.append(o);
    }
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIGroupList")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("groups"), groups}};
}

QJsonObject Discovery::resourceList(const QString &group, const QString &version) const
{
    QJsonArray resources;
    for (const ResourceType &t : m_registry->all()) {
        if (t.mapping.gvr.group != group || t.mapping.gvr.version != version)
            continue;
        QStringList verbs = t.mapping.verbs;
        if (t.mapping.gvr.resource == QLatin1String("namespaces") && !t.custom)
            verbs.removeAll(QStringLiteral("deletecollection"));
        QJsonObject e{{QStringLiteral("name"), t.mapping.gvr.resource},
            {QStringLiteral("singularName"), t.mapping.singular}, {QStringLiteral("namespaced"), t.namespaced()},
            {QStringLiteral("kind"), t.kind()}, {QStringLiteral("verbs"), toArray(verbs)}};
        if (!t.mapping.shortNames.isEmpty())
            e.insert(QStringLiteral("shortNames"), toArray(t.mapping.shortNames));
        if (!t.mapping.categories.isEmpty())
            e.insert(QStringLiteral("categories"), toArray(t.mapping.categories));
        resources.append(e);
        for (const QString &sub : t.mapping.subresources)
            resources.append(subresourceEntry(t, sub));
    }
    return QJsonObject{{QStringLiteral("kind"), QStringLiteral("APIResourceList")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("groupVersion"), group.isEmpty() ? version : group + u'/' + version},
        {QStringLiteral("resources"), resources}};
}

QJsonObject Discovery::version()
{
    return QJsonObject{{QStringLiteral("major"), QStringLiteral("1")}, {QStringLiteral("minor"), QStringLiteral("30")},
        {QStringLiteral("gitVersion"), QStringLiteral("v1.30.0-opbench")},
        {QStringLiteral("gitCommit"), QStringLiteral("0000000000000000000000000000000000000000")},
        {QStringLiteral("gitTreeState"), QStringLiteral("clean")},
        {QStringLiteral("buildDate"), QStringLiteral("2024-05-01T00:00:00Z")},
        {QStringLiteral("goVersion"), QStringLiteral("go1.22.2")}, {QStringLiteral("compiler"), QStringLiteral("gc")},
        {QStringLiteral("platform"), QStringLiteral("linux/amd64")}};
}

void Discovery::health(const Request &request, Responder responder, const QString &which) const
{
    if (request.hasParam(QStringLiteral("verbose"))) {
        QByteArray text = "[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/crd-informer-synced ok\n";
        text += which.toLatin1() + " check passed\n";
        return responder.sendText(200, text);
    }
    responder.sendText(200, "ok");
}

bool Discovery::handle(const Request &request, Responder responder) const
{
    QString path = request.path;
    while (path.size() > 1 && path.endsWith(u'/'))
        path.chop(1);
    const QStringList parts = path.split(u'/', Qt::SkipEmptyParts);
    const bool health
        = path == QLatin1String("/healthz") || path == QLatin1String("/livez") || path == QLatin1String("/readyz");
    const bool known = health || path == QLatin1String("/version") || path == QLatin1String("/openapi/v2")
        || path == QLatin1String("/swagger-2.0.0.pb-v1") || path.startsWith(QLatin1String("/openapi/v3"))
        || path == QLatin1String("/api") || path == QLatin1String("/api/v1") || path == QLatin1String("/apis")
        || (parts.value(0) == QLatin1String("apis") && parts.size() <= 3) || path == QLatin1String("/");
    if (!known)
        return false;
    if (request.method != "GET" && request.method != "HEAD") {
        responder.sendStatus(Status::methodNotAllowed(
            QStringLiteral("the server does not allow this method on the requested resource")));
        return true;
    }
    const Status notFound(404, QString::fromLatin1(StatusReason::NotFound),
        QStringLiteral("the server could not find the requested resource"));
    if (health) {
        this->health(request, responder, path.mid(1));
    } else if (path == QLatin1String("/version")) {
        responder.sendJson(200, version());
    } else if (path == QLatin1String("/openapi/v2") || path == QLatin1String("/swagger-2.0.0.pb-v1")) {
        openApiV2(request, responder, path != QLatin1String("/openapi/v2"));
    } else if (path == QLatin1String("/openapi/v3")) {
        responder.sendJson(200, OpenApiV3(m_registry).discovery());
    } else if (path.startsWith(QLatin1String("/openapi/v3/"))) {
        if (auto doc = OpenApiV3(m_registry).document(path.mid(12)))
            responder.sendJson(200, *doc);
        else
            responder.sendStatus(notFound);
    } else if (path == QLatin1String("/")) {
        responder.sendJson(200,
            QJsonObject{{QStringLiteral("paths"),
                toArray({QStringLiteral("/api"), QStringLiteral("/api/v1"), QStringLiteral("/apis"),
                    QStringLiteral("/healthz"), QStringLiteral("/livez"), QStringLiteral("/openapi/v2"),
                    QStringLiteral("/readyz"), QStringLiteral("/version")})}});
    } else if (path == QLatin1String("/api")) {
        responder.sendJson(200, apiVersions());
    } else if (path == QLatin1String("/api/v1")) {
        responder.sendJson(200, resourceList(QString(), QStringLiteral("v1")));
    } else if (path == QLatin1String("/apis")) {
        responder.sendJson(200, groupList());
    } else if (parts.size() == 2 && m_registry->groups().contains(parts[1])) {
        responder.sendJson(200, group(parts[1]));
    } else if (parts.size() == 3 && m_registry->versions(parts[1]).contains(parts[2])) {
        responder.sendJson(200, resourceList(parts[1], parts[2]));
    } else {
        responder.sendStatus(notFound);
    }
    return true;
}

} // namespace opbench::apiserver
