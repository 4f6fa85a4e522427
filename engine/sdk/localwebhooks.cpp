// SPDX-License-Identifier: Apache-2.0
#include "engine/sdk/localwebhooks.h"

#include "engine/api/status.h"
#include "engine/client/restclient.h"
#include "engine/manager/manager.h"
#include "engine/webhook/webhookserver.h"

#include <QFile>
#include <QPointer>

namespace opbench {

namespace {

const QString kLoopback = QStringLiteral("127.0.0.1");

Expected<void> writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size())
        return Status::internalError(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

GroupVersionResource configurationResource(const Object &configuration)
{
    return {
        QStringLiteral("admissionregistration.k8s.io"), QStringLiteral("v1"), configuration.kind().toLower() + u's'};
}

/// `desired` with the resourceVersion of `existing` (an update replaces the whole object).
Object withVersionOf(const Object &desired, const Object &existing)
{
    QJsonObject json = desired.json();
    QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("resourceVersion"), existing.resourceVersion());
    json.insert(QStringLiteral("metadata"), meta);
    return Object::fromJson(json);
}

QString failedTo(const QString &what, const Status &status)
{
    return QStringLiteral("cannot register the webhooks: %1: %2").arg(what, status.message());
}

} // namespace

LocalWebhooks::LocalWebhooks(WebhookTlsGenerator generator)
    : m_generate(std::move(generator))
{ }

void LocalWebhooks::configure(ManagerOptions &options) const
{
    options.webhookHost = kLoopback;
    options.webhookPort = 0;
    options.webhookCertDir = m_dir.path();
}

Expected<void> LocalWebhooks::prepare(Manager *manager)
{
    const WebhookServer *server = manager ? manager->existingWebhookServer() : nullptr;
    if (!server || !server->hasHandlers())
        return {};
    if (!m_dir.isValid())
        return Status::internalError(QStringLiteral("cannot create a temporary folder for the webhook certificate"));
    if (!m_generate)
        return Status::internalError(QStringLiteral("no generator for the webhook certificate"));
    Expected<WebhookTls> tls = m_generate();
    if (!tls)
        return Status::internalError(
            QStringLiteral("cannot generate the webhook serving certificate: ") + tls.error().message());
    const WebhookServerOptions &o = server->options();
    if (Expected<void> ok = writeFile(m_dir.filePath(o.certName), tls->serverCert); !ok)
        return ok;
    if (Expected<void> ok = writeFile(m_dir.filePath(o.keyName), tls->serverKey); !ok)
        return ok;
    m_ca = tls->caCert;
    return {};
}

Expected<WebhookRegistration> LocalWebhooks::registration(Manager *manager, const QString &operatorName) const
{
    const WebhookServer *server = manager ? manager->existingWebhookServer() : nullptr;
    if (!server || !server->hasHandlers())
        return WebhookRegistration{};
    if (!active() || !server->isServing())
        return Status::badRequest(QStringLiteral("cannot register the webhooks: the webhook server is not serving"));
    const QString base = QStringLiteral("https://%1:%2").arg(kLoopback).arg(server->port());
    return webhookRegistration(operatorName, server->servedWebhooks(), manager->cache()->mapper(), base, m_ca);
}

QCoro::Task<Expected<void>> applyWebhookRegistration(RestClient *client, WebhookRegistration registration)
{
    QPointer<RestClient> guard(client);
    for (const Object &desired : std::as_const(registration.configurations)) {
        const GroupVersionResource gvr = configurationResource(desired);
        const QString what = desired.kind() + QStringLiteral(" ") + desired.name();
        if (!guard)
            co_return Status::internalError(QStringLiteral("the client is gone"));
        Expected<Object> existing = co_await guard->get(gvr, QString(), desired.name());
        if (!existing && !isNotFound(existing.error()))
            co_return Status::internalError(failedTo(what, existing.error()));
        if (!guard)
            co_return Status::internalError(QStringLiteral("the client is gone"));
        Expected<Object> written = Status();
        if (existing) {
            Object replacement = withVersionOf(desired, *existing);
            written = co_await guard->update(gvr, QString(), std::move(replacement));
        } else {
            written = co_await guard->create(gvr, QString(), desired);
        }
        if (!written)
            co_return Status::internalError(failedTo(what, written.error()));
    }
    const GroupVersionResource crds{
        QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"), QStringLiteral("customresourcedefinitions")};
    for (const WebhookRegistration::CrdConversion &c : std::as_const(registration.conversions)) {
        const QString what = QStringLiteral("CustomResourceDefinition ") + c.crdName;
        if (!guard)
            co_return Status::internalError(QStringLiteral("the client is gone"));
        Expected<Object> crd = co_await guard->get(crds, QString(), c.crdName);
        if (!crd)
            co_return Status::internalError(failedTo(what, crd.error()));
        QJsonObject json = crd->json();
        QJsonObject spec = json.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("conversion"), c.conversion);
        json.insert(QStringLiteral("spec"), spec);
        if (!guard)
            co_return Status::internalError(QStringLiteral("the client is gone"));
        Expected<Object> written = co_await guard->update(crds, QString(), Object::fromJson(json));
        if (!written)
            co_return Status::internalError(failedTo(what, written.error()));
    }
    co_return Expected<void>{};
}

} // namespace opbench
