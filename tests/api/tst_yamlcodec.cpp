// SPDX-License-Identifier: Apache-2.0
#include "engine/api/yamlcodec.h"
#include "tests/support/aliasbomb.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;

class tst_YamlCodec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldResolvePlainScalarsLikeKubernetes_data()
    {
        QTest::addColumn<QByteArray>("yamlValue");
        QTest::addColumn<QJsonValue>("expected");
        QTest::newRow("int") << QByteArray("2") << QJsonValue(2);
        QTest::newRow("negative") << QByteArray("-7") << QJsonValue(-7);
        QTest::newRow("underscores") << QByteArray("1_000") << QJsonValue(1000);
        QTest::newRow("hex") << QByteArray("0x1F") << QJsonValue(31);
        QTest::newRow("octal") << QByteArray("0755") << QJsonValue(493);
        QTest::newRow("binary") << QByteArray("0b101") << QJsonValue(5);
        QTest::newRow("big int") << QByteArray("9007199254740993") << QJsonValue(qint64(9007199254740993LL));
        QTest::newRow("float") << QByteArray("1.5") << QJsonValue(1.5);
        QTest::newRow("exp") << QByteArray("1e3") << QJsonValue(1000.0);
        QTest::newRow("dot float") << QByteArray(".5") << QJsonValue(0.5);
        QTest::newRow("true") << QByteArray("true") << QJsonValue(true);
        QTest::newRow("True") << QByteArray("True") << QJsonValue(true);
        QTest::newRow("yes") << QByteArray("yes") << QJsonValue(true);
        QTest::newRow("on") << QByteArray("on") << QJsonValue(true);
        QTest::newRow("off") << QByteArray("off") << QJsonValue(false);
        QTest::newRow("NO") << QByteArray("NO") << QJsonValue(false);
        QTest::newRow("null") << QByteArray("null") << QJsonValue(QJsonValue::Null);
        QTest::newRow("tilde") << QByteArray("~") << QJsonValue(QJsonValue::Null);
        QTest::newRow("empty") << QByteArray("") << QJsonValue(QJsonValue::Null);
        QTest::newRow("quoted int") << QByteArray("\"123\"") << QJsonValue(QStringLiteral("123"));
        QTest::newRow("single quoted bool") << QByteArray("'true'") << QJsonValue(QStringLiteral("true"));
        QTest::newRow("quoted empty") << QByteArray("\"\"") << QJsonValue(QString());
        QTest::newRow("str tag") << QByteArray("!!str 12") << QJsonValue(QStringLiteral("12"));
        QTest::newRow("int tag") << QByteArray("!!int \"12\"") << QJsonValue(12);
        QTest::newRow("word") << QByteArray("nginx:1.25") << QJsonValue(QStringLiteral("nginx:1.25"));
        QTest::newRow("version-like") << QByteArray("1.2.3") << QJsonValue(QStringLiteral("1.2.3"));
        QTest::newRow("timestamp stays string")
            << QByteArray("2024-05-01T10:00:00Z") << QJsonValue(QStringLiteral("2024-05-01T10:00:00Z"));
        QTest::newRow("underscore word") << QByteArray("_1") << QJsonValue(QStringLiteral("_1"));
        QTest::newRow("literal block") << QByteArray("|\n  a\n  b") << QJsonValue(QStringLiteral("a\nb\n"));
        QTest::newRow("folded strip") << QByteArray(">-\n  a\n  b") << QJsonValue(QStringLiteral("a b"));
    }
    void shouldResolvePlainScalarsLikeKubernetes()
    {
        QFETCH(QByteArray, yamlValue);
        QFETCH(QJsonValue, expected);
        auto docs = yamlToJson("v: " + yamlValue + "\n");
        QVERIFY2(docs.ok(), qPrintable(docs.ok() ? QString() : docs.error().message()));
        QCOMPARE(docs->size(), 1);
        const QJsonValue got = docs->first().value(QLatin1String("v"));
        QCOMPARE(got.type(), expected.type());
        QCOMPARE(got, expected);
    }

    void shouldReadMultiDocumentFilesSkippingEmptyOnes()
    {
        const QByteArray yaml = "# leading comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n# "
                                "only a comment\n---\n"
                                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: \"on\"\n...\n";
        auto docs = yamlToJson(yaml);
        QVERIFY2(docs.ok(), qPrintable(docs.ok() ? QString() : docs.error().message()));
        QCOMPARE(docs->size(), 2);
        QCOMPARE(docs->at(0).value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString(),
            QStringLiteral("a"));
        QCOMPARE(docs->at(1).value(QLatin1String("data")).toObject().value(QLatin1String("k")).toString(),
            QStringLiteral("on"));
    }

    void shouldNameLineColumnAndDocumentInErrors_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("bad indentation") << QByteArray("a: b\n  c: d: e\n") << "line 2, column 4 (document 1)";
        QTest::newRow("second document") << QByteArray("a: 1\n---\nb: 2\nc: [1, 2\n") << "(document 2)";
        QTest::newRow("second document line")
            << QByteArray("a: 1\n---\nb: 2\n  x: y: z\n") << "line 4, column 4 (document 2)";
        QTest::newRow("not a mapping") << QByteArray("- a\n- b\n") << "a document must be a mapping";
        QTest::newRow("bad int tag") << QByteArray("a: !!int abc\n") << "cannot decode abc as int";
        QTest::newRow("duplicate key") << QByteArray("a: 1\nb:\n  c: 1\n  c: 2\n")
                                       << "line 4, column 3 (document 1): key \"c\" already set in map";
        QTest::newRow("too deep") << "a: " + QByteArray(600, '[') + QByteArray(600, ']')
                                  << "(document 1): nested deeper than the limit of 500 levels";
        QTest::newRow("too many open flow collections") << "a: b\nc: "
                + QByteArray(100000, '{') << "line 2, column 2004 (document 1): more than 2000 flow collections";
        QTest::newRow("key inside a key") << QByteArray("? [a, !!int x]\n: 1\n")
                                          << "line 1, column 3 (document 1): only scalar mapping keys are supported";
    }
    void shouldNameLineColumnAndDocumentInErrors()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, fragment);
        auto docs = yamlToJson(yaml);
        QVERIFY(!docs.ok());
        QCOMPARE(docs.error().code(), 400);
        QVERIFY2(docs.error().message().startsWith(QLatin1String("error converting YAML to JSON: yaml: ")),
            qPrintable(docs.error().message()));
        QVERIFY2(docs.error().message().contains(fragment), qPrintable(docs.error().message()));
    }

    void shouldApplyMergeKeys()
    {
        auto docs = yamlToJson("base: &b\n  x: 1\n  y: 2\nderived:\n  <<: *b\n  y: 3\n");
        QVERIFY(docs.ok());
        const QJsonObject d = docs->first().value(QLatin1String("derived")).toObject();
        QCOMPARE(d.value(QLatin1String("x")).toInt(), 1);
        QCOMPARE(d.value(QLatin1String("y")).toInt(), 3);
        QVERIFY(!d.contains(QLatin1String("<<")));
    }

    void shouldRefuseAliasBombsBeforeBuildingThem_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::newRow("issue 27: 7 levels of 9") << opbench::testing::aliasBomb(7);
        QTest::newRow("8 levels of 9") << opbench::testing::aliasBomb(8);
        QTest::newRow("64 levels of 2") << opbench::testing::aliasBomb(64, 2);
        // Just past the minimum allowance: 10 levels of 4 "lol" = 4^10 strings of weight 4.
        QTest::newRow("4 MiB from 400 bytes") << opbench::testing::aliasBomb(10, 4);
        // The budget covers the whole stream, not each document.
        QByteArray stream;
        for (int i = 0; i < 40; ++i)
            stream += "---\n" + opbench::testing::aliasBomb(5, 6, "doc" + QByteArray::number(i));
        QTest::newRow("40 documents of 31 KiB each") << stream;
        QTest::newRow("merge keys") << QByteArray("a: &a {x: lollollollollollollollollol, y: lollollollollollol}\n"
                                                  "b: &b {<<: [*a], c: [*a,*a,*a,*a,*a,*a,*a,*a]}\n"
                                                  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c]\n"
                                                  "e: &e [*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e]\n");
    }
    void shouldRefuseAliasBombsBeforeBuildingThem()
    {
        QFETCH(QByteArray, yaml);
        const auto docs = yamlToJson(yaml);
        QVERIFY(!docs.ok());
        QCOMPARE(docs.error().code(), 400);
        QCOMPARE(docs.error().message(),
            QStringLiteral("error converting YAML to JSON: yaml: document contains excessive aliasing"));
        QVERIFY(!checkYamlAliasing(yaml).ok());
    }

    void shouldExpandAliasesWithinTheBudget()
    {
        // 5 levels of 8: 32,768 strings, about 150 KiB decoded from 280 bytes (under the 256 KiB
        // minimum allowance).
        const QByteArray fiveOfEight = opbench::testing::aliasBomb(5, 8);
        const auto docs = yamlToJson(fiveOfEight);
        QVERIFY2(docs.ok(), docs.ok() ? "" : qPrintable(docs.error().message()));
        QCOMPARE(docs->first().value(QLatin1String("l5")).toArray().size(), 8);
        QCOMPARE(docs->first().value(QLatin1String("l5")).toArray().at(7).toArray().at(7).toArray().size(), 8);
        QVERIFY(checkYamlAliasing(fiveOfEight).ok());
        // A file past the minimum allowance, without aliases, is never near its budget (4 times
        // its size): 400 lines of 1000 characters.
        QByteArray big = "items:\n";
        for (int i = 0; i < 400; ++i)
            big += "- " + QByteArray(1000, 'a' + char(i % 26)) + "\n";
        const auto bigDocs = yamlToJson(big);
        QVERIFY2(bigDocs.ok(), bigDocs.ok() ? "" : qPrintable(bigDocs.error().message()));
        QCOMPARE(bigDocs->first().value(QLatin1String("items")).toArray().size(), 400);
        // ... nor one whose aliases repeat a block a few times.
        const auto repeated = yamlToJson(big
            + "again: &again [x]\ncopies: [*again, *again]\n"
              "three: &three {a: *again, b: *again}\nmore: [*three, *three, *three]\n");
        QVERIFY2(repeated.ok(), repeated.ok() ? "" : qPrintable(repeated.error().message()));
    }

    void shouldRefuseAnAliasInsideItsOwnAnchor_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("where");
        QTest::newRow("sequence") << QByteArray("a: &a [1, *a]\n") << QStringLiteral("line 1, column 11");
        QTest::newRow("mapping") << QByteArray("x: 1\na: &a\n  b: *a\n") << QStringLiteral("line 3, column 6");
        QTest::newRow("merge key") << QByteArray("a: &a\n  <<: *a\n") << QStringLiteral("line 2, column 7");
    }
    void shouldRefuseAnAliasInsideItsOwnAnchor()
    {
        // yaml-cpp builds a cycle for these; converting it recursed until the stack overflowed.
        QFETCH(QByteArray, yaml);
        QFETCH(QString, where);
        const auto docs = yamlToJson(yaml);
        QVERIFY(!docs.ok());
        QCOMPARE(docs.error().code(), 400);
        QCOMPARE(docs.error().message(),
            QStringLiteral("error converting YAML to JSON: yaml: %1 (document 1): an alias refers to the node it is in")
                .arg(where));
    }

    void shouldQuoteStringsThatWouldChangeType_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("quoted");
        for (const char *s :
            {"123", "1.5", "true", "on", "yes", "No", "null", "~", "0755", "0x1F", "1e3", "", " lead", "trail ", "a: b",
                "key:", "- dash", "#hash", "[x]", "{y}", ".inf", "*star", "&amp", "!bang", "%pct", "@at", "'q"})
            QTest::newRow(s[0] ? s : "empty") << QString::fromUtf8(s) << true;
        for (const char *s : {"nginx", "nginx:1.25", "1.2.3", "web-1", "a b", "2024-05-01T10:00:00Z", "http://x/y"})
            QTest::newRow(s) << QString::fromUtf8(s) << false;
    }
    void shouldQuoteStringsThatWouldChangeType()
    {
        QFETCH(QString, value);
        QFETCH(bool, quoted);
        const QJsonObject obj{{"v", value}};
        const QByteArray yaml = jsonToYaml(obj);
        QCOMPARE(yaml.startsWith("v: \""), quoted);
        auto back = yamlToJson(yaml);
        QVERIFY2(back.ok(), yaml.constData());
        QCOMPARE(back->first(), obj);
    }

    void shouldRoundTripDocuments_data()
    {
        QTest::addColumn<QJsonObject>("object");
        const QJsonObject multiline{{"data",
            QJsonObject{{"script", "#!/bin/sh\necho hi\n"}, {"noTrailingNewline", "a\nb"}, {"twoTrailing", "a\n\n"},
                {"indentedFirst", "  x\ny\n"}, {"tabs", "a\tb"},
                {"unicode", QString::fromUtf8("caf\xc3\xa9 \xe2\x9c\x93")}}}};
        QTest::newRow("multi-line strings") << multiline;
        const QJsonObject numbers{{"spec",
            QJsonObject{{"replicas", 3}, {"ratio", 0.25}, {"big", qint64(9007199254740993LL)}, {"neg", -42},
                {"tiny", 1e-9}, {"flag", false}, {"nothing", QJsonValue::Null}}}};
        QTest::newRow("numbers and scalars") << numbers;
        const QJsonObject nested{
            {"a", QJsonArray{QJsonObject{{"b", QJsonArray{}}}, QJsonObject{}, QJsonArray{1, "2", true}}},
            {"on", "key that is a bool word"}, {"123", "numeric key"}};
        QTest::newRow("nested and odd keys") << nested;
    }
    void shouldRoundTripDocuments()
    {
        QFETCH(QJsonObject, object);
        const QByteArray yaml = jsonToYaml(object);
        auto back = yamlToJson(yaml);
        QVERIFY2(back.ok(), back.ok() ? yaml.constData() : qPrintable(back.error().message()));
        QCOMPARE(back->size(), 1);
        QCOMPARE(QJsonDocument(back->first()).toJson(QJsonDocument::Compact),
            QJsonDocument(object).toJson(QJsonDocument::Compact));
    }

    void shouldRoundTripTheWireDeployment()
    {
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/deployment-wire.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject obj = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!obj.isEmpty());
        const QByteArray yaml = jsonToYaml(obj);
        auto back = yamlToJson(yaml);
        QVERIFY(back.ok());
        QCOMPARE(back->first(), obj);
    }

    void shouldKeepKubectlKeyOrder()
    {
        const QJsonObject obj{{"status", QJsonObject{{"replicas", 1}}}, {"spec", QJsonObject{{"replicas", 1}}},
            {"data", QJsonObject{{"x", "y"}}},
            {"metadata", QJsonObject{{"labels", QJsonObject{{"a", "b"}}}, {"namespace", "ns"}, {"name", "n"}}},
            {"kind", "Deployment"}, {"apiVersion", "apps/v1"}};
        const QByteArray yaml = jsonToYaml(obj);
        const QList<QByteArray> lines = yaml.split('\n');
        QStringList topKeys, metaKeys;
        for (const QByteArray &l : lines) {
            if (!l.isEmpty() && l[0] != ' ')
                topKeys << QString::fromUtf8(l.left(l.indexOf(':')));
            else if (l.startsWith("  ") && l.size() > 2 && l[2] != ' ' && topKeys.last() == QLatin1String("metadata"))
                metaKeys << QString::fromUtf8(l.mid(2, l.indexOf(':') - 2));
        }
        QCOMPARE(topKeys, (QStringList{"apiVersion", "kind", "metadata", "spec", "status", "data"}));
        QCOMPARE(metaKeys, (QStringList{"name", "namespace", "labels"}));
    }

    void shouldWriteSeveralDocuments()
    {
        const QByteArray yaml = jsonToYaml(QList<QJsonObject>{QJsonObject{{"a", 1}}, QJsonObject{{"b", 2}}});
        QVERIFY(yaml.contains("\n---\n"));
        auto back = yamlToJson(yaml);
        QVERIFY(back.ok());
        QCOMPARE(back->size(), 2);
        QCOMPARE(back->at(1).value(QLatin1String("b")).toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(tst_YamlCodec)
#include "tst_yamlcodec.moc"
