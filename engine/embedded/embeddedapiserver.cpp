// SPDX-License-Identifier: Apache-2.0
// opbench::embedded: the embedded API server behind `runOperator --embedded`. This is an object
// library: linking it puts this file's registrar into the executable, so the SDK finds the
// implementation without depending on the API server itself.
#include "engine/apiserver/apiserver.h"
#include "engine/apiserver/tls.h"
#include "engine/sdk/embeddedcluster.h"

namespace opbench {

namespace {

class ApiServerCluster final : public EmbeddedCluster
{
public:
    Expected<void> start() override { return m_server.start(); }
    Expected<void> installCrd(const QByteArray &crd) override { return m_server.installCrd(crd); }
    Expected<void> writeKubeconfig(const QString &path) const override { return m_server.writeKubeconfig(path); }
    [[nodiscard]] QUrl url() const override { return m_server.url(); }
    [[nodiscard]] Expected<WebhookTls> generateWebhookTls() const override
    {
        Expected<apiserver::TlsMaterial> tls = apiserver::TlsMaterial::generate();
        if (!tls)
            return tls.error();
        return WebhookTls{tls->caCert, tls->serverCert, tls->serverKey};
    }

private:
    apiserver::ApiServer m_server;
};

const bool registered = [] {
    registerEmbeddedCluster([]() -> std::unique_ptr<EmbeddedCluster> { return std::make_unique<ApiServerCluster>(); });
    return true;
}();

} // namespace

} // namespace opbench
