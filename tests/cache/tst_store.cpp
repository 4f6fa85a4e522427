// SPDX-License-Identifier: Apache-2.0
#include "engine/cache/store.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;

namespace {
Object pod(const QString &ns, const QString &name, const QString &node, const QString &ownerUid = {})
{
    QJsonObject meta{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), ns}};
    if (!ownerUid.isEmpty())
        meta.insert(QStringLiteral("ownerReferences"),
            QJsonArray{QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
                {QStringLiteral("kind"), QStringLiteral("ReplicaSet")}, {QStringLiteral("name"), QStringLiteral("rs")},
                {QStringLiteral("uid"), ownerUid}}});
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Pod")}, {QStringLiteral("metadata"), meta},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("nodeName"), node}}}});
}

QStringList names(QList<Object> objs)
{
    QStringList out;
    for (const Object &o : objs)
        out << o.key();
    out.sort();
    return out;
}
} // namespace

class tst_Store : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldKeyByNamespaceAndName()
    {
        Store s;
        QVERIFY(s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"))).isNull());
        QCOMPARE(s.get(QStringLiteral("a/p1")).name(), QStringLiteral("p1"));
        const Object prev = s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n2")));
        QCOMPARE(prev.value({QLatin1String("spec"), QLatin1String("nodeName")}).toString(), QStringLiteral("n1"));
        QCOMPARE(s.size(), 1);
        QVERIFY(s.bytesHeld() > 0);
        QCOMPARE(s.remove(QStringLiteral("a/p1")).name(), QStringLiteral("p1"));
        QVERIFY(s.remove(QStringLiteral("a/p1")).isNull());
        QCOMPARE(s.bytesHeld(), 0);
    }

    // The store holds no key strings: it reads each object's key from the object itself. Keys
    // that need decoding (escapes, non-ASCII) and cluster-scoped keys must still find their object.
    void shouldFindObjectsByKeysReadFromTheObject_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("key");
        QTest::newRow("namespaced") << QByteArray(R"({"metadata":{"namespace":"ns","name":"web-1"}})") << "ns/web-1";
        QTest::newRow("cluster-scoped") << QByteArray(R"({"metadata":{"name":"web-1"}})") << "web-1";
        QTest::newRow("escaped name") << QByteArray("{\"metadata\":{\"namespace\":\"ns\",\"name\":\"a\\u0042c\"}}")
                                      << "ns/aBc";
        QTest::newRow("non-ASCII name") << QByteArray("{\"metadata\":{\"namespace\":\"ns\",\"name\":\"caf\xc3\xa9\"}}")
                                        << QStringLiteral("ns/caf\u00e9");
        QTest::newRow("timestamp-shaped name")
            << QByteArray(R"({"metadata":{"name":"2024-05-01T10:00:00Z"}})") << "2024-05-01T10:00:00Z";
    }
    void shouldFindObjectsByKeysReadFromTheObject()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, key);
        const Object o = Object::parse(json).value();
        QCOMPARE(o.key(), key);
        QCOMPARE(o.keyHash(), objectKeyHash(key));
        QVERIFY(o.hasKey(key));
        QVERIFY(!o.hasKey(key + u'x'));
        QVERIFY(!o.hasKey(QStringLiteral("other/") + key));
        Store s;
        s.upsert(o);
        s.upsert(pod(QStringLiteral("ns"), QStringLiteral("web-2"), QStringLiteral("n1")));
        s.upsert(pod(QStringLiteral("other"), QStringLiteral("web-1"), QStringLiteral("n1")));
        QVERIFY(s.contains(key));
        QVERIFY(s.get(key).sameKey(o));
        QCOMPARE(s.get(key).toJsonBytes(), o.toJsonBytes());
        QCOMPARE(s.find(Object::parse(json).value()).toJsonBytes(), o.toJsonBytes());
        QVERIFY(s.keys().contains(key));
        QCOMPARE(s.remove(key).toJsonBytes(), o.toJsonBytes());
        QVERIFY(!s.contains(key));
        QCOMPARE(s.size(), 2);
    }

    void namespaceAndOwnerIndexesFollowUpdates()
    {
        Store s;
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"), QStringLiteral("rs-1")));
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p2"), QStringLiteral("n1"), QStringLiteral("rs-2")));
        s.upsert(pod(QStringLiteral("b"), QStringLiteral("p3"), QStringLiteral("n2"), QStringLiteral("rs-1")));
        QCOMPARE(
            names(s.listNamespace(QStringLiteral("a"))), (QStringList{QStringLiteral("a/p1"), QStringLiteral("a/p2")}));
        QCOMPARE(names(s.byIndex(QString::fromLatin1(Store::OwnerUidIndex), QStringLiteral("rs-1"))),
            (QStringList{QStringLiteral("a/p1"), QStringLiteral("b/p3")}));
        // Re-owning p1 moves it between index values.
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"), QStringLiteral("rs-2")));
        QCOMPARE(names(s.byIndex(QString::fromLatin1(Store::OwnerUidIndex), QStringLiteral("rs-1"))),
            QStringList{QStringLiteral("b/p3")});
        s.remove(QStringLiteral("b/p3"));
        QVERIFY(!s.listIndexFuncValues(QString::fromLatin1(Store::OwnerUidIndex)).contains(QStringLiteral("rs-1")));
    }

    void userIndexersIndexExistingObjectsAndRefuseDuplicates()
    {
        Store s;
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1")));
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p2"), QStringLiteral("n2")));
        const IndexFunc byNode = [](const Object &o) {
            return QStringList{o.value({QLatin1String("spec"), QLatin1String("nodeName")}).toString()};
        };
        QVERIFY(s.addIndexers({{QStringLiteral("field:spec.nodeName"), byNode}}).ok());
        QCOMPARE(names(s.byIndex(QStringLiteral("field:spec.nodeName"), QStringLiteral("n2"))),
            QStringList{QStringLiteral("a/p2")});
        const auto dup = s.addIndexers({{QStringLiteral("field:spec.nodeName"), byNode}});
        QVERIFY(!dup.ok());
        QVERIFY(dup.error().message().contains(QLatin1String("field:spec.nodeName")));
        const auto nsDup = s.addIndexers({{QString::fromLatin1(Store::NamespaceIndex), byNode}});
        QVERIFY(!nsDup.ok());
    }

    void replaceReportsWhatDisappeared()
    {
        Store s;
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1")));
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p2"), QStringLiteral("n1")));
        const QList<Object> gone = s.replace({pod(QStringLiteral("a"), QStringLiteral("p2"), QStringLiteral("n1")),
            pod(QStringLiteral("c"), QStringLiteral("p9"), QStringLiteral("n1"))});
        QCOMPARE(names(gone), QStringList{QStringLiteral("a/p1")});
        QCOMPARE(names(s.list()), (QStringList{QStringLiteral("a/p2"), QStringLiteral("c/p9")}));
        QCOMPARE(names(s.listNamespace(QStringLiteral("c"))), QStringList{QStringLiteral("c/p9")});
    }
};

QTEST_GUILESS_MAIN(tst_Store)
#include "tst_store.moc"
