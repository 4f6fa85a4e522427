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
                                           {QStringLiteral("kind"), QStringLiteral("ReplicaSet")},
                                           {QStringLiteral("name"), QStringLiteral("rs")},
                                           {QStringLiteral("uid"), ownerUid}}});
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                             {QStringLiteral("kind"), QStringLiteral("Pod")},
                             {QStringLiteral("metadata"), meta},
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

    void namespaceAndOwnerIndexesFollowUpdates()
    {
        Store s;
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"), QStringLiteral("rs-1")));
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p2"), QStringLiteral("n1"), QStringLiteral("rs-2")));
        s.upsert(pod(QStringLiteral("b"), QStringLiteral("p3"), QStringLiteral("n2"), QStringLiteral("rs-1")));
        QCOMPARE(names(s.listNamespace(QStringLiteral("a"))), (QStringList{QStringLiteral("a/p1"), QStringLiteral("a/p2")}));
        QCOMPARE(names(s.byIndex(QString::fromLatin1(Store::OwnerUidIndex), QStringLiteral("rs-1"))),
                 (QStringList{QStringLiteral("a/p1"), QStringLiteral("b/p3")}));
        // Re-owning p1 moves it between index values.
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1"), QStringLiteral("rs-2")));
        QCOMPARE(names(s.byIndex(QString::fromLatin1(Store::OwnerUidIndex), QStringLiteral("rs-1"))), QStringList{QStringLiteral("b/p3")});
        s.remove(QStringLiteral("b/p3"));
        QVERIFY(!s.listIndexFuncValues(QString::fromLatin1(Store::OwnerUidIndex)).contains(QStringLiteral("rs-1")));
    }

    void userIndexersIndexExistingObjectsAndRefuseDuplicates()
    {
        Store s;
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p1"), QStringLiteral("n1")));
        s.upsert(pod(QStringLiteral("a"), QStringLiteral("p2"), QStringLiteral("n2")));
        const IndexFunc byNode = [](const Object &o) { return QStringList{o.value({QLatin1String("spec"), QLatin1String("nodeName")}).toString()}; };
        QVERIFY(s.addIndexers({{QStringLiteral("field:spec.nodeName"), byNode}}).ok());
        QCOMPARE(names(s.byIndex(QStringLiteral("field:spec.nodeName"), QStringLiteral("n2"))), QStringList{QStringLiteral("a/p2")});
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
