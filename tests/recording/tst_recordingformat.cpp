// SPDX-License-Identifier: Apache-2.0
// The recording's JSON building blocks (engine/recording/recordingformat.h) and the writer's
// records that carry objects (written on its thread): what a reader of the file gets back.
#include "engine/recording/recordingformat.h"
#include "engine/recording/recordingwriter_p.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace opbench;
using namespace opbench::recording;

class TstRecordingFormat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void stringsReadBackAsWritten_data();
    void stringsReadBackAsWritten();
    void numbersBoolsAndLoneSurrogates();
    void recordsWithObjectsAreCompleteLines();
};

void TstRecordingFormat::stringsReadBackAsWritten_data()
{
    QTest::addColumn<QString>("value");
    QTest::newRow("empty") << QString();
    QTest::newRow("ascii") << QStringLiteral("default/web-1");
    QTest::newRow("quote") << QStringLiteral("say \"hi\"");
    QTest::newRow("backslash") << QStringLiteral("C:\\path\\");
    QTest::newRow("controls") << QStringLiteral("a\nb\rc\td") + QChar(0x01) + QChar(0x1f);
    QTest::newRow("non-ascii first") << QStringLiteral("über € 日本");
    QTest::newRow("non-ascii later") << QStringLiteral("app-ü-\"x\"-\n-end");
    QTest::newRow("surrogate pair") << QString::fromUtf8("pod 🚀 ready");
}

void TstRecordingFormat::stringsReadBackAsWritten()
{
    QFETCH(QString, value);
    QByteArray out = "{\"a\":1";
    appendField(out, "s", value);
    out += '}';
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, out.constData());
    QCOMPARE(doc.object().value(QStringLiteral("s")).toString(), value);
    QCOMPARE(doc.object().value(QStringLiteral("a")).toInt(), 1);
}

void TstRecordingFormat::numbersBoolsAndLoneSurrogates()
{
    QByteArray out = "{\"t\":\"x\"";
    appendField(out, "min", std::numeric_limits<qint64>::min());
    appendField(out, "max", std::numeric_limits<qint64>::max());
    appendField(out, "zero", qint64(0));
    appendBool(out, "yes", true);
    appendBool(out, "no", false);
    appendField(out, "lone", QString(QChar(0xd800)) + u'x');
    out += '}';
    QCOMPARE(out.left(71), QByteArray(R"({"t":"x","min":-9223372036854775808,"max":9223372036854775807,"zero":0,)"));
    QJsonParseError error{};
    const QJsonObject o = QJsonDocument::fromJson(out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, out.constData());
    QCOMPARE(o.value(QStringLiteral("yes")), QJsonValue(true));
    QCOMPARE(o.value(QStringLiteral("no")), QJsonValue(false));
    QCOMPARE(o.value(QStringLiteral("lone")).toString(), QString(QChar(0xfffd)) + u'x');
}

void TstRecordingFormat::recordsWithObjectsAreCompleteLines()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.rec"));
    auto obj = Object::parse(
        R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"d"},"data":{"k":"v"}})");
    QVERIFY(obj.ok());
    {
        RecordingWriter w(path, 0);
        QVERIFY(w.open("\"t\":\"header\"}").ok());
        w.appendWithObjects("\"t\":\"ev\",\"inf\":1", {"obj", *obj});
        w.appendWithObjects("\"t\":\"call\",\"i\":0", {"sent", *obj}, {"reply", *obj});
        w.appendWithObjects("\"t\":\"call\",\"i\":1", {"reply", Object()});
        w.append("\"t\":\"rs\"}");
        w.close();
    }
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.size(), 6); // five records and the empty rest after the last newline
    QList<QJsonObject> records;
    for (int i = 0; i < 5; ++i) {
        QJsonParseError error{};
        records.append(QJsonDocument::fromJson(lines.at(i), &error).object());
        QVERIFY2(error.error == QJsonParseError::NoError, lines.at(i).constData());
        QCOMPARE(records.last().value(QStringLiteral("seq")).toInt(), i);
    }
    const QJsonObject cm = obj->json();
    QCOMPARE(records.at(1).value(QStringLiteral("obj")).toObject(), cm);
    QCOMPARE(records.at(2).value(QStringLiteral("sent")).toObject(), cm);
    QCOMPARE(records.at(2).value(QStringLiteral("reply")).toObject(), cm);
    QVERIFY(records.at(3).value(QStringLiteral("reply")).isNull());
    QCOMPARE(records.at(4).value(QStringLiteral("t")).toString(), QStringLiteral("rs"));
}

QTEST_GUILESS_MAIN(TstRecordingFormat)
#include "tst_recordingformat.moc"
