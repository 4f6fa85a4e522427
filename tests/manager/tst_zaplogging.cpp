// SPDX-License-Identifier: Apache-2.0
// ZapSink: the JSON and console encodings of the lines a real reconcile writes (the reconciler's
// own line and the controller's "Reconciler error"), with controller-runtime's field set, the
// level names, verbosity filtering and flag parsing.
#include "engine/manager/zaplogging.h"
#include "engine/testing/fakeclock.h"
#include "tests/controller/scriptedreconciler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUuid>

#include <cstdio>

using namespace opbench;
using namespace opbench::test;

namespace {

const QStringList kReconcileFields{QStringLiteral("controller"), QStringLiteral("controllerGroup"),
    QStringLiteral("controllerKind"), QStringLiteral("namespace"), QStringLiteral("name"),
    QStringLiteral("reconcileID")};

/// A file-backed FILE* the sink writes to; lines() reads everything written so far.
class CapturedFile
{
public:
    CapturedFile()
        : m_file(std::tmpfile())
    { }
    ~CapturedFile()
    {
        if (m_file)
            std::fclose(m_file);
    }
    CapturedFile(const CapturedFile &) = delete;
    CapturedFile &operator=(const CapturedFile &) = delete;
    std::FILE *get() const { return m_file; }
    QList<QByteArray> lines() const
    {
        std::fflush(m_file);
        std::rewind(m_file);
        QByteArray all;
        char buf[4096];
        size_t n = 0;
        while ((n = std::fread(buf, 1, sizeof buf, m_file)) > 0)
            all.append(buf, qsizetype(n));
        std::fseek(m_file, 0, SEEK_END);
        QList<QByteArray> out = all.split('\n');
        out.removeAll(QByteArray());
        return out;
    }

private:
    std::FILE *m_file;
};

/// One line decoded from either encoding into the same shape.
struct Decoded
{
    QString level;
    double ts = 0;
    QString logger;
    QString msg;
    QJsonObject fields; // everything else (incl. "error")
};

Decoded decodeJson(const QByteArray &line)
{
    QJsonObject o = QJsonDocument::fromJson(line).object();
    Decoded d{o.take(QLatin1String("level")).toString(), o.take(QLatin1String("ts")).toDouble(),
        o.take(QLatin1String("logger")).toString(), o.take(QLatin1String("msg")).toString(), o};
    return d;
}

Decoded decodeConsole(const QByteArray &line)
{
    // ts \t LEVEL \t [logger \t] msg [\t {fields}]: zap leaves out an empty logger name.
    QList<QByteArray> parts = line.split('\t');
    Decoded d;
    if (parts.size() < 3)
        return d;
    const QDateTime t = QDateTime::fromString(QString::fromUtf8(parts[0]), Qt::ISODateWithMs);
    d.ts = t.isValid() && parts[0].endsWith('Z') ? double(t.toMSecsSinceEpoch()) / 1000.0 : 0;
    d.level = QString::fromUtf8(parts[1]).toLower();
    if (parts.size() > 3 && parts.last().startsWith('{'))
        d.fields = QJsonDocument::fromJson(parts.takeLast()).object();
    d.msg = QString::fromUtf8(parts.last());
    if (parts.size() == 4)
        d.logger = QString::fromUtf8(parts[2]);
    return d;
}

} // namespace

class TestZapLogging : public QObject
{
    Q_OBJECT

private:
    /// Runs one reconcile of default/web that logs "Deploying" (logger "myapp") and fails, through
    /// a ZapSink with `options`; returns the decoded lines.
    QList<Decoded> reconcileOnce(ZapOptions options)
    {
        CapturedFile file;
        options.out = file.get();
        ZapSink sink(options);
        testing::FakeClock clock;
        MetricsRegistry metrics;
        QObject parent;
        auto rec = std::make_shared<ScriptedReconciler>();
        rec->script = [](const Request &r) -> ReconcileOutcome {
            r.ctx.logger()
                .withName(QStringLiteral("myapp"))
                .info(QStringLiteral("Deploying"), {{QStringLiteral("replicas"), 3}});
            return Status::internalError(QStringLiteral("image pull secret missing"));
        };
        ControllerOptions o = testOptions(QStringLiteral("zaptest"), &clock, &metrics);
        o.logger = Logger(&sink);
        Controller *ctrl = startedController(std::move(o), rec, &parent);
        if (!ctrl)
            return {};
        ctrl->queue()->add({QStringLiteral("default"), QStringLiteral("web")}, Cause::manual());
        (void)waitUntil([&rec] { return !rec->finishedKeys.isEmpty(); });
        QCoreApplication::processEvents();
        QList<Decoded> out;
        for (const QByteArray &line : file.lines())
            out << (options.json ? decodeJson(line) : decodeConsole(line));
        return out;
    }

    static const Decoded *find(const QList<Decoded> &lines, const QString &msg)
    {
        for (const Decoded &d : lines)
            if (d.msg == msg)
                return &d;
        return nullptr;
    }

private Q_SLOTS:
    void shouldEncodeReconcileFields_data()
    {
        QTest::addColumn<bool>("json");
        QTest::newRow("json") << true;
        QTest::newRow("console") << false;
    }
    void shouldEncodeReconcileFields()
    {
        QFETCH(bool, json);
        ZapOptions zo;
        zo.json = json;
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        const QList<Decoded> lines = reconcileOnce(zo);
        const Decoded *info = find(lines, QStringLiteral("Deploying"));
        const Decoded *error = find(lines, QStringLiteral("Reconciler error"));
        QVERIFY2(info, "the reconciler's own line is written");
        QVERIFY2(error, "the controller's Reconciler error line is written");

        QCOMPARE(info->level, QStringLiteral("info"));
        QCOMPARE(info->logger, QStringLiteral("myapp"));
        QVERIFY(info->ts >= double(before) - 1 && info->ts <= double(before) + 60);
        for (const QString &f : kReconcileFields)
            QVERIFY2(info->fields.contains(f), qPrintable(QStringLiteral("field %1 missing").arg(f)));
        QCOMPARE(info->fields.value(QLatin1String("controller")).toString(), QStringLiteral("zaptest"));
        QCOMPARE(info->fields.value(QLatin1String("controllerGroup")).toString(), QString());
        QCOMPARE(info->fields.value(QLatin1String("controllerKind")).toString(), QStringLiteral("ConfigMap"));
        QCOMPARE(info->fields.value(QLatin1String("namespace")).toString(), QStringLiteral("default"));
        QCOMPARE(info->fields.value(QLatin1String("name")).toString(), QStringLiteral("web"));
        QCOMPARE(info->fields.value(QLatin1String("replicas")).toInt(), 3);
        const QString id = info->fields.value(QLatin1String("reconcileID")).toString();
        QVERIFY2(!QUuid::fromString(id).isNull(), qPrintable(id));
        QVERIFY(!info->fields.contains(QLatin1String("error")));

        QCOMPARE(error->level, QStringLiteral("error"));
        QVERIFY(error->logger.isEmpty());
        QVERIFY(error->fields.value(QLatin1String("error"))
                    .toString()
                    .contains(QLatin1String("image pull secret missing")));
        QCOMPARE(error->fields.value(QLatin1String("reconcileID")).toString(), id); // same reconcile
        for (const QString &f : kReconcileFields)
            QVERIFY2(error->fields.contains(f), qPrintable(QStringLiteral("error line: field %1 missing").arg(f)));
    }

    void shouldFilterByVerbosity()
    {
        ZapOptions info;
        QVERIFY(info.parseLevel(QStringLiteral("info")).ok());
        QVERIFY(!find(reconcileOnce(info), QStringLiteral("Reconciling"))); // V(5)

        ZapOptions v5;
        QVERIFY(v5.parseLevel(QStringLiteral("5")).ok());
        const QList<Decoded> lines = reconcileOnce(v5);
        const Decoded *start = find(lines, QStringLiteral("Reconciling"));
        QVERIFY(start);
        QCOMPARE(start->level, QStringLiteral("Level(-5)"));
        QVERIFY(start->fields.contains(QLatin1String("reconcileID")));

        ZapOptions errorsOnly;
        QVERIFY(errorsOnly.parseLevel(QStringLiteral("error")).ok());
        const QList<Decoded> errs = reconcileOnce(errorsOnly);
        QVERIFY(!find(errs, QStringLiteral("Deploying")));
        QVERIFY(find(errs, QStringLiteral("Reconciler error")));
    }

    void shouldRejectUnknownFlagValues()
    {
        ZapOptions o;
        QVERIFY(!o.parseLevel(QStringLiteral("verbose")).ok());
        QVERIFY(!o.parseLevel(QStringLiteral("0")).ok());
        QVERIFY(o.parseLevel(QStringLiteral("debug")).ok());
        QCOMPARE(o.verbosity, 1);
        QVERIFY(!o.parseEncoder(QStringLiteral("yaml")).ok());
        QVERIFY(o.parseEncoder(QStringLiteral("console")).ok());
        QVERIFY(!o.json);
    }

    // formatLogLine(): the default (Qt logging) sink's line, "name: message key=value …".
    void shouldFormatLogLinesForTheQtSink_data()
    {
        QTest::addColumn<bool>("isError");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("expected");
        QTest::newRow("info, no name") << false << QString() << QString()
                                       << "Starting workers worker count=2 "
                                          "leader=true key=ns/web labels={\"app\":\"web\"} ids=[1,\"a\"] none=null";
        QTest::newRow("named") << false << QStringLiteral("controller.myapp") << QString()
                               << "controller.myapp: Starting workers worker count=2 leader=true key=ns/web "
                                  "labels={\"app\":\"web\"} ids=[1,\"a\"] none=null";
        QTest::newRow("error last") << true << QStringLiteral("controller") << QStringLiteral("boom: 500")
                                    << "controller: Starting workers worker count=2 leader=true key=ns/web "
                                       "labels={\"app\":\"web\"} ids=[1,\"a\"] none=null error=boom: 500";
    }
    void shouldFormatLogLinesForTheQtSink()
    {
        QFETCH(bool, isError);
        QFETCH(QString, name);
        QFETCH(QString, error);
        QFETCH(QString, expected);
        LogRecord r;
        r.isError = isError;
        r.name = name;
        r.message = QStringLiteral("Starting workers");
        r.error = error;
        r.fields = {{QStringLiteral("worker count"), 2}, {QStringLiteral("leader"), true},
            {QStringLiteral("key"), QStringLiteral("ns/web")},
            {QStringLiteral("labels"), QJsonObject{{QStringLiteral("app"), QStringLiteral("web")}}},
            {QStringLiteral("ids"), QJsonArray{1, QStringLiteral("a")}}, {QStringLiteral("none"), QJsonValue()}};
        QCOMPARE(formatLogLine(r), expected);
    }
};

QTEST_GUILESS_MAIN(TestZapLogging)
#include "tst_zaplogging.moc"
