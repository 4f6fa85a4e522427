// SPDX-License-Identifier: Apache-2.0
#include "engine/api/labelselector.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;

namespace {
Labels L(std::initializer_list<std::pair<const char *, const char *>> kv)
{
    Labels out;
    for (const auto &p : kv)
        out.insert(QString::fromUtf8(p.first), QString::fromUtf8(p.second));
    return out;
}
} // namespace

class tst_LabelSelector : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldMatch_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<Labels>("labels");
        QTest::addColumn<bool>("matches");
        const Labels web = L({{"app", "web"}, {"tier", "front"}, {"replicas", "3"}});
        QTest::newRow("empty matches all") << "" << web << true;
        QTest::newRow("equals") << "app=web" << web << true;
        QTest::newRow("double equals") << "app==web" << web << true;
        QTest::newRow("equals other") << "app=db" << web << false;
        QTest::newRow("not equals") << "app!=db" << web << true;
        QTest::newRow("not equals same") << "app!=web" << web << false;
        QTest::newRow("not equals missing key") << "env!=prod" << web << true;
        QTest::newRow("in") << "tier in (back,front)" << web << true;
        QTest::newRow("in miss") << "tier in (back)" << web << false;
        QTest::newRow("in missing key") << "env in (prod)" << web << false;
        QTest::newRow("notin") << "tier notin (back)" << web << true;
        QTest::newRow("notin hit") << "tier notin (front)" << web << false;
        QTest::newRow("notin missing key") << "env notin (prod)" << web << true;
        QTest::newRow("exists") << "app" << web << true;
        QTest::newRow("exists missing") << "env" << web << false;
        QTest::newRow("not exists") << "!env" << web << true;
        QTest::newRow("not exists present") << "!app" << web << false;
        QTest::newRow("gt") << "replicas>2" << web << true;
        QTest::newRow("gt equal") << "replicas>3" << web << false;
        QTest::newRow("lt") << "replicas<5" << web << true;
        QTest::newRow("gt non-integer label") << "app>1" << web << false;
        QTest::newRow("gt missing") << "x>1" << web << false;
        QTest::newRow("and all") << "app=web,tier=front" << web << true;
        QTest::newRow("and one fails") << "app=web,tier=back" << web << false;
        QTest::newRow("whitespace") << "  app = web ,  tier  in ( front , back )  " << web << true;
        QTest::newRow("empty value") << "app=" << L({{"app", ""}}) << true;
        QTest::newRow("empty set value") << "app in ()" << L({{"app", ""}}) << true;
        QTest::newRow("keyword as value") << "app in (in,notin)" << L({{"app", "notin"}}) << true;
        QTest::newRow("prefixed key") << "app.kubernetes.io/name=web" << L({{"app.kubernetes.io/name", "web"}}) << true;
    }
    void shouldMatch()
    {
        QFETCH(QString, selector);
        QFETCH(Labels, labels);
        QFETCH(bool, matches);
        auto s = LabelSelector::parse(selector);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message()));
        QCOMPARE(s->matches(labels), matches);
    }

    void shouldRoundTripCanonically_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("sorted by key") << "b=1,a=2"
                                       << "a=2,b=1";
        QTest::newRow("set sorted and deduplicated") << "x in (c,a,b,a)"
                                                     << "x in (a,b,c)";
        QTest::newRow("all operators") << "a=1,b==2,c!=3,d in (x),e notin (y),f,!g,h>1,i<5"
                                       << "a=1,b==2,c!=3,d in (x),e notin (y),f,!g,h>1,i<5";
        QTest::newRow("spaces dropped") << " a = 1 "
                                        << "a=1";
        QTest::newRow("empty values") << "a in (,x)"
                                      << "a in (,x)";
    }
    void shouldRoundTripCanonically()
    {
        QFETCH(QString, selector);
        QFETCH(QString, canonical);
        auto s = LabelSelector::parse(selector);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message()));
        QCOMPARE(s->toString(), canonical);
        auto again = LabelSelector::parse(s->toString());
        QVERIFY(again.ok());
        QCOMPARE(again.value(), s.value());
    }

    void shouldRejectBadSyntax_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<QString>("message");
        QTest::newRow("dangling comma") << "a=b,"
                                        << "found '', expected: identifier after ','";
        QTest::newRow("leading operator") << "=b"
                                          << "found '=', expected: !, identifier, or 'end of string'";
        QTest::newRow("missing paren") << "a in b"
                                       << "unable to parse requirement: found 'b' expected: '('";
        QTest::newRow("unclosed set") << "a in (b"
                                      << "unable to parse requirement: found '', expected: ',' or ')'";
        QTest::newRow("two words") << "a b"
                                   << "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt";
        QTest::newRow("not then equals") << "!a=b"
                                         << "found '=', expected: ',' or 'end of string'";
        QTest::newRow("bad operator")
            << "a (b)"
            << "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt";
        QTest::newRow("gt needs integer")
            << "a>b"
            << "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, "
               "the value must be an integer";
    }
    void shouldRejectBadSyntax()
    {
        QFETCH(QString, selector);
        QFETCH(QString, message);
        auto s = LabelSelector::parse(selector);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().code(), 400);
        QCOMPARE(s.error().reason(), QStringLiteral("BadRequest"));
        QCOMPARE(s.error().message(), message);
    }

    void shouldValidateKeysAndValues()
    {
        auto badKey = LabelSelector::parse(QStringLiteral("a/b/c=x"));
        QVERIFY(!badKey.ok());
        QVERIFY2(badKey.error().message().startsWith(
                     QLatin1String("unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name")),
            qPrintable(badKey.error().message()));
        auto badValue = LabelSelector::parse(QStringLiteral("app=-x-"));
        QVERIFY(!badValue.ok());
        QVERIFY2(badValue.error().message().startsWith(QLatin1String(
                     "unable to parse requirement: values[0][app]: Invalid value: \"-x-\": a valid label must be")),
            qPrintable(badValue.error().message()));
    }

    void shouldConvertJsonForm()
    {
        const QJsonObject json{{"matchLabels", QJsonObject{{"app", "web"}}},
            {"matchExpressions",
                QJsonArray{QJsonObject{{"key", "tier"}, {"operator", "In"}, {"values", QJsonArray{"front", "edge"}}},
                    QJsonObject{{"key", "legacy"}, {"operator", "DoesNotExist"}}}}};
        auto s = LabelSelector::fromJson(json);
        QVERIFY(s.ok());
        QCOMPARE(s->toString(), QStringLiteral("app=web,!legacy,tier in (edge,front)"));
        QVERIFY(s->matches(L({{"app", "web"}, {"tier", "edge"}})));
        QVERIFY(!s->matches(L({{"app", "web"}, {"tier", "edge"}, {"legacy", "1"}})));
        QCOMPARE(s->requiresExactMatch(QStringLiteral("app")), std::optional<QString>(QStringLiteral("web")));
        QCOMPARE(s->requiresExactMatch(QStringLiteral("tier")), std::nullopt);
        QVERIFY(LabelSelector::fromJson(QJsonObject{}).value().isEmpty());
    }

    void shouldRejectBadJsonForm_data()
    {
        QTest::addColumn<QJsonObject>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown operator")
            << QJsonObject{{"matchExpressions", QJsonArray{QJsonObject{{"key", "a"}, {"operator", "Equals"}}}}}
            << "\"Equals\" is not a valid label selector operator";
        QTest::newRow("in without values")
            << QJsonObject{{"matchExpressions", QJsonArray{QJsonObject{{"key", "a"}, {"operator", "In"}}}}}
            << "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty";
        QTest::newRow("exists with values")
            << QJsonObject{{"matchExpressions",
                   QJsonArray{QJsonObject{{"key", "a"}, {"operator", "Exists"}, {"values", QJsonArray{"x"}}}}}}
            << "values: Invalid value: []string{\"x\"}: values set must be empty for exists and does not exist";
    }
    void shouldRejectBadJsonForm()
    {
        QFETCH(QJsonObject, json);
        QFETCH(QString, message);
        auto s = LabelSelector::fromJson(json);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().message(), message);
    }

    void shouldExposeRequirementsForIndexes()
    {
        auto s = LabelSelector::parse(QStringLiteral("tier in (a,b),app=web")).value();
        QCOMPARE(s.requirements().size(), 2);
        QCOMPARE(s.requirements().at(0).key, QStringLiteral("app"));
        QVERIFY(s.requirements().at(0).isExactMatch());
        QCOMPARE(s.requirements().at(1).op, LabelRequirement::Op::In);
        QCOMPARE(s.requirements().at(1).values, (QStringList{"a", "b"}));
        QVERIFY(!s.requirements().at(1).isExactMatch());
    }

    void shouldHandleNothingAndFromLabels()
    {
        QVERIFY(!LabelSelector::nothing().matches({}));
        QVERIFY(!LabelSelector::nothing().isEmpty());
        const auto s = LabelSelector::fromLabels(L({{"b", "2"}, {"a", "1"}}));
        QCOMPARE(s.toString(), QStringLiteral("a=1,b=2"));
        QVERIFY(s.matches(L({{"a", "1"}, {"b", "2"}, {"c", "3"}})));
    }
};

QTEST_GUILESS_MAIN(tst_LabelSelector)
#include "tst_labelselector.moc"
