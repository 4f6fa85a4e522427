// SPDX-License-Identifier: Apache-2.0
#pragma once
// TestApiServer: an embedded ApiServer on its own QThread (for operator projects' tests as
// for opbench's own), on a free loopback port, with a
// kubeconfig written to a temporary directory. For integration tests of the client, cache and
// controllers (the test's own thread stays free for its event loop).
//
//   TestApiServer api;                       // plain HTTP
//   QVERIFY2(api.start(), qPrintable(api.errorString()));
//   api.url(); api.token(); api.kubeconfigPath();
//
// HTTPS: TestApiServer api(TestApiServer::httpsOptions()); sslConfiguration() trusts its CA.
// TLS material is generated once per process and reused (openssl is slow-ish).

#include "engine/apiserver/apiserver.h"

#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QThread>

#include <functional>

namespace opbench::testing {

class TestApiServer
{
public:
    /// Plain HTTP, token "test-token", pod ready delay 50 ms, and the CRDs of the files listed in
    /// OPBENCH_TEST_CRDS (':'-separated paths; none when unset). Add yours to `crds`.
    static apiserver::ApiServerOptions plainOptions();
    /// HTTPS with the per-process shared TLS material.
    static apiserver::ApiServerOptions httpsOptions();

    explicit TestApiServer(apiserver::ApiServerOptions options = plainOptions());
    ~TestApiServer();
    TestApiServer(const TestApiServer &) = delete;
    TestApiServer &operator=(const TestApiServer &) = delete;

    /// Starts the server thread and the server; false with errorString() on failure.
    bool start();
    /// Stops the server (flushing its state file) and the thread. Safe to call twice.
    void stop();
    QString errorString() const { return m_error; }

    QUrl url() const { return m_url; }
    QString token() const { return m_token; }
    QByteArray caPem() const { return m_caPem; }
    QString kubeconfigPath() const { return m_kubeconfigPath; }
    /// Trusts the server's CA (for QNetworkAccessManager over HTTPS).
    QSslConfiguration sslConfiguration() const;
    /// A request for `pathAndQuery` ("/api/v1/namespaces?limit=1") with the bearer token and TLS set.
    QNetworkRequest request(const QString &pathAndQuery) const;

    /// Runs `fn` on the server's thread and waits (the ApiServer must only be touched there).
    void runOnServerThread(const std::function<void(apiserver::ApiServer &)> &fn);

private:
    apiserver::ApiServerOptions m_options;
    QThread m_thread;
    apiserver::ApiServer *m_server = nullptr; // lives on m_thread
    QObject *m_context = nullptr;             // lives on m_thread
    QTemporaryDir m_dir;
    QString m_error;
    QUrl m_url;
    QString m_token;
    QByteArray m_caPem;
    QString m_kubeconfigPath;
};

} // namespace opbench::testing
