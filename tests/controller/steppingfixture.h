// SPDX-License-Identifier: Apache-2.0
#pragma once
// SteppingFixture: a started test controller (FakeClock, its own metrics, a ScriptedReconciler)
// for the stepping and breakpoint tests, with an optional informer cache of ConfigMaps the
// reconciler reads through a Client (so reconciles make client calls to halt before).

#include "tests/controller/scriptedreconciler.h"

#include "engine/cache/informercache.h"
#include "engine/testing/fakeclock.h"

#include <memory>

namespace opbench::test {

struct SteppingFixture
{
    testing::FakeClock clock;
    MetricsRegistry metrics;
    QObject parent;
    std::shared_ptr<ScriptedReconciler> rec = std::make_shared<ScriptedReconciler>();
    Controller *ctrl = nullptr;
    std::unique_ptr<InformerCache> cache; // destroyed before the controller, as locals were
    std::unique_ptr<Client> client;

    /// `forKind`: the controller's reconciled kind (none by default).
    explicit SteppingFixture(const GroupVersionKind &forKind = {})
    {
        ControllerOptions o = testOptions(QStringLiteral("step"), &clock, &metrics);
        o.forKind = forKind;
        ctrl = startedController(std::move(o), rec, &parent);
    }
    void add(const char *name)
    {
        ctrl->queue()->add({QStringLiteral("ns"), QString::fromLatin1(name)}, Cause::manual());
    }
    /// Caches `objects` (ConfigMaps, at resourceVersion `rv`) and has every reconcile get each
    /// of `reads` ("ns/name") through a Client on that cache.
    Informer *readThrough(
        const QList<Object> &objects, const QStringList &reads, const QString &rv = QStringLiteral("6"))
    {
        cache = std::make_unique<InformerCache>(InformerCacheOptions{});
        Informer *inf = *cache->informerFor(configMapGvk());
        inf->replaceAll(objects, rv);
        client = std::make_unique<Client>(cache.get(), nullptr, &clock);
        rec->client = client.get();
        rec->reads = reads;
        return inf;
    }
    /// ConfigMaps ns/one (rv 5) and ns/two (rv 6), each read once per reconcile.
    Informer *readTwoConfigMaps()
    {
        return readThrough({configMap(QStringLiteral("ns"), QStringLiteral("one"), QStringLiteral("5")),
                               configMap(QStringLiteral("ns"), QStringLiteral("two"), QStringLiteral("6"))},
            {QStringLiteral("ns/one"), QStringLiteral("ns/two")});
    }
};

} // namespace opbench::test
