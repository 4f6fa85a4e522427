// SPDX-License-Identifier: Apache-2.0
// SDK 0.3 helpers without a server: finalizers, deletion and generation on any view, status
// conditions with apimachinery's meta.SetStatusCondition semantics (on a FakeClock),
// setControllerReference on views, ignoreNotFound / requeueOnConflict, the list options, the
// Recorder, and typed kinds in the builder (mapped from kindInfo, listed by watchedKinds()).
#include "engine/testing/fakeclock.h"
#include "tests/controller/scriptedreconciler.h"
#include "tests/controller/testkinds.h"

#include "engine/api/timeformat.h"
#include "engine/controller/builder.h"
#include "engine/controller/clientutil.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;

namespace {

Widget widgetWithUid(const QString &ns, const QString &name)
{
    Widget w(ns, name);
    QJsonObject j = w.toObject().json();
    QJsonObject meta = j.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("uid"), QStringLiteral("uid-") + name);
    meta.insert(QStringLiteral("generation"), 3);
    j.insert(QStringLiteral("metadata"), meta);
    return Widget(Object::fromJson(j));
}

Condition cond(const QString &type, const QString &status, const QString &reason = {})
{
    Condition c;
    c.type = type;
    c.status = status;
    c.reason = reason;
    return c;
}

} // namespace

class tst_SdkHelpers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void finalizersChangeInMemoryAndSayWhetherTheyChanged()
    {
        Widget w(QStringLiteral("ns"), QStringLiteral("a"));
        QVERIFY(!w.hasFinalizer(QStringLiteral("x/f")));
        QVERIFY(w.addFinalizer(QStringLiteral("x/f")));
        QVERIFY(!w.addFinalizer(QStringLiteral("x/f"))); // already there: no change
        QVERIFY(w.hasFinalizer(QStringLiteral("x/f")));
        QCOMPARE(w.toObject().finalizers(), QStringList{QStringLiteral("x/f")});
        QVERIFY(w.removeFinalizer(QStringLiteral("x/f")));
        QVERIFY(!w.removeFinalizer(QStringLiteral("x/f")));
        QVERIFY(!w.hasFinalizer(QStringLiteral("x/f")));
    }

    void deletionAndGenerationAreRead()
    {
        Widget w = widgetWithUid(QStringLiteral("ns"), QStringLiteral("a"));
        QCOMPARE(w.generation(), qint64(3));
        QVERIFY(!w.isBeingDeleted());
        QJsonObject j = w.toObject().json();
        QJsonObject meta = j.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("deletionTimestamp"), QStringLiteral("2026-12-03T22:00:00Z"));
        j.insert(QStringLiteral("metadata"), meta);
        QVERIFY(Widget(Object::fromJson(j)).isBeingDeleted());
    }

    // apimachinery meta.SetStatusCondition: a new condition gets now (or its own time); a status
    // change sets the transition time; reason/message changes keep it; no change returns false.
    void setStatusConditionFollowsMetaSemantics()
    {
        testing::FakeClock clock;
        const QString t0 = formatTimestamp(clock.wallNow());
        Widget w(QStringLiteral("ns"), QStringLiteral("a"));
        QVERIFY(w.setStatusCondition(
            cond(QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("Init")), &clock));
        QCOMPARE(w.findStatusCondition(QStringLiteral("Ready"))->lastTransitionTime, t0);
        QVERIFY(!w.isStatusConditionTrue(QStringLiteral("Ready")));

        clock.advance(10s);
        QVERIFY(!w.setStatusCondition(
            cond(QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("Init")), &clock));
        QVERIFY(w.setStatusCondition(
            cond(QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("Wait")), &clock));
        QCOMPARE(w.findStatusCondition(QStringLiteral("Ready"))->lastTransitionTime, t0); // status unchanged
        QCOMPARE(w.findStatusCondition(QStringLiteral("Ready"))->reason, QStringLiteral("Wait"));

        clock.advance(10s);
        QVERIFY(
            w.setStatusCondition(cond(QStringLiteral("Ready"), QStringLiteral("True"), QStringLiteral("Up")), &clock));
        QCOMPARE(w.findStatusCondition(QStringLiteral("Ready"))->lastTransitionTime, formatTimestamp(clock.wallNow()));
        QVERIFY(w.isStatusConditionTrue(QStringLiteral("Ready")));

        // A transition time given by the caller is used on a status change.
        Condition given = cond(QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("Down"));
        given.lastTransitionTime = QStringLiteral("2020-01-01T00:00:00Z");
        QVERIFY(w.setStatusCondition(given, &clock));
        QCOMPARE(w.findStatusCondition(QStringLiteral("Ready"))->lastTransitionTime, given.lastTransitionTime);

        QVERIFY(w.setStatusCondition(cond(QStringLiteral("Synced"), QStringLiteral("True")), &clock));
        QCOMPARE(w.toObject().value({QLatin1String("status"), QLatin1String("conditions")}).toArray().size(), 2);
        QVERIFY(!w.findStatusCondition(QStringLiteral("Missing")));
    }

    // The same on a typed status's QList<Condition> (Go: meta.SetStatusCondition(&s.Conditions, c)).
    void setStatusConditionOnTypedLists()
    {
        testing::FakeClock clock;
        QList<Condition> conditions;
        QVERIFY(setStatusCondition(conditions, cond(QStringLiteral("Ready"), QStringLiteral("False")), &clock));
        const QString t0 = formatTimestamp(clock.wallNow());
        clock.advance(5s);
        QVERIFY(!setStatusCondition(conditions, cond(QStringLiteral("Ready"), QStringLiteral("False")), &clock));
        QVERIFY(setStatusCondition(
            conditions, cond(QStringLiteral("Ready"), QStringLiteral("False"), QStringLiteral("R")), &clock));
        QCOMPARE(conditions.size(), 1);
        QCOMPARE(conditions.first().lastTransitionTime, t0);
        QVERIFY(setStatusCondition(conditions, cond(QStringLiteral("Ready"), QStringLiteral("True")), &clock));
        QCOMPARE(findStatusCondition(conditions, QStringLiteral("Ready"))->lastTransitionTime,
            formatTimestamp(clock.wallNow()));
        QVERIFY(isStatusConditionTrue(conditions, QStringLiteral("Ready")));
        QVERIFY(!isStatusConditionTrue(conditions, QStringLiteral("Other")));
    }

    void setControllerReferenceOnViews()
    {
        const Widget owner = widgetWithUid(QStringLiteral("ns"), QStringLiteral("owner"));
        TestConfigMap child(QStringLiteral("ns"), QStringLiteral("child"));
        QVERIFY(setControllerReference(owner, child).ok());
        const QList<OwnerReference> refs = child.ownerReferences();
        QCOMPARE(refs.size(), 1);
        QCOMPARE(refs.first().kind, QStringLiteral("Widget"));
        QCOMPARE(refs.first().uid, QStringLiteral("uid-owner"));
        QVERIFY(refs.first().controller);
        QVERIFY(refs.first().blockOwnerDeletion);
        QVERIFY(setControllerReference(owner, child).ok()); // same owner: replaced in place
        QCOMPARE(child.ownerReferences().size(), 1);

        const Widget other = widgetWithUid(QStringLiteral("ns"), QStringLiteral("other"));
        const Expected<void> taken = setControllerReference(other, child);
        QVERIFY(!taken.ok());
        QVERIFY(isAlreadyOwned(taken.error()));

        TestConfigMap elsewhere(QStringLiteral("ns2"), QStringLiteral("child"));
        QVERIFY(!setControllerReference(owner, elsewhere).ok()); // cross-namespace
        const ObjectView &ownerView = owner;
        ObjectView &childView = elsewhere;
        QVERIFY(!setControllerReference(ownerView, childView).ok()); // the ObjectView overload too
    }

    void ignoreNotFoundAndRequeueOnConflict_data()
    {
        QTest::addColumn<Status>("error");
        QTest::addColumn<bool>("ignored");
        QTest::addColumn<bool>("requeued");
        QTest::newRow("not found") << Status::notFound(QString(), QStringLiteral("widgets"), QStringLiteral("a"))
                                   << true << false;
        QTest::newRow("conflict") << Status::modifiedConflict(QString(), QStringLiteral("widgets"), QStringLiteral("a"))
                                  << false << true;
        QTest::newRow("already exists") << Status::alreadyExists(
            QString(), QStringLiteral("widgets"), QStringLiteral("a"))
                                        << false << true;
        QTest::newRow("internal") << Status(500, QStringLiteral("InternalError"), QStringLiteral("boom")) << false
                                  << false;
    }
    void ignoreNotFoundAndRequeueOnConflict()
    {
        QFETCH(Status, error);
        QFETCH(bool, ignored);
        QFETCH(bool, requeued);
        const ReconcileOutcome i = ignoreNotFound(error);
        QCOMPARE(i.ok(), ignored);
        if (ignored)
            QVERIFY(i.result().isZero());
        else
            QCOMPARE(i.error().reason(), error.reason());
        const ReconcileOutcome r = requeueOnConflict(error);
        QCOMPARE(r.ok(), requeued);
        if (requeued)
            QVERIFY(r.result().requeue);
        else
            QCOMPARE(r.error().reason(), error.reason());
    }

    void listOptionsFold()
    {
        Labels app;
        app.insert(QStringLiteral("app"), QStringLiteral("web"));
        Labels tier;
        tier.insert(QStringLiteral("tier"), QStringLiteral("front"));
        const CacheListOptions o = listOptions(InNamespace(QStringLiteral("ns")), MatchingLabels(app),
            MatchingLabels(tier), MatchingFields(QStringLiteral("metadata.name"), QStringLiteral("a,b")), Limit(7));
        QCOMPARE(o.namespaceName, QStringLiteral("ns"));
        QCOMPARE(o.labelSelector.toString(), QStringLiteral("app=web,tier=front"));
        QCOMPARE(o.fieldSelector.requiresExactMatch(QStringLiteral("metadata.name")).value_or(QString()),
            QStringLiteral("a,b"));
        QCOMPARE(o.limit, qint64(7));
        QCOMPARE(listOptions().namespaceName, QString());
        QVERIFY(ObjectKey::of(Widget(QStringLiteral("ns"), QStringLiteral("a")))
            == ObjectKey(QStringLiteral("ns"), QStringLiteral("a")));
        QCOMPARE(ObjectKey(QStringLiteral("ns"), QStringLiteral("a")).toString(), QStringLiteral("ns/a"));
    }

    void recorderWritesThroughItsSink()
    {
        QStringList seen;
        Recorder r([&seen](const Object &o, const QString &type, const QString &reason, const QString &message) {
            seen << o.name() + u'|' + type + u'|' + reason + u'|' + message;
        });
        r.normal(Widget(QStringLiteral("ns"), QStringLiteral("a")), QStringLiteral("Ready"), QStringLiteral("up"));
        r.warning(
            Widget(QStringLiteral("ns"), QStringLiteral("a")).toObject(), QStringLiteral("Bad"), QStringLiteral("x"));
        QCOMPARE(seen, (QStringList{QStringLiteral("a|Normal|Ready|up"), QStringLiteral("a|Warning|Bad|x")}));
        Recorder().normal(Widget(QStringLiteral("ns"), QStringLiteral("a")), QStringLiteral("R"), QStringLiteral("m"));
    }

    // Typed kinds map themselves from kindInfo() and are listed For kind first.
    void builderMapsTypedKindsAndListsThem()
    {
        InformerCacheOptions co;
        co.mapper = RestMapper::withBuiltins();
        InformerCache cache(std::move(co));
        QVERIFY(!cache.mapper().forKind(gvkOf<Widget>()));
        auto rec = std::make_shared<ScriptedReconciler>();
        QObject parent;
        ControllerOptions o;
        o.skipNameValidation = true;
        Expected<Controller *> built = ControllerBuilder(&cache)
                                           .withOptions(std::move(o))
                                           .forKind<Widget>()
                                           .owns<TestConfigMap>()
                                           .watches<TestConfigMap>([](const TestConfigMap &cm) {
                                               return QList<QueueKey>{{cm.namespaceName(), cm.name()}};
                                           })
                                           .build(rec, &parent);
        QVERIFY2(built.ok(), built.ok() ? "" : qPrintable(built.error().message()));
        const auto mapping = cache.mapper().forKind(gvkOf<Widget>());
        QVERIFY(mapping);
        QCOMPARE(mapping->gvr.resource, QStringLiteral("widgets"));
        QVERIFY(mapping->namespaced);
        QCOMPARE((*built)->name(), QStringLiteral("widget"));
        QCOMPARE((*built)->watchedKinds(), (QList<GroupVersionKind>{gvkOf<Widget>(), gvkOf<TestConfigMap>()}));
        QVERIFY(!ControllerBuilder(&cache).forKind<Widget>().complete(rec).ok()); // no manager
    }
};

QTEST_GUILESS_MAIN(tst_SdkHelpers)
#include "tst_sdkhelpers.moc"
