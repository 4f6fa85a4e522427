// SPDX-License-Identifier: Apache-2.0
#pragma once
// EmbeddedCluster: what `runOperator --embedded` needs from an API server started in-process —
// start it, install the operator's CRDs, write a kubeconfig that reaches it.
//
// The SDK does not link the embedded API server: a production operator carries none of it. An
// executable that wants `--embedded` links opbench::embedded (engine/embedded), whose object file
// registers its factory here at start-up; without it, `--embedded` fails with a message that says
// which library to link.

#include "engine/api/expected.h"
#include "engine/sdk/localwebhooks.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <memory>

namespace opbench {

class EmbeddedCluster
{
public:
    EmbeddedCluster() = default;
    virtual ~EmbeddedCluster() = default;
    EmbeddedCluster(const EmbeddedCluster &) = delete;
    EmbeddedCluster &operator=(const EmbeddedCluster &) = delete;
    EmbeddedCluster(EmbeddedCluster &&) = delete;
    EmbeddedCluster &operator=(EmbeddedCluster &&) = delete;
    /// Starts serving on loopback (TLS, a generated CA).
    virtual Expected<void> start() = 0;
    /// Installs one CustomResourceDefinition (YAML or JSON).
    virtual Expected<void> installCrd(const QByteArray &crd) = 0;
    /// Writes a kubeconfig whose current context reaches the cluster.
    virtual Expected<void> writeKubeconfig(const QString &path) const = 0;
    [[nodiscard]] virtual QUrl url() const = 0;
    /// A fresh CA and serving certificate for 127.0.0.1, for the operator's webhooks.
    [[nodiscard]] virtual Expected<WebhookTls> generateWebhookTls() const = 0;
};

using EmbeddedClusterFactory = std::unique_ptr<EmbeddedCluster> (*)();

/// Called once by opbench::embedded's registrar (a later call replaces the factory).
void registerEmbeddedCluster(EmbeddedClusterFactory factory);
/// A new embedded cluster, or nullptr when no implementation is linked into the executable.
std::unique_ptr<EmbeddedCluster> makeEmbeddedCluster();

} // namespace opbench
