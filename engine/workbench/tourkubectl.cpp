// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/tourkubectl.h"

#include "engine/api/yamlcodec.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QPointer>

namespace opbench::workbench {

namespace {

/// "example.com/v1beta1" + "myapplications" ("v1": the core group).
GroupVersionResource resourceOf(const TourRequest &r)
{
    const qsizetype slash = r.apiVersion.indexOf(u'/');
    if (slash < 0)
        return {QString(), r.apiVersion, r.resource};
    return {r.apiVersion.left(slash), r.apiVersion.mid(slash + 1), r.resource};
}

/// What `kubectl create` prints: "myapplication.example.com/tagged created".
QString createdText(const Object &created, const GroupVersionResource &gvr)
{
    const QString kind = created.kind().toLower();
    return (gvr.group.isEmpty() ? kind : kind + u'.' + gvr.group) + u'/' + created.name() + QStringLiteral(" created");
}

/// What `kubectl get -o yaml` prints: the object without metadata.managedFields.
QString yamlText(const Object &object)
{
    QJsonObject json = object.json();
    QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    meta.remove(QStringLiteral("managedFields"));
    json.insert(QStringLiteral("metadata"), meta);
    return QString::fromUtf8(jsonToYaml(json));
}

} // namespace

QString kubectlErrorText(const Status &status)
{
    const StatusDetails &d = status.details();
    if (isInvalid(status) && !d.causes.isEmpty()) {
        QStringList errors; // kubectl's statusCausesToAggrError: "field: message", each once
        for (const StatusCause &c : d.causes) {
            const QString error = c.field + QStringLiteral(": ") + c.message;
            if (!errors.contains(error))
                errors << error;
        }
        const QString head = QStringLiteral("The %1 \"%2\" is invalid: ").arg(d.kind, d.name);
        if (errors.size() == 1)
            return head + errors.first();
        return head + QStringLiteral("\n* ") + errors.join(QStringLiteral("\n* "));
    }
    if (isTransportError(status))
        return status.message();
    if (status.reason().isEmpty())
        return QStringLiteral("Error from server: ") + status.message();
    return QStringLiteral("Error from server (%1): %2").arg(status.reason(), status.message());
}

TourKubectl::TourKubectl(QObject *parent)
    : QObject(parent)
{ }

void TourKubectl::send(const TourRequest &request, const QString &kubeconfigPath) { run(request, kubeconfigPath); }

RestClient *TourKubectl::client(const QString &kubeconfigPath, QString *error)
{
    if (m_client && m_kubeconfigPath == kubeconfigPath)
        return m_client;
    if (kubeconfigPath.isEmpty()) { // never the user's own cluster: loadConfig() would fall back to it
        *error = tr("The cluster is not ready yet: try again once the window shows it.");
        return nullptr;
    }
    Expected<RestConfig> config = loadConfig(kubeconfigPath);
    if (!config) {
        *error = config.error().message();
        return nullptr;
    }
    config->userAgent = QString::fromLatin1(TourKubectlAgent);
    if (m_client)
        m_client->deleteLater();
    m_client = new RestClient(std::move(config.value()), this);
    m_kubeconfigPath = kubeconfigPath;
    return m_client;
}

QCoro::Task<void> TourKubectl::run(TourRequest request, QString kubeconfigPath)
{
    QPointer<TourKubectl> self(this);
    QString error;
    RestClient *rest = client(kubeconfigPath, &error);
    if (!rest) {
        Q_EMIT answered(request.command, false, error);
        co_return;
    }
    const GroupVersionResource gvr = resourceOf(request);
    Expected<Object> result = Status::badRequest(QStringLiteral("unknown request verb \"%1\"").arg(request.verb));
    if (request.verb == u"create")
        result = co_await rest->create(gvr, request.namespaceName, Object::fromJson(request.body));
    else if (request.verb == u"get")
        result = co_await rest->get(gvr, request.namespaceName, request.name);
    if (!self) // the client was deleted with this object: its calls finished Cancelled
        co_return;
    if (!result)
        Q_EMIT answered(request.command, false, kubectlErrorText(result.error()));
    else if (request.verb == u"create")
        Q_EMIT answered(request.command, true, createdText(*result, gvr));
    else
        Q_EMIT answered(request.command, true, yamlText(*result));
}

} // namespace opbench::workbench
