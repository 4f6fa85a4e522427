// SPDX-License-Identifier: Apache-2.0
// DELETE: reply shapes, preconditions, propagation policies, finalizers and deletionTimestamp,
// garbage collection of dependents, namespaces.
#include "tests/apiserver/apiserverfixture.h"

#include <QJsonArray>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kCms = QStringLiteral("/api/v1/namespaces/default/configmaps");

QJsonObject cm(const QString &name, const QJsonArray &finalizers = {}, const QJsonArray &owners = {})
{
    QJsonObject m{{QStringLiteral("name"), name}};
    if (!finalizers.isEmpty())
        m.insert(QStringLiteral("finalizers"), finalizers);
    if (!owners.isEmpty())
        m.insert(QStringLiteral("ownerReferences"), owners);
    return QJsonObject{{QStringLiteral("metadata"), m}};
}
QJsonObject meta(const QJsonObject &o) { return o.value(QLatin1String("metadata")).toObject(); }
} // namespace

class TestApiServerDelete : public QObject, private ApiServerFixture
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_api.start(), qPrintable(m_api.errorString())); }

    void shouldReplyWithSuccessStatusWhenGone()
    {
        const QJsonObject o = m_http.post(kCms, cm(QStringLiteral("gone"))).json();
        const HttpReply r = m_http.del(
            kCms + QStringLiteral("/gone"), {{QStringLiteral("propagationPolicy"), QStringLiteral("Background")}});
        QCOMPARE(r.code, 200);
        const QJsonObject st = r.json();
        QCOMPARE(st.value(QLatin1String("status")).toString(), QStringLiteral("Success"));
        QCOMPARE(st.value(QLatin1String("details")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("configmaps"));
        QCOMPARE(st.value(QLatin1String("details")).toObject().value(QLatin1String("uid")).toString(),
            meta(o).value(QLatin1String("uid")).toString());
        QCOMPARE(m_http.get(kCms + QStringLiteral("/gone")).code, 404);
        QCOMPARE(m_http.del(kCms + QStringLiteral("/gone")).code, 404);
    }

    void shouldCheckPreconditions()
    {
        QCOMPARE(m_http.post(kCms, cm(QStringLiteral("pre"))).code, 201);
        const QJsonObject body{
            {QStringLiteral("preconditions"), QJsonObject{{QStringLiteral("uid"), QStringLiteral("not-the-uid")}}}};
        const HttpReply r = m_http.del(kCms + QStringLiteral("/pre"), body);
        QCOMPARE(r.code, 409);
        QVERIFY(r.json()
                    .value(QLatin1String("message"))
                    .toString()
                    .contains(QLatin1String("Precondition failed: UID in precondition: not-the-uid")));
        QCOMPARE(m_http.get(kCms + QStringLiteral("/pre")).code, 200);
    }

    void shouldKeepObjectsUntilTheLastFinalizerGoes()
    {
        QCOMPARE(m_http
                     .post(kCms,
                         cm(QStringLiteral("fin"), {QStringLiteral("example.com/a"), QStringLiteral("example.com/b")}))
                     .code,
            201);
        const HttpReply r = m_http.del(kCms + QStringLiteral("/fin"));
        QCOMPARE(r.code, 200);
        QJsonObject o = r.json();
        QVERIFY(!meta(o).value(QLatin1String("deletionTimestamp")).toString().isEmpty());
        QCOMPARE(m_http.del(kCms + QStringLiteral("/fin")).code, 200); // repeat: no change
        // Only removals are allowed while terminating.
        QJsonObject added = m_http.get(kCms + QStringLiteral("/fin")).json();
        QJsonObject m = meta(added);
        m.insert(QStringLiteral("finalizers"),
            QJsonArray{
                QStringLiteral("example.com/a"), QStringLiteral("example.com/b"), QStringLiteral("example.com/c")});
        added.insert(QStringLiteral("metadata"), m);
        QCOMPARE(m_http.put(kCms + QStringLiteral("/fin"), added).code, 422);
        // deletionTimestamp cannot be removed.
        QJsonObject cleared = m_http.get(kCms + QStringLiteral("/fin")).json();
        m = meta(cleared);
        m.remove(QStringLiteral("deletionTimestamp"));
        m.insert(QStringLiteral("finalizers"), QJsonArray{QStringLiteral("example.com/b")});
        cleared.insert(QStringLiteral("metadata"), m);
        const QJsonObject after = m_http.put(kCms + QStringLiteral("/fin"), cleared).json();
        QVERIFY(!meta(after).value(QLatin1String("deletionTimestamp")).toString().isEmpty());
        const HttpReply last = m_http.call("PATCH", kCms + QStringLiteral("/fin"),
            R"({"metadata":{"finalizers":null}})", "application/merge-patch+json");
        QCOMPARE(last.code, 200);
        QCOMPARE(m_http.get(kCms + QStringLiteral("/fin")).code, 404);
    }

    void shouldAddPropagationFinalizers_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("finalizer");
        QTest::newRow("foreground") << "Foreground"
                                    << "foregroundDeletion";
        QTest::newRow("orphan") << "Orphan"
                                << "orphan";
    }
    void shouldAddPropagationFinalizers()
    {
        QFETCH(QString, policy);
        QFETCH(QString, finalizer);
        const QString name = policy.toLower() + QStringLiteral("-owner");
        const QJsonObject owner = m_http.post(kCms, cm(name)).json();
        const QJsonObject ref{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("name"), name},
            {QStringLiteral("uid"), meta(owner).value(QLatin1String("uid"))},
            {QStringLiteral("blockOwnerDeletion"), true}};
        QCOMPARE(m_http.post(kCms, cm(name + QStringLiteral("-dep"), {}, {ref})).code, 201);
        const HttpReply r = m_http.del(kCms + u'/' + name, {{QStringLiteral("propagationPolicy"), policy}});
        QCOMPARE(r.code, 200);
        QVERIFY(meta(r.json()).value(QLatin1String("finalizers")).toArray().contains(finalizer));
        // The garbage collector finishes the job: owner gone; dependent deleted (foreground) or kept without the
        // reference (orphan).
        QVERIFY(QTest::qWaitFor([&]() { return m_http.get(kCms + u'/' + name).code == 404; }, 5000));
        const HttpReply dep = m_http.get(kCms + u'/' + name + QStringLiteral("-dep"));
        if (policy == QLatin1String("Orphan")) {
            QCOMPARE(dep.code, 200);
            QVERIFY(meta(dep.json()).value(QLatin1String("ownerReferences")).toArray().isEmpty());
        } else {
            QCOMPARE(dep.code, 404);
        }
    }

    void shouldCollectDependentsInBackground()
    {
        const QJsonObject owner = m_http.post(kCms, cm(QStringLiteral("bg-owner"))).json();
        const QJsonObject ref{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("name"), QStringLiteral("bg-owner")},
            {QStringLiteral("uid"), meta(owner).value(QLatin1String("uid"))}};
        QCOMPARE(m_http.post(kCms, cm(QStringLiteral("bg-dep"), {}, {ref})).code, 201);
        QCOMPARE(m_http.del(kCms + QStringLiteral("/bg-owner")).code, 200);
        QVERIFY(QTest::qWaitFor([&]() { return m_http.get(kCms + QStringLiteral("/bg-dep")).code == 404; }, 5000));
    }

    void shouldDeleteCollections()
    {
        for (const char *n : {"col-a", "col-b"}) {
            QJsonObject o = cm(QLatin1String(n));
            QJsonObject m = meta(o);
            m.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("batch"), QStringLiteral("1")}});
            o.insert(QStringLiteral("metadata"), m);
            QCOMPARE(m_http.post(kCms, o).code, 201);
        }
        const HttpReply r = m_http.del(kCms + QStringLiteral("?labelSelector=batch%3D1"));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.json().value(QLatin1String("items")).toArray().size(), 2);
        QCOMPARE(m_http.get(kCms + QStringLiteral("/col-a")).code, 404);
    }

    void shouldNotDeleteOnDryRun()
    {
        QCOMPARE(m_http.post(kCms, cm(QStringLiteral("dry"))).code, 201);
        QCOMPARE(m_http.del(kCms + QStringLiteral("/dry?dryRun=All")).code, 200);
        QCOMPARE(m_http.get(kCms + QStringLiteral("/dry")).code, 200);
    }

    void shouldEmptyAndRemoveDeletedNamespaces()
    {
        const QJsonObject ns{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("scratch")}}}};
        QCOMPARE(m_http.post(QStringLiteral("/api/v1/namespaces"), ns).code, 201);
        QCOMPARE(
            m_http.post(QStringLiteral("/api/v1/namespaces/scratch/configmaps"), cm(QStringLiteral("inside"))).code,
            201);
        const HttpReply r = m_http.del(QStringLiteral("/api/v1/namespaces/scratch"));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.json().value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString(),
            QStringLiteral("Terminating"));
        QVERIFY(QTest::qWaitFor(
            [&]() { return m_http.get(QStringLiteral("/api/v1/namespaces/scratch")).code == 404; }, 5000));
        QCOMPARE(m_http.get(QStringLiteral("/api/v1/namespaces/scratch/configmaps/inside")).code, 404);
    }
};

QTEST_GUILESS_MAIN(TestApiServerDelete)
#include "tst_apiserver_delete.moc"
