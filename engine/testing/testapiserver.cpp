// SPDX-License-Identifier: Apache-2.0
#include "engine/testing/testapiserver.h"

#include <QFile>
#include <QSslCertificate>

namespace opbench::testing {

namespace {

const apiserver::TlsMaterial &sharedTls()
{
    static const apiserver::TlsMaterial tls = []() {
        auto m = apiserver::TlsMaterial::generate();
        if (!m)
            qFatal("cannot generate TLS material: %s", qPrintable(m.error().message()));
        return *m;
    }();
    return tls;
}

} // namespace

apiserver::ApiServerOptions TestApiServer::plainOptions()
{
    apiserver::ApiServerOptions o;
    o.plainHttp = true;
    o.token = QStringLiteral("test-token");
    o.podReadyDelayMs = 50;
    // Extra CRDs for every test server of the process: OPBENCH_TEST_CRDS, paths separated by ':'.
    for (const QString &path : qEnvironmentVariable("OPBENCH_TEST_CRDS").split(u':', Qt::SkipEmptyParts)) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("OPBENCH_TEST_CRDS: cannot read %s: %s", qPrintable(path), qPrintable(f.errorString()));
        o.crds.append(f.readAll());
    }
    return o;
}

apiserver::ApiServerOptions TestApiServer::httpsOptions()
{
    apiserver::ApiServerOptions o = plainOptions();
    o.plainHttp = false;
    o.tls = sharedTls();
    return o;
}

TestApiServer::TestApiServer(apiserver::ApiServerOptions options)
    : m_options(std::move(options))
{
    m_thread.setObjectName(QStringLiteral("test-apiserver"));
}

TestApiServer::~TestApiServer() { stop(); }

bool TestApiServer::start()
{
    if (m_server)
        return true;
    m_context = new QObject;
    m_server = new apiserver::ApiServer(m_options);
    m_context->moveToThread(&m_thread);
    m_server->moveToThread(&m_thread);
    m_thread.start();
    bool ok = false;
    QMetaObject::invokeMethod(
        m_context,
        [this, &ok]() {
            auto started = m_server->start();
            ok = started.ok();
            if (!ok) {
                m_error = started.error().message();
                return;
            }
            m_url = m_server->url();
            m_token = m_server->token();
            m_caPem = m_server->caPem();
            m_kubeconfigPath = m_dir.filePath(QStringLiteral("kubeconfig"));
            if (auto written = m_server->writeKubeconfig(m_kubeconfigPath); !written) {
                ok = false;
                m_error = written.error().message();
            }
        },
        Qt::BlockingQueuedConnection);
    if (!ok)
        stop();
    return ok;
}

void TestApiServer::stop()
{
    if (!m_context)
        return;
    QMetaObject::invokeMethod(
        m_context,
        [this]() {
            delete m_server; // stops and flushes on its own thread
            m_server = nullptr;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_context; // its thread has finished
    m_context = nullptr;
}

void TestApiServer::runOnServerThread(const std::function<void(apiserver::ApiServer &)> &fn)
{
    if (!m_server)
        return;
    QMetaObject::invokeMethod(
        m_context, [this, &fn]() { fn(*m_server); }, Qt::BlockingQueuedConnection);
}

QSslConfiguration TestApiServer::sslConfiguration() const
{
    QSslConfiguration c = QSslConfiguration::defaultConfiguration();
    c.setCaCertificates(QSslCertificate::fromData(m_caPem, QSsl::Pem));
    return c;
}

QNetworkRequest TestApiServer::request(const QString &pathAndQuery) const
{
    QUrl u = m_url;
    const qsizetype q = pathAndQuery.indexOf(u'?');
    u.setPath(q < 0 ? pathAndQuery : pathAndQuery.left(q));
    if (q >= 0)
        u.setQuery(pathAndQuery.mid(q + 1), QUrl::StrictMode);
    QNetworkRequest r(u);
    r.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    if (m_url.scheme() == QLatin1String("https"))
        r.setSslConfiguration(sslConfiguration());
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    return r;
}

} // namespace opbench::testing
