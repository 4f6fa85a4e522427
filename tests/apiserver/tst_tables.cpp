// SPDX-License-Identifier: Apache-2.0
// Table cells computed from objects: the pod STATUS/READY/RESTARTS rules kubectl shows, and the
// JSONPath subset of CRD printer columns.
#include "engine/apiserver/transform/tables.h"

#include "engine/api/timeformat.h"

#include <QJsonDocument>
#include <QtTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

ResourceType podType()
{
    ResourceType t;
    t.mapping.gvr = {QString(), QStringLiteral("v1"), QStringLiteral("pods")};
    t.mapping.kind = QStringLiteral("Pod");
    return t;
}

QJsonObject podRow(const char *json, const QDateTime &now)
{
    const QJsonObject o = QJsonDocument::fromJson(QByteArray(json)).object();
    const QJsonArray cols = tableColumns(podType());
    const QJsonArray cells = tableRow(podType(), Object::fromJson(o), now).value(QLatin1String("cells")).toArray();
    QJsonObject out;
    for (qsizetype i = 0; i < cols.size(); ++i)
        out.insert(cols.at(i).toObject().value(QLatin1String("name")).toString(), cells.at(i));
    return out;
}

} // namespace

class TestTables : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldPrintPodStatusLikeKubectl_data()
    {
        QTest::addColumn<QByteArray>("pod");
        QTest::addColumn<QString>("ready");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("restarts");
        const QByteArray meta
            = R"("metadata":{"name":"p","creationTimestamp":"2026-01-01T00:00:00Z"},"spec":{"containers":[{"name":"a"},{"name":"b"}]})";
        QTest::newRow("running") << QByteArray("{" + meta + R"(,"status":{"phase":"Running","containerStatuses":[
            {"name":"a","ready":true,"restartCount":0,"state":{"running":{}}},{"name":"b","ready":true,"restartCount":0,"state":{"running":{}}}]}})")
                                 << "2/2"
                                 << "Running"
                                 << "0";
        QTest::newRow("image pull") << QByteArray("{" + meta + R"(,"status":{"phase":"Pending","containerStatuses":[
            {"name":"a","ready":false,"restartCount":0,"state":{"waiting":{"reason":"ImagePullBackOff"}}},{"name":"b","ready":true,"restartCount":0,"state":{"running":{}}}]}})")
                                    << "1/2"
                                    << "ImagePullBackOff"
                                    << "0";
        QTest::newRow("crash loop") << QByteArray("{" + meta + R"(,"status":{"phase":"Running","containerStatuses":[
            {"name":"a","ready":false,"restartCount":4,"state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-01-01T00:50:00Z"}}},
            {"name":"b","ready":true,"restartCount":1,"state":{"running":{}}}]}})")
                                    << "1/2"
                                    << "CrashLoopBackOff"
                                    << "5 (10m ago)";
        QTest::newRow("exit code") << QByteArray("{" + meta + R"(,"status":{"phase":"Failed","containerStatuses":[
            {"name":"a","ready":false,"restartCount":0,"state":{"terminated":{"exitCode":2}}}]}})")
                                   << "0/2"
                                   << "ExitCode:2"
                                   << "0";
        QTest::newRow("terminating") << QByteArray(
            R"({"metadata":{"name":"p","creationTimestamp":"2026-01-01T00:00:00Z","deletionTimestamp":"2026-01-01T00:59:00Z"},
            "spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running","containerStatuses":[{"name":"a","ready":true,"restartCount":0,"state":{"running":{}}}]}})")
                                     << "1/1"
                                     << "Terminating"
                                     << "0";
        QTest::newRow("pending, no status") << QByteArray("{" + meta + R"(,"status":{"phase":"Pending"}})") << "0/2"
                                            << "Pending"
                                            << "0";
    }
    void shouldPrintPodStatusLikeKubectl()
    {
        QFETCH(QByteArray, pod);
        QFETCH(QString, ready);
        QFETCH(QString, status);
        QFETCH(QString, restarts);
        const QDateTime now = parseTimestamp(QStringLiteral("2026-01-01T01:00:00Z"));
        const QJsonObject r = podRow(pod.constData(), now);
        QCOMPARE(r.value(QLatin1String("Ready")).toString(), ready);
        QCOMPARE(r.value(QLatin1String("Status")).toString(), status);
        QCOMPARE(r.value(QLatin1String("Restarts")).toString(), restarts);
        QCOMPARE(r.value(QLatin1String("Age")).toString(), QStringLiteral("60m"));
        QCOMPARE(r.value(QLatin1String("Node")).toString(), QStringLiteral("<none>"));
    }

    void shouldEvaluateJsonPath()
    {
        const QJsonObject o = QJsonDocument::fromJson(
            R"({"status":{"conditions":[{"type":"A","status":"False"},{"type":"Ready","status":"True","n":2}]},
                                                          "spec":{"list":[{"x":1},{"x":2}],"m":{"k.dot":"v"}}})")
                                  .object();
        QCOMPARE(jsonPathValues(o, QStringLiteral(".status.conditions[?(@.type==\"Ready\")].status")),
            QJsonArray{QStringLiteral("True")});
        QCOMPARE(jsonPathValues(o, QStringLiteral("{.status.conditions[?(@.type=='A')].status}")),
            QJsonArray{QStringLiteral("False")});
        QCOMPARE(jsonPathValues(o, QStringLiteral(".status.conditions[?(@.n==2)].type")),
            QJsonArray{QStringLiteral("Ready")});
        QCOMPARE(jsonPathValues(o, QStringLiteral(".spec.list[*].x")), (QJsonArray{1, 2}));
        QCOMPARE(jsonPathValues(o, QStringLiteral(".spec.list[-1].x")), QJsonArray{2});
        QCOMPARE(jsonPathValues(o, QStringLiteral(".spec.m['k.dot']")), QJsonArray{QStringLiteral("v")});
        QVERIFY(jsonPathValues(o, QStringLiteral(".spec.none.deeper")).isEmpty());
        QVERIFY(jsonPathValues(o, QStringLiteral(".spec.list[5]")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTables)
#include "tst_tables.moc"
