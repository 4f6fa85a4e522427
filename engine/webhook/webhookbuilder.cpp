// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/webhookbuilder.h"

namespace opbench {

WebhookBuilder::WebhookBuilder(WebhookServer *server)
    : m_server(server)
{ }

void WebhookBuilder::checkKind(const GroupVersionKind &gvk, const char *what)
{
    if (!m_kind)
        m_error = QStringLiteral("%1(): call forKind<%2>() first").arg(QLatin1String(what), gvk.kind);
    else if (gvk != *m_kind)
        m_error = QStringLiteral("%1(): it handles %2 but forKind() is %3")
                      .arg(QLatin1String(what), gvk.toString(), m_kind->toString());
}

Expected<void> WebhookBuilder::complete()
{
    if (!m_server)
        return Status::badRequest(QStringLiteral("WebhookBuilder: no webhook server"));
    if (!m_error.isEmpty())
        return Status::badRequest(QStringLiteral("WebhookBuilder: ") + m_error);
    if (!m_kind)
        return Status::badRequest(QStringLiteral("WebhookBuilder: forKind<T>() is required"));
    if (!m_defaulting && !m_validating && !m_converts)
        return Status::badRequest(QStringLiteral("WebhookBuilder for %1: nothing to serve (no defaulter, validator or "
                                                 "conversion)")
                                      .arg(m_kind->toString()));
    if (m_defaulting) {
        const QString path = mutatePath(*m_kind);
        if (Expected<void> ok = m_server->registerHandler(path, admissionWebhook(path, m_defaulting)); !ok)
            return ok;
        m_server->noteServed({ServedWebhook::Type::Defaulting, path, *m_kind});
    }
    if (m_validating) {
        const QString path = validatePath(*m_kind);
        if (Expected<void> ok = m_server->registerHandler(path, admissionWebhook(path, m_validating)); !ok)
            return ok;
        m_server->noteServed({ServedWebhook::Type::Validating, path, *m_kind});
    }
    if (m_converts) {
        Expected<ConversionRegistry *> registry = ConversionRegistry::of(m_server);
        if (!registry)
            return registry.error();
        if (Expected<void> ok = (*registry)->add(*m_conversion); !ok)
            return ok;
        m_server->noteServed({ServedWebhook::Type::Conversion, QStringLiteral("/convert"), *m_kind});
    }
    return {};
}

} // namespace opbench
