// SPDX-License-Identifier: Apache-2.0
// The garbage collector on a Store (no HTTP): background, dangling references, foreground,
// orphan (k8s-api-semantics §8).
#include "engine/apiserver/controllers/garbagecollector.h"
#include "engine/apiserver/storage/store.h"
#include "engine/base/clock.h"
#include "engine/testing/fakeclock.h"
#include "tests/support/eventloop.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const QString kNs = QStringLiteral("default");

QJsonObject ownerRef(const Object &owner, bool block)
{
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("name"), owner.name()},
        {QStringLiteral("uid"), owner.uid()}, {QStringLiteral("blockOwnerDeletion"), block}};
}

} // namespace

class tst_GarbageCollector : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<testing::FakeClock> m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<GarbageCollector> m_gc;

    Object make(const QString &name, const QJsonArray &owners = {}, const QStringList &finalizers = {})
    {
        QJsonObject meta{{QStringLiteral("name"), name}};
        if (!owners.isEmpty())
            meta.insert(QStringLiteral("ownerReferences"), owners);
        if (!finalizers.isEmpty())
            meta.insert(QStringLiteral("finalizers"), QJsonArray::fromStringList(finalizers));
        auto o = m_store->create(kConfigMaps, kNs, QJsonObject{{QStringLiteral("metadata"), meta}});
        if (!o)
            qFatal("create %s: %s", qPrintable(name), qPrintable(o.error().message()));
        return *o;
    }
    Object find(const QString &name) { return m_store->find({kConfigMaps, kNs, name}); }
    void remove(const QString &name, const QString &policy)
    {
        DeleteOptions o;
        o.propagationPolicy = policy;
        QVERIFY(m_store->remove(kConfigMaps, kNs, name, o).ok());
    }
    void dropFinalizers(const QString &name)
    {
        QJsonObject json = find(name).json();
        QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
        meta.remove(QStringLiteral("finalizers"));
        json.insert(QStringLiteral("metadata"), meta);
        QVERIFY(m_store->update(kConfigMaps, kNs, name, json).ok());
    }

private Q_SLOTS:
    void init()
    {
        m_clock = std::make_unique<testing::FakeClock>();
        m_store = std::make_unique<Store>(m_clock.get());
        m_gc = std::make_unique<GarbageCollector>(m_store.get(), m_clock.get());
    }
    void cleanup()
    {
        m_gc.reset();
        m_store.reset();
        m_clock.reset();
    }

    void shouldDeleteDependentsInBackground()
    {
        const Object owner = make(QStringLiteral("owner"));
        const Object child = make(QStringLiteral("child"), {ownerRef(owner, false)});
        make(QStringLiteral("grandchild"),
            {QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("name"), child.name()},
                {QStringLiteral("uid"), child.uid()}}});
        remove(QStringLiteral("owner"), QStringLiteral("Background"));
        QVERIFY(find(QStringLiteral("owner")).isNull());
        QTRY_VERIFY(find(QStringLiteral("child")).isNull());
        QTRY_VERIFY(find(QStringLiteral("grandchild")).isNull());
        QCOMPARE(m_gc->deletedDependents(), 2);
    }

    void shouldTreatAUidMismatchAsGone()
    {
        make(QStringLiteral("owner"));
        QJsonObject stale{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("name"), QStringLiteral("owner")},
            {QStringLiteral("uid"), QStringLiteral("not-the-owners-uid")}};
        make(QStringLiteral("child"), {stale});
        QTRY_VERIFY(find(QStringLiteral("child")).isNull());
        QVERIFY(!find(QStringLiteral("owner")).isNull());
    }

    void shouldOnlyStripTheDanglingReferenceWhenAnOwnerIsLeft()
    {
        const Object a = make(QStringLiteral("a"));
        const Object b = make(QStringLiteral("b"));
        make(QStringLiteral("child"), {ownerRef(a, false), ownerRef(b, false)});
        remove(QStringLiteral("a"), QString());
        QTRY_COMPARE(find(QStringLiteral("child")).ownerReferences().size(), 1);
        QCOMPARE(find(QStringLiteral("child")).ownerReferences().first().uid, b.uid());
        QVERIFY(!find(QStringLiteral("child")).isBeingDeleted());
        QCOMPARE(m_gc->strippedReferences(), 1);
    }

    void shouldWaitForBlockingDependentsInForeground()
    {
        const Object owner = make(QStringLiteral("owner"));
        make(QStringLiteral("blocker"), {ownerRef(owner, true)}, {QStringLiteral("example.com/hold")});
        make(QStringLiteral("free"), {ownerRef(owner, false)});
        remove(QStringLiteral("owner"), QStringLiteral("Foreground"));
        QVERIFY(find(QStringLiteral("owner")).finalizers().contains(QStringLiteral("foregroundDeletion")));
        QTRY_VERIFY(find(QStringLiteral("free")).isNull());
        QTRY_VERIFY(find(QStringLiteral("blocker")).isBeingDeleted());
        // The blocking dependent is still there (its own finalizer holds it): the owner waits.
        testing::drainEventLoop();
        QVERIFY(!find(QStringLiteral("owner")).isNull());
        QVERIFY(find(QStringLiteral("owner")).isBeingDeleted());
        dropFinalizers(QStringLiteral("blocker"));
        QTRY_VERIFY(find(QStringLiteral("blocker")).isNull());
        QTRY_VERIFY(find(QStringLiteral("owner")).isNull());
    }

    void shouldOrphanDependents()
    {
        const Object owner = make(QStringLiteral("owner"));
        make(QStringLiteral("child"), {ownerRef(owner, true)});
        remove(QStringLiteral("owner"), QStringLiteral("Orphan"));
        QTRY_VERIFY(find(QStringLiteral("owner")).isNull());
        QVERIFY(!find(QStringLiteral("child")).isNull());
        QVERIFY(find(QStringLiteral("child")).ownerReferences().isEmpty());
        QVERIFY(!find(QStringLiteral("child")).isBeingDeleted());
    }

    // ---- owner identity: kind, name and namespace, then uid (review #7) ------------------------

    void shouldNotTakeASameUidObjectInAnotherNamespaceAsTheOwner()
    {
        auto elsewhere = m_store->create(kConfigMaps, QStringLiteral("kube-system"),
            QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("owner")}}}});
        QVERIFY(elsewhere.ok());
        make(QStringLiteral("child"), {ownerRef(*elsewhere, false)}); // the classic cross-namespace owner bug
        QTRY_VERIFY(find(QStringLiteral("child")).isNull());
        QVERIFY(!m_store->find({kConfigMaps, QStringLiteral("kube-system"), QStringLiteral("owner")}).isNull());
    }

    void shouldNotTakeAnotherKindWithTheUidAsTheOwner()
    {
        const Object owner = make(QStringLiteral("owner"));
        QJsonObject wrongKind = ownerRef(owner, false);
        wrongKind.insert(QStringLiteral("kind"), QStringLiteral("Secret")); // no Secret "owner" exists
        make(QStringLiteral("child"), {wrongKind});
        QTRY_VERIFY(find(QStringLiteral("child")).isNull());
    }

    void shouldKeepDependentsOfKindsItDoesNotServe()
    {
        make(QStringLiteral("child"),
            {QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
                {QStringLiteral("kind"), QStringLiteral("StatefulSet")}, {QStringLiteral("name"), QStringLiteral("db")},
                {QStringLiteral("uid"), QStringLiteral("uid-of-a-statefulset")}}});
        testing::drainEventLoop();
        QVERIFY(!find(QStringLiteral("child")).isNull());
        QVERIFY(!find(QStringLiteral("child")).isBeingDeleted());
    }

    void shouldKeepASharedDependentWhenOneOwnerIsDeletedInForeground()
    {
        const Object a = make(QStringLiteral("a"));
        const Object b = make(QStringLiteral("b"));
        make(QStringLiteral("shared"), {ownerRef(a, true), ownerRef(b, false)});
        remove(QStringLiteral("a"), QStringLiteral("Foreground"));
        QTRY_VERIFY(find(QStringLiteral("a")).isNull());
        const Object shared = find(QStringLiteral("shared"));
        QVERIFY(!shared.isNull());
        QVERIFY(!shared.isBeingDeleted());
        QCOMPARE(shared.ownerReferences().size(), 1);
        QCOMPARE(shared.ownerReferences().first().uid, b.uid());
    }

    void shouldDeleteLeafDependentsWithoutTheForegroundFinalizer()
    {
        // Only a dependent that has dependents of its own is deleted in foreground.
        QStringList finalizerSeenOn;
        connect(m_store.get(), &Store::committed, this, [&finalizerSeenOn](const StoreEvent &e) {
            if (e.object.name() != QLatin1String("owner")
                && e.object.finalizers().contains(QStringLiteral("foregroundDeletion")))
                finalizerSeenOn << e.object.name();
        });
        const Object owner = make(QStringLiteral("owner"));
        const Object mid = make(QStringLiteral("mid"), {ownerRef(owner, true)});
        make(QStringLiteral("leaf"), {ownerRef(owner, true)});
        make(QStringLiteral("below-mid"), {ownerRef(mid, true)});
        remove(QStringLiteral("owner"), QStringLiteral("Foreground"));
        QTRY_VERIFY(find(QStringLiteral("owner")).isNull());
        QVERIFY(find(QStringLiteral("mid")).isNull());
        QVERIFY(find(QStringLiteral("leaf")).isNull());
        QVERIFY(find(QStringLiteral("below-mid")).isNull());
        QCOMPARE(finalizerSeenOn, QStringList{QStringLiteral("mid")});
    }

    void shouldCollectWhatWasLeftBeforeItStarted()
    {
        m_gc.reset();
        const Object owner = make(QStringLiteral("owner"));
        make(QStringLiteral("child"), {ownerRef(owner, false)});
        remove(QStringLiteral("owner"), QString());
        testing::drainEventLoop();
        QVERIFY(!find(QStringLiteral("child")).isNull());
        m_gc = std::make_unique<GarbageCollector>(m_store.get(), m_clock.get());
        m_gc->resyncAll();
        QTRY_VERIFY(find(QStringLiteral("child")).isNull());
    }
};

QTEST_GUILESS_MAIN(tst_GarbageCollector)
#include "tst_garbagecollector.moc"
