// SPDX-License-Identifier: Apache-2.0
#pragma once
// LocalWebhooks: an operator's webhooks on an embedded cluster with no certificate work. Used by
// `runOperator --embedded`, the workbench's embedded cluster and the test harness
// (opbench::testing::OperatorFixture), in the Manager's life cycle:
//
//     LocalWebhooks local(generateTls);       // a CA + serving certificate for 127.0.0.1
//     local.configure(options);               // before Manager::create: 127.0.0.1, a free port,
//                                             // a temporary certificate folder
//     runSetup(def, manager); runWebhookSetup(def, manager);   // WebhookBuilder(manager)…
//     local.prepare(manager);                 // writes tls.crt / tls.key (only when webhooks exist)
//     co_await manager->start();              // serves them
//     auto reg = local.registration(manager, def.name);        // webhookconfigurations.h
//     co_await applyWebhookRegistration(manager->restClient(), *reg);
//
// The API server then calls the webhooks over loopback, trusting the generated CA (caBundle).
// Against a real cluster nothing of this runs: cert-manager's manifests register the webhooks.

#include "engine/api/expected.h"
#include "engine/sdk/webhookconfigurations.h"

#include <QByteArray>
#include <QTemporaryDir>

#include <qcoro/qcorotask.h>

#include <functional>

namespace opbench {

class Manager;
class RestClient;
struct ManagerOptions;

/// A CA and a serving certificate for 127.0.0.1 it signed (PEM).
struct WebhookTls
{
    QByteArray caCert;
    QByteArray serverCert;
    QByteArray serverKey;
};
/// Makes fresh TLS material (the embedded API server's generator: openssl).
using WebhookTlsGenerator = std::function<Expected<WebhookTls>()>;

class LocalWebhooks
{
public:
    explicit LocalWebhooks(WebhookTlsGenerator generator);

    /// Points the webhook server at 127.0.0.1, any free port, and this object's certificate folder.
    void configure(ManagerOptions &options) const;
    /// When `manager` has webhooks, generates the certificate and writes tls.crt and tls.key
    /// into the folder (before Manager::start). Nothing to do otherwise. Errors say which step.
    Expected<void> prepare(Manager *manager);
    /// Whether prepare() found webhooks to serve.
    [[nodiscard]] bool active() const { return !m_ca.isEmpty(); }
    /// The configurations for the running manager's webhooks (after Manager::start; empty when
    /// none), pointing at https://127.0.0.1:<bound port>.
    Expected<WebhookRegistration> registration(Manager *manager, const QString &operatorName) const;
    [[nodiscard]] QByteArray caPem() const { return m_ca; }
    [[nodiscard]] QString certDir() const { return m_dir.path(); }

private:
    WebhookTlsGenerator m_generate;
    QTemporaryDir m_dir;
    QByteArray m_ca;
};

/// Creates or updates (same name) each webhook configuration and sets each CRD's
/// spec.conversion. Stops at the first refusal; the error names the object.
QCoro::Task<Expected<void>> applyWebhookRegistration(RestClient *client, WebhookRegistration registration);

} // namespace opbench
