// SPDX-License-Identifier: Apache-2.0
#pragma once
// OperatorFixture: an operator's integration test in one line (what envtest plus a started
// manager are to Go). It starts an embedded API server on loopback (TestApiServer) with the
// definition's CRDs installed, builds a Manager against it, runs the definition's setup and starts
// the manager, so the operator's controllers are running when the constructor returns:
//
//     OperatorFixture env(guestbook::definition());
//     QVERIFY2(env.ok(), qPrintable(env.errorString()));
//     Guestbook book(QStringLiteral("default"), QStringLiteral("demo"));
//     QVERIFY(env.create(book));
//     QVERIFY(env.eventually([&] { return env.get<ConfigMap>(ObjectKey::of(book)).ok(); },
//                            QStringLiteral("the guestbook's ConfigMap")));
//     QCOMPARE(env.events(book).value(0).reason(), QStringLiteral("Ready"));
//
// eventually() runs the event loop until the predicate holds, for at most a bounded real time
// (generous for a loaded machine: the condition, not the time, is what a test waits for), and
// on timeout logs and keeps a message naming what it waited for (lastFailure()).
// The definition's webhooks (OperatorDefinition::webhooks, WebhookBuilder) are served on loopback
// with a generated certificate and registered with the API server (engine/sdk/localwebhooks.h),
// so creates and updates go through them as on a cluster: a denial comes back from create().
// Reads through get()/list() go live to the API server (no cache lag); client() is the
// manager's cached, typed Client. Namespace opbench::testing; never linked by production code.

#include "engine/api/event.h"
#include "engine/api/kind.h"
#include "engine/controller/client.h"
#include "engine/sdk/localwebhooks.h"
#include "engine/sdk/operatordefinition.h"
#include "engine/testing/testapiserver.h"

#include <chrono>
#include <functional>
#include <memory>

#include <qcoro/qcorotask.h>

namespace opbench {
class Manager;
}

namespace opbench::testing {

class OperatorFixture
{
public:
    /// Starts everything; check ok() (errorString() says which step failed). `metricsBindAddress`:
    /// the manager's metrics server ("0": none; "127.0.0.1:0": a free port, Manager::metricsPort()).
    explicit OperatorFixture(OperatorDefinition definition, QString metricsBindAddress = QStringLiteral("0"));
    ~OperatorFixture();
    OperatorFixture(const OperatorFixture &) = delete;
    OperatorFixture &operator=(const OperatorFixture &) = delete;
    OperatorFixture(OperatorFixture &&) = delete;
    OperatorFixture &operator=(OperatorFixture &&) = delete;

    [[nodiscard]] bool ok() const { return m_error.isEmpty(); }
    [[nodiscard]] QString errorString() const { return m_error; }

    [[nodiscard]] TestApiServer &apiServer() { return *m_api; }
    [[nodiscard]] Manager *manager() const { return m_manager.get(); }
    /// The manager's client (cached reads, typed calls: co_await env.client().get<T>(…)).
    [[nodiscard]] Client &client() const;
    /// The webhooks served and registered for the definition (active() when it has any).
    [[nodiscard]] const LocalWebhooks &webhooks() const { return *m_webhooks; }
    /// The error of the last failed create()/update()/remove() (as the API server answered).
    [[nodiscard]] const Status &lastError() const { return m_lastError; }
    /// The definition, with `kinds` filled in by runSetup() when it was empty.
    [[nodiscard]] const OperatorDefinition &definition() const { return m_def; }

    /// Runs the event loop until `predicate()` is true: true at once when it holds, false after
    /// `timeout` with lastFailure() "timed out after N ms waiting for <what>" (also logged).
    bool eventually(const std::function<bool()> &predicate, const QString &what,
        std::chrono::milliseconds timeout = std::chrono::seconds(20));
    [[nodiscard]] QString lastFailure() const { return m_lastFailure; }

    // Live calls, synchronous (the event loop runs while they wait).
    template<Kind T> Expected<T> get(const ObjectKey &key) { return wrap<T>(liveGet(gvkOf<T>(), key)); }
    template<Kind T> Expected<QList<T>> list(const QString &ns = {})
    {
        Expected<QList<Object>> all = liveList(gvkOf<T>(), ns);
        if (!all)
            return all.error();
        QList<T> out;
        for (const Object &o : std::as_const(*all))
            out.append(T(o));
        return out;
    }
    /// Creates `obj`; the server's reply is written back into it. Errors are logged.
    template<Kind T> bool create(T &obj) { return writeBack(obj, write(QStringLiteral("create"), obj.toObject())); }
    /// Updates `obj` (PUT); the reply is written back into it.
    template<Kind T> bool update(T &obj) { return writeBack(obj, write(QStringLiteral("update"), obj.toObject())); }
    template<Kind T> bool remove(const T &obj) { return write(QStringLiteral("delete"), obj.toObject()).ok(); }

    /// The core/v1 Events about `object` (matched by uid when it has one, else by kind,
    /// namespace and name), oldest first.
    template<class V> QList<Event> events(const V &object) { return eventsAbout(object.toObject()); }
    QList<Event> eventsAbout(const Object &object);

private:
    bool fail(const QString &message);
    Expected<Object> liveGet(const GroupVersionKind &gvk, const ObjectKey &key);
    Expected<QList<Object>> liveList(const GroupVersionKind &gvk, const QString &ns);
    Expected<Object> write(const QString &verb, const Object &obj);
    template<Kind T> static Expected<T> wrap(const Expected<Object> &o)
    {
        if (!o)
            return o.error();
        return T(*o);
    }
    template<Kind T> static bool writeBack(T &target, const Expected<Object> &reply)
    {
        if (!reply)
            return false;
        target = T(*reply);
        return true;
    }

    bool startManager();

    OperatorDefinition m_def;
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<LocalWebhooks> m_webhooks;
    Status m_lastError;
    std::unique_ptr<Manager> m_manager;
    QString m_error;
    QString m_lastFailure;
};

} // namespace opbench::testing
