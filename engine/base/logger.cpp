// SPDX-License-Identifier: Apache-2.0
#include "engine/base/logger.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

#include <atomic>

Q_LOGGING_CATEGORY(lcRuntime, "opbench.runtime")

namespace opbench {

namespace {

class QtLogSink final : public LogSink
{
public:
    bool enabled(int verbosity) const override
    {
        return verbosity <= 0 ? lcRuntime().isInfoEnabled() : lcRuntime().isDebugEnabled();
    }
    void write(const LogRecord &record) override
    {
        const QString line = formatLogLine(record);
        if (record.isError)
            qCWarning(lcRuntime).noquote() << line;
        else if (record.verbosity <= 0)
            qCInfo(lcRuntime).noquote() << line;
        else
            qCDebug(lcRuntime).noquote() << line;
    }
};

QtLogSink *qtSink()
{
    static QtLogSink sink;
    return &sink;
}

std::atomic<LogSink *> g_sink{nullptr};

QString valueText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Double:
        return QString::number(v.toDouble());
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    default:
        return QStringLiteral("null");
    }
}

} // namespace

Logger Logger::withValues(const LogFields &fields) const
{
    Logger l = *this;
    l.m_fields += fields;
    return l;
}

Logger Logger::withName(const QString &name) const
{
    Logger l = *this;
    l.m_name = m_name.isEmpty() ? name : m_name + u'.' + name;
    return l;
}

void Logger::v(int level, const QString &message, const LogFields &fields) const
{
    LogSink *s = sink();
    if (!s->enabled(level))
        return;
    s->write(LogRecord{level, false, m_name, message, {}, m_fields + fields});
}

void Logger::error(const QString &error, const QString &message, const LogFields &fields) const
{
    sink()->write(LogRecord{0, true, m_name, message, error, m_fields + fields});
}

LogSink *Logger::defaultSink()
{
    LogSink *s = g_sink.load();
    return s ? s : qtSink();
}

void Logger::setDefaultSink(LogSink *sink) { g_sink.store(sink); }

QString formatLogLine(const LogRecord &record)
{
    QString line = record.name.isEmpty() ? record.message : record.name + QStringLiteral(": ") + record.message;
    for (const LogField &f : record.fields)
        line += u' ' + f.key + u'=' + valueText(f.value);
    if (record.isError)
        line += QStringLiteral(" error=") + record.error;
    return line;
}

} // namespace opbench
