// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/zaplogging.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>

namespace opbench {

namespace {

std::atomic<ZapSink *> g_qtSink{nullptr};

Status configError(const QString &msg) { return Status(0, QString::fromLatin1(StatusReason::ConfigError), msg); }

QString levelName(const LogRecord &r)
{
    if (r.isError)
        return QStringLiteral("error");
    if (r.verbosity <= 0)
        return QStringLiteral("info");
    if (r.verbosity == 1)
        return QStringLiteral("debug");
    return QStringLiteral("Level(-%1)").arg(r.verbosity);
}

void qtHandler(QtMsgType type, const QMessageLogContext &context, const QString &msg)
{
    ZapSink *sink = g_qtSink.load();
    if (!sink) {
        std::fprintf(stderr, "%s\n", qPrintable(msg));
        return;
    }
    LogRecord r;
    r.name = QString::fromLatin1(context.category ? context.category : "qt");
    if (r.name == QLatin1String("default"))
        r.name = QStringLiteral("qt");
    r.message = msg;
    switch (type) {
    case QtDebugMsg:
        r.verbosity = 1;
        break;
    case QtInfoMsg:
        r.verbosity = 0;
        break;
    default:
        r.isError = true;
        r.error = type == QtWarningMsg ? QStringLiteral("warning") : QStringLiteral("critical");
        break;
    }
    if (r.isError || sink->enabled(r.verbosity))
        sink->write(r);
}

} // namespace

Expected<void> ZapOptions::parseLevel(const QString &level)
{
    const QString l = level.trimmed().toLower();
    if (l == QLatin1String("debug"))
        verbosity = 1;
    else if (l == QLatin1String("info"))
        verbosity = 0;
    else if (l == QLatin1String("error") || l == QLatin1String("panic") || l == QLatin1String("dpanic"))
        verbosity = -1;
    else {
        bool ok = false;
        const int n = l.toInt(&ok);
        if (!ok || n <= 0)
            return configError(
                QStringLiteral("invalid --zap-log-level \"%1\": use debug, info, error, panic or an integer > 0")
                    .arg(level));
        verbosity = n;
    }
    return {};
}

Expected<void> ZapOptions::parseEncoder(const QString &encoder)
{
    if (encoder == QLatin1String("json"))
        json = true;
    else if (encoder == QLatin1String("console"))
        json = false;
    else
        return configError(QStringLiteral("invalid --zap-encoder \"%1\": use json or console").arg(encoder));
    return {};
}

QByteArray ZapSink::encode(const LogRecord &r, double epochSeconds) const
{
    if (m_options.json) {
        // Ordered like zap: level, ts, logger, msg, fields…, error.
        QByteArray line = "{";
        bool first = true;
        auto kv = [&](const QString &k, const QJsonValue &v) {
            QJsonObject o{{k, v}};
            QByteArray enc = QJsonDocument(o).toJson(QJsonDocument::Compact);
            line += (first ? "" : ",") + enc.mid(1, enc.size() - 2);
            first = false;
        };
        kv(QStringLiteral("level"), levelName(r));
        line += ",\"ts\":" + QByteArray::number(epochSeconds, 'f', 6);
        if (!r.name.isEmpty())
            kv(QStringLiteral("logger"), r.name);
        kv(QStringLiteral("msg"), r.message);
        for (const LogField &f : r.fields)
            kv(f.key, f.value);
        if (r.isError)
            kv(QStringLiteral("error"), r.error);
        return line + '}';
    }
    QJsonObject fields;
    for (const LogField &f : r.fields)
        fields.insert(f.key, f.value);
    if (r.isError)
        fields.insert(QStringLiteral("error"), r.error);
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(qint64(epochSeconds * 1000), Qt::UTC);
    QByteArray line = t.toString(Qt::ISODateWithMs).toUtf8() + '\t' + levelName(r).toUpper().toUtf8() + '\t';
    if (!r.name.isEmpty())
        line += r.name.toUtf8() + '\t';
    line += r.message.toUtf8();
    if (!fields.isEmpty())
        line += '\t' + QJsonDocument(fields).toJson(QJsonDocument::Compact);
    return line;
}

void ZapSink::write(const LogRecord &record)
{
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    const QByteArray line = encode(record, now) + '\n';
    QMutexLocker lock(&m_mutex);
    std::fwrite(line.constData(), 1, size_t(line.size()), m_options.out);
    std::fflush(m_options.out);
}

void ZapSink::install(ZapSink *sink)
{
    Logger::setDefaultSink(sink);
    g_qtSink.store(sink);
    qInstallMessageHandler(sink ? qtHandler : nullptr);
}

} // namespace opbench
