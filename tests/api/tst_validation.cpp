// SPDX-License-Identifier: Apache-2.0
#include "engine/api/validation.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;

namespace {
const QString kSubdomainMsg
    = QStringLiteral("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                     "and must start and end with "
                     "an alphanumeric character (e.g. 'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
const QString kLabelMsg = QStringLiteral("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                                         "characters or '-', and must start and end with an "
                                         "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                                         "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
const QString kDns1035Msg = QStringLiteral("a DNS-1035 label must consist of lower case alphanumeric characters or "
                                           "'-', start with an alphabetic character, and end "
                                           "with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used "
                                           "for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
const QString kNamePartMsg = QStringLiteral("name part must consist of alphanumeric characters, '-', '_' or '.', and "
                                            "must start and end with an alphanumeric character "
                                            "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation "
                                            "is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
const QString kLabelValueMsg = QStringLiteral(
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and "
    "end with "
    "an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
} // namespace

class tst_Validation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldCheckSubdomains_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("errors");
        QTest::newRow("simple") << "web" << QStringList{};
        QTest::newRow("dotted") << "web.example.com" << QStringList{};
        QTest::newRow("digits first") << "1web" << QStringList{};
        QTest::newRow("upper") << "Web" << QStringList{kSubdomainMsg};
        QTest::newRow("underscore") << "my_app" << QStringList{kSubdomainMsg};
        QTest::newRow("trailing dash") << "web-" << QStringList{kSubdomainMsg};
        QTest::newRow("empty") << "" << QStringList{kSubdomainMsg};
        QTest::newRow("empty label") << "web..example" << QStringList{kSubdomainMsg};
        QTest::newRow("leading dot") << ".web" << QStringList{kSubdomainMsg};
        // Go's regexp anchors at the very end: a trailing newline is no match (PCRE's $ would allow it)
        QTest::newRow("trailing newline") << "web\n" << QStringList{kSubdomainMsg};
        QTest::newRow("non-ASCII") << QStringLiteral("w\u00e9b") << QStringList{kSubdomainMsg};
        QTest::newRow("254 chars") << QString(254, u'a')
                                   << QStringList{QStringLiteral("must be no more than 253 characters")};
        QTest::newRow("253 chars") << QString(253, u'a') << QStringList{};
        QTest::newRow("too long and bad")
            << QString(254, u'A') << QStringList{QStringLiteral("must be no more than 253 characters"), kSubdomainMsg};
    }
    void shouldCheckSubdomains()
    {
        QFETCH(QString, value);
        QFETCH(QStringList, errors);
        QCOMPARE(isDns1123Subdomain(value), errors);
    }

    void shouldCheckLabelsAndDns1035_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("labelErrors");
        QTest::addColumn<QStringList>("dns1035Errors");
        QTest::newRow("ok") << "my-ns" << QStringList{} << QStringList{};
        QTest::newRow("digit first") << "1ns" << QStringList{} << QStringList{kDns1035Msg};
        QTest::newRow("dot") << "a.b" << QStringList{kLabelMsg} << QStringList{kDns1035Msg};
        QTest::newRow("64") << QString(64, u'a') << QStringList{QStringLiteral("must be no more than 63 characters")}
                            << QStringList{QStringLiteral("must be no more than 63 characters")};
    }
    void shouldCheckLabelsAndDns1035()
    {
        QFETCH(QString, value);
        QFETCH(QStringList, labelErrors);
        QFETCH(QStringList, dns1035Errors);
        QCOMPARE(isDns1123Label(value), labelErrors);
        QCOMPARE(isDns1035Label(value), dns1035Errors);
    }

    void shouldCheckQualifiedNames_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("errors");
        QTest::newRow("plain") << "app" << QStringList{};
        QTest::newRow("prefixed") << "app.kubernetes.io/name" << QStringList{};
        QTest::newRow("mixed case name") << "example.com/MyName" << QStringList{};
        QTest::newRow("empty prefix") << "/name" << QStringList{QStringLiteral("prefix part must be non-empty")};
        QTest::newRow("bad prefix") << "Example.com/name"
                                    << QStringList{QStringLiteral("prefix part ") + kSubdomainMsg};
        QTest::newRow("empty name") << "example.com/"
                                    << QStringList{QStringLiteral("name part must be non-empty"), kNamePartMsg};
        QTest::newRow("bad name") << "-app" << QStringList{kNamePartMsg};
        QTest::newRow("long name") << QString(64, u'a')
                                   << QStringList{QStringLiteral("name part must be no more than 63 characters")};
        QTest::newRow("two slashes")
            << "a/b/c"
            << QStringList{QStringLiteral(
                   "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and "
                   "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
                   "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain "
                   "prefix and '/' (e.g. 'example.com/MyName')")};
    }
    void shouldCheckQualifiedNames()
    {
        QFETCH(QString, value);
        QFETCH(QStringList, errors);
        QCOMPARE(validateQualifiedName(value), errors);
    }

    void shouldCheckLabelValues_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("errors");
        QTest::newRow("empty is fine") << "" << QStringList{};
        QTest::newRow("mixed") << "My_value-1.2" << QStringList{};
        QTest::newRow("space") << "a b" << QStringList{kLabelValueMsg};
        QTest::newRow("slash") << "a/b" << QStringList{kLabelValueMsg};
        QTest::newRow("64") << QString(64, u'x') << QStringList{QStringLiteral("must be no more than 63 characters")};
    }
    void shouldCheckLabelValues()
    {
        QFETCH(QString, value);
        QFETCH(QStringList, errors);
        QCOMPARE(validateLabelValue(value), errors);
    }

    void shouldAllowTrailingDashInGenerateName()
    {
        QVERIFY(validateObjectName(QStringLiteral("web-"), true).isEmpty());
        QVERIFY(!validateObjectName(QStringLiteral("web-"), false).isEmpty());
        QVERIFY(!validateObjectName(QStringLiteral("-"), true).isEmpty());
    }

    void shouldValidateObjectMeta_data()
    {
        QTest::addColumn<QJsonObject>("meta");
        QTest::addColumn<bool>("namespaced");
        QTest::addColumn<QStringList>("fields");
        QTest::addColumn<QStringList>("messages");
        QTest::newRow("valid") << QJsonObject{{"name", "web"}, {"namespace", "default"}} << true << QStringList{}
                               << QStringList{};
        QTest::newRow("no name") << QJsonObject{{"namespace", "default"}} << true << QStringList{"metadata.name"}
                                 << QStringList{"Required value: name or generateName is required"};
        QTest::newRow("bad name") << QJsonObject{{"name", "Bad_Name"}, {"namespace", "default"}} << true
                                  << QStringList{"metadata.name"}
                                  << QStringList{"Invalid value: \"Bad_Name\": " + kSubdomainMsg};
        QTest::newRow("missing namespace")
            << QJsonObject{{"name", "a"}} << true << QStringList{"metadata.namespace"} << QStringList{"Required value"};
        QTest::newRow("namespace on cluster-scoped")
            << QJsonObject{{"name", "a"}, {"namespace", "x"}} << false << QStringList{"metadata.namespace"}
            << QStringList{"Forbidden: not allowed on this type"};
        QTest::newRow("bad label value") << QJsonObject{{"name", "a"}, {"labels", QJsonObject{{"app", "a b"}}}} << false
                                         << QStringList{"metadata.labels"}
                                         << QStringList{"Invalid value: \"a b\": " + kLabelValueMsg};
        QTest::newRow("bad label key") << QJsonObject{{"name", "a"}, {"labels", QJsonObject{{"-x", "v"}}}} << false
                                       << QStringList{"metadata.labels"}
                                       << QStringList{"Invalid value: \"-x\": " + kNamePartMsg};
        QTest::newRow("negative generation")
            << QJsonObject{{"name", "a"}, {"generation", -1}} << false << QStringList{"metadata.generation"}
            << QStringList{"Invalid value: -1: must be greater than or equal to 0"};
        QTest::newRow("owner without uid") << QJsonObject{{"name", "a"},
            {"ownerReferences", QJsonArray{QJsonObject{{"apiVersion", "v1"}, {"kind", "K"}, {"name", "o"}}}}}
                                           << false << QStringList{"metadata.ownerReferences.uid"}
                                           << QStringList{"Invalid value: \"\": uid must not be empty"};
        QTest::newRow("bad finalizer") << QJsonObject{{"name", "a"}, {"finalizers", QJsonArray{"a/b/c"}}} << false
                                       << QStringList{"metadata.finalizers"}
                                       << QStringList{validateQualifiedName("a/b/c").value(0).prepend(
                                              "Invalid value: \"a/b/c\": ")};
    }
    void shouldValidateObjectMeta()
    {
        QFETCH(QJsonObject, meta);
        QFETCH(bool, namespaced);
        QFETCH(QStringList, fields);
        QFETCH(QStringList, messages);
        const QList<StatusCause> causes = validateObjectMeta(meta, namespaced);
        QStringList gotFields, gotMessages;
        for (const StatusCause &c : causes) {
            gotFields << c.field;
            gotMessages << c.message;
        }
        QCOMPARE(gotFields, fields);
        QCOMPARE(gotMessages, messages);
    }

    void shouldProduceServerLikeInvalidStatus()
    {
        const auto causes = validateObjectMeta(QJsonObject{{"name", "Bad"}, {"namespace", "default"}}, true);
        const Status s = Status::invalid(QString(), QStringLiteral("ConfigMap"), QStringLiteral("Bad"), causes);
        QCOMPARE(s.code(), 422);
        QCOMPARE(s.message(),
            QStringLiteral("ConfigMap \"Bad\" is invalid: metadata.name: Invalid value: \"Bad\": ") + kSubdomainMsg);
        QCOMPARE(s.details().causes.first().reason, QStringLiteral("FieldValueInvalid"));
    }

    void shouldLimitTotalAnnotationSize()
    {
        QJsonObject small{{"a", QString(1000, u'x')}};
        QVERIFY(validateAnnotations(small).isEmpty());
        QJsonObject big{{"a", QString(kTotalAnnotationSizeLimit, u'x')}};
        const auto causes = validateAnnotations(big);
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes.first().message, QStringLiteral("Too long: must have at most 262144 bytes"));
        QCOMPARE(causes.first().reason, QStringLiteral("FieldValueTooLong"));
        // Keys are checked case-insensitively (upper-case prefixes are accepted for annotations).
        QVERIFY(validateAnnotations(QJsonObject{{"Example.COM/Key", "v"}}).isEmpty());
    }

    void shouldRejectTwoControllers()
    {
        const QJsonObject ref1{{"apiVersion", "v1"}, {"kind", "A"}, {"name", "a"}, {"uid", "1"}, {"controller", true}};
        const QJsonObject ref2{{"apiVersion", "v1"}, {"kind", "B"}, {"name", "b"}, {"uid", "2"}, {"controller", true}};
        const auto causes
            = validateObjectMeta(QJsonObject{{"name", "x"}, {"ownerReferences", QJsonArray{ref1, ref2}}}, false);
        QCOMPARE(causes.size(), 1);
        QVERIFY(causes.first().message.contains(QLatin1String("Only one reference can have Controller set to true")));
        QVERIFY(causes.first().message.contains(QLatin1String("A/a and B/b")));
    }
};

QTEST_GUILESS_MAIN(tst_Validation)
#include "tst_validation.moc"
