// SPDX-License-Identifier: Apache-2.0
#include "engine/testing/operatorfixture.h"

#include "engine/apiserver/tls.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "engine/manager/manager.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>

namespace opbench::testing {

namespace {

/// Runs the event loop for up to `ms` (returns early only when the loop is quit).
void pump(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool sameObject(const ObjectReference &ref, const Object &object)
{
    if (!object.uid().isEmpty() && !ref.uid.isEmpty())
        return ref.uid == object.uid();
    return ref.kind == object.kind() && ref.name == object.name() && ref.namespaceName == object.namespaceName();
}

/// One CA and serving certificate per test process (openssl is slow-ish), as TestApiServer does.
Expected<WebhookTls> generateWebhookTls()
{
    static const Expected<apiserver::TlsMaterial> tls = apiserver::TlsMaterial::generate();
    if (!tls)
        return tls.error();
    return WebhookTls{tls->caCert, tls->serverCert, tls->serverKey};
}

} // namespace

OperatorFixture::OperatorFixture(OperatorDefinition definition, QString metricsBindAddress)
    : m_def(std::move(definition))
{
    m_webhooks = std::make_unique<LocalWebhooks>(&generateWebhookTls);
    apiserver::ApiServerOptions serverOptions = TestApiServer::plainOptions();
    serverOptions.crds += m_def.crds;
    m_api = std::make_unique<TestApiServer>(std::move(serverOptions));
    if (!m_api->start()) {
        fail(QStringLiteral("the API server did not start: ") + m_api->errorString());
        return;
    }
    Expected<RestConfig> config = loadConfig(m_api->kubeconfigPath());
    if (!config) {
        fail(QStringLiteral("the kubeconfig does not load: ") + config.error().message());
        return;
    }
    ManagerOptions options;
    options.restConfig = *config;
    options.gracefulShutdownTimeout = std::chrono::seconds(5);
    m_webhooks->configure(options);
    options.metricsBindAddress = std::move(metricsBindAddress);
    Expected<std::unique_ptr<Manager>> created = Manager::create(std::move(options));
    if (!created) {
        fail(QStringLiteral("the manager was not created: ") + created.error().message());
        return;
    }
    m_manager = std::move(*created);
    if (!startManager())
        return;
    const bool running = eventually(
        [this] {
            const QList<Controller *> controllers = m_manager->controllers();
            return std::all_of(
                controllers.begin(), controllers.end(), [](const Controller *c) { return c->isRunning(); });
        },
        QStringLiteral("the operator's controllers to run"));
    if (!running)
        fail(m_lastFailure);
}

bool OperatorFixture::startManager()
{
    if (Expected<void> mapped = registerCrds(m_manager->cache()->mapper(), m_def.crds); !mapped)
        return fail(QStringLiteral("the CRDs do not map: ") + mapped.error().message());
    if (Expected<Controller *> set = runSetup(m_def, m_manager.get()); !set)
        return fail(QStringLiteral("the operator's setup failed: ") + set.error().message());
    if (Expected<void> hooks = runWebhookSetup(m_def, m_manager.get()); !hooks)
        return fail(hooks.error().message());
    if (Expected<void> prepared = m_webhooks->prepare(m_manager.get()); !prepared)
        return fail(QStringLiteral("the webhooks cannot be served: ") + prepared.error().message());
    if (Expected<void> started = QCoro::waitFor(m_manager->start()); !started)
        return fail(QStringLiteral("the manager did not start: ") + started.error().message());
    Expected<WebhookRegistration> registration = m_webhooks->registration(m_manager.get(), m_def.name);
    if (registration && !registration->isEmpty()) {
        Expected<void> applied
            = QCoro::waitFor(applyWebhookRegistration(m_manager->restClient(), std::move(*registration)));
        if (!applied)
            registration = applied.error();
    }
    if (!registration)
        return fail(registration.error().message());
    return true;
}

OperatorFixture::~OperatorFixture()
{
    if (m_manager) {
        bool done = false;
        QObject::connect(m_manager.get(), &Manager::finished, m_manager.get(), [&done] { done = true; });
        m_manager->stop();
        (void)eventually([&done] { return done; }, QStringLiteral("the manager to stop"));
        m_manager.reset();
    }
    if (m_api)
        m_api->stop();
}

Client &OperatorFixture::client() const
{
    if (!m_manager)
        qFatal("OperatorFixture::client(): the fixture did not start (check ok() first)");
    return *m_manager->client();
}

bool OperatorFixture::fail(const QString &message)
{
    if (m_error.isEmpty())
        m_error = message;
    return false;
}

bool OperatorFixture::eventually(
    const std::function<bool()> &predicate, const QString &what, std::chrono::milliseconds timeout)
{
    QElapsedTimer elapsed;
    elapsed.start();
    const QDeadlineTimer deadline(timeout);
    while (!predicate()) {
        if (deadline.hasExpired()) {
            m_lastFailure = QStringLiteral("timed out after %1 ms waiting for %2").arg(elapsed.elapsed()).arg(what);
            qWarning("OperatorFixture::eventually: %s", qPrintable(m_lastFailure));
            return false;
        }
        pump(10);
    }
    return true;
}

Expected<Object> OperatorFixture::liveGet(const GroupVersionKind &gvk, const ObjectKey &key)
{
    if (!m_manager)
        return Status::badRequest(m_error);
    return QCoro::waitFor(m_manager->client()->apiReader().get({}, gvk, key.namespaceName, key.name));
}

Expected<QList<Object>> OperatorFixture::liveList(const GroupVersionKind &gvk, const QString &ns)
{
    if (!m_manager)
        return Status::badRequest(m_error);
    return QCoro::waitFor(m_manager->client()->apiReader().list({}, gvk, ns));
}

Expected<Object> OperatorFixture::write(const QString &verb, const Object &obj)
{
    if (!m_manager)
        return Status::badRequest(m_error);
    Client *c = m_manager->client();
    Expected<Object> r = Status();
    if (verb == QLatin1String("create")) {
        r = QCoro::waitFor(c->create({}, obj));
    } else if (verb == QLatin1String("update")) {
        r = QCoro::waitFor(c->update({}, obj));
    } else {
        Expected<DeleteResult> d = QCoro::waitFor(c->remove({}, obj));
        r = d ? Expected<Object>(obj) : Expected<Object>(d.error());
    }
    if (!r)
        m_lastError = r.error();
    if (!r)
        qWarning("OperatorFixture: %s %s failed: %s", qPrintable(verb), qPrintable(obj.key()),
            qPrintable(r.error().message()));
    return r;
}

QList<Event> OperatorFixture::eventsAbout(const Object &object)
{
    const QString ns = object.namespaceName().isEmpty() ? QStringLiteral("default") : object.namespaceName();
    const GroupVersionKind events(QString(), QStringLiteral("v1"), QStringLiteral("Event"));
    QList<Event> out;
    const Expected<QList<Object>> all = liveList(events, ns);
    if (!all)
        return out;
    for (const Object &o : *all) {
        Event e(o);
        if (sameObject(e.involvedObject(), object))
            out.append(e);
    }
    return out;
}

} // namespace opbench::testing
