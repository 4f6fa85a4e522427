// SPDX-License-Identifier: Apache-2.0
#include "engine/api/fieldselector.h"

#include <QTest>

using namespace opbench;

using Fields = QHash<QString, QString>;

class tst_FieldSelector : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldMatch_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<Fields>("fields");
        QTest::addColumn<bool>("matches");
        const Fields pod{{"metadata.name", "web-1"}, {"metadata.namespace", "shop"}, {"status.phase", "Running"}};
        QTest::newRow("empty") << "" << pod << true;
        QTest::newRow("equals") << "metadata.name=web-1" << pod << true;
        QTest::newRow("double equals") << "metadata.name==web-1" << pod << true;
        QTest::newRow("equals miss") << "metadata.name=web-2" << pod << false;
        QTest::newRow("not equals") << "status.phase!=Pending" << pod << true;
        QTest::newRow("not equals hit") << "status.phase!=Running" << pod << false;
        QTest::newRow("and") << "metadata.namespace=shop,status.phase=Running" << pod << true;
        QTest::newRow("and fails") << "metadata.namespace=shop,status.phase=Failed" << pod << false;
        QTest::newRow("missing field is empty") << "spec.nodeName=" << pod << true;
        QTest::newRow("missing field not equals") << "spec.nodeName!=node1" << pod << true;
        QTest::newRow("escaped comma") << "a=x\\,y" << Fields{{"a", "x,y"}} << true;
        QTest::newRow("escaped equals") << "a=x\\=y" << Fields{{"a", "x=y"}} << true;
        QTest::newRow("escaped backslash") << "a=x\\\\y" << Fields{{"a", "x\\y"}} << true;
        QTest::newRow("skips empty terms") << "a=1,,b=2" << Fields{{"a", "1"}, {"b", "2"}} << true;
    }
    void shouldMatch()
    {
        QFETCH(QString, selector);
        QFETCH(Fields, fields);
        QFETCH(bool, matches);
        auto s = FieldSelector::parse(selector);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message()));
        QCOMPARE(s->matches(fields), matches);
        QCOMPARE(s->matches([&fields](const QString &f) -> std::optional<QString> {
            return fields.contains(f) ? std::optional<QString>(fields.value(f)) : std::nullopt;
        }),
            matches);
    }

    void shouldRejectBadSelectors_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<QString>("message");
        QTest::newRow("no operator") << "metadata.name"
                                     << "invalid selector: 'metadata.name'; can't understand 'metadata.name'";
        QTest::newRow("no operator second term") << "a=b,c"
                                                 << "invalid selector: 'a=b,c'; can't understand 'c'";
        QTest::newRow("bad escape") << "a=x\\y"
                                    << "invalid field selector: invalid escape sequence: \\y";
        QTest::newRow("trailing backslash") << "a=x\\"
                                            << "invalid field selector: invalid escape sequence: \\";
        QTest::newRow("unescaped equals") << "a=b=c"
                                          << "invalid field selector: unescaped character in value: '=' in 'b=c'";
    }
    void shouldRejectBadSelectors()
    {
        QFETCH(QString, selector);
        QFETCH(QString, message);
        auto s = FieldSelector::parse(selector);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().code(), 400);
        QCOMPARE(s.error().message(), message);
    }

    void shouldRoundTrip_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("sorted") << "b=2,a=1"
                                << "a=1,b=2";
        QTest::newRow("double equals normalised") << "a==1"
                                                  << "a=1";
        QTest::newRow("escapes kept") << "a=x\\,y\\=z\\\\"
                                      << "a=x\\,y\\=z\\\\";
        QTest::newRow("not equals") << "status.phase!=Running"
                                    << "status.phase!=Running";
    }
    void shouldRoundTrip()
    {
        QFETCH(QString, selector);
        QFETCH(QString, canonical);
        auto s = FieldSelector::parse(selector);
        QVERIFY(s.ok());
        QCOMPARE(s->toString(), canonical);
        QCOMPARE(FieldSelector::parse(s->toString()).value(), s.value());
    }

    void shouldExposeRequirements()
    {
        auto s = FieldSelector::parse(QStringLiteral("metadata.name=web,status.phase!=Failed")).value();
        QCOMPARE(s.requirements().size(), 2);
        QCOMPARE(s.requiresExactMatch(QStringLiteral("metadata.name")), std::optional<QString>(QStringLiteral("web")));
        QCOMPARE(s.requiresExactMatch(QStringLiteral("status.phase")), std::nullopt);
        QCOMPARE(
            FieldSelector::equals(QStringLiteral("a"), QStringLiteral("x,y")).toString(), QStringLiteral("a=x\\,y"));
    }

    void shouldGiveMetadataFieldsOfAnyObject()
    {
        const Object ns
            = Object::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"shop"}})")
                  .value();
        const Fields f = fieldsOf(ns);
        QCOMPARE(f.value(QStringLiteral("metadata.name")), QStringLiteral("c"));
        QCOMPARE(f.value(QStringLiteral("metadata.namespace")), QStringLiteral("shop"));
        const Object cluster
            = Object::parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop"}})").value();
        QVERIFY(!fieldsOf(cluster).contains(QStringLiteral("metadata.namespace")));
        QVERIFY(FieldSelector::parse(QStringLiteral("metadata.name=c,metadata.namespace=shop")).value().matches(f));
    }
};

QTEST_GUILESS_MAIN(tst_FieldSelector)
#include "tst_fieldselector.moc"
