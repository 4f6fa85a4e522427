// SPDX-License-Identifier: Apache-2.0
#pragma once
// Logger: structured, logr-style logging for the runtime (controller-runtime's logr.Logger).
//
// A Logger is a cheap value: a sink plus a name and key/value fields carried into every line.
// Levels follow logr: info at verbosity 0, `v(n)` for debug lines at verbosity n, and errors.
// The default sink writes to the Qt logging category "opbench.runtime" (errors as warnings,
// V(0) as info, V(n>0) as debug) as `message key=value …`; the manager installs a JSON or console
// sink with Logger::setDefaultSink().

#include <QJsonValue>
#include <QList>
#include <QString>

namespace opbench {

struct LogField
{
    QString key;
    QJsonValue value;
};
using LogFields = QList<LogField>;

/// One log line as a sink receives it.
struct LogRecord
{
    int verbosity = 0; ///< 0 = info; n > 0 = V(n) debug; ignored for errors
    bool isError = false;
    QString name; ///< the logger's name (dot-joined), may be empty
    QString message;
    QString error;    ///< errors only: the error text ("error" field)
    LogFields fields; ///< the logger's fields, then the call's
};

class LogSink
{
public:
    virtual ~LogSink() = default;
    /// Whether lines at `verbosity` are written (errors always are).
    [[nodiscard]] virtual bool enabled(int verbosity) const = 0;
    virtual void write(const LogRecord &record) = 0;

protected:
    LogSink() = default;
    LogSink(const LogSink &) = default;
    LogSink &operator=(const LogSink &) = default;
};

class Logger
{
public:
    /// A logger writing to defaultSink() (looked up at each line, so a sink installed later applies).
    Logger() = default;
    /// A logger writing to `sink` (not owned; must outlive the logger).
    explicit Logger(LogSink *sink)
        : m_sink(sink)
    { }

    /// A copy with `fields` appended to every line.
    [[nodiscard]] Logger withValues(const LogFields &fields) const;
    /// A copy whose name has `name` appended ("controller.myapplication").
    [[nodiscard]] Logger withName(const QString &name) const;

    void info(const QString &message, const LogFields &fields = {}) const { v(0, message, fields); }
    /// A debug line at verbosity `level` (logr V(level)).
    void v(int level, const QString &message, const LogFields &fields = {}) const;
    void error(const QString &error, const QString &message, const LogFields &fields = {}) const;
    [[nodiscard]] bool enabled(int level) const { return sink()->enabled(level); }

    /// The process-wide sink used by default-constructed loggers. Never null.
    static LogSink *defaultSink();
    /// Installs `sink` (not owned) as the default; nullptr restores the Qt logging sink.
    static void setDefaultSink(LogSink *sink);

private:
    LogSink *sink() const { return m_sink ? m_sink : defaultSink(); }

    LogSink *m_sink = nullptr;
    QString m_name;
    LogFields m_fields;
};

/// Formats a record as "message key=value …" (the Qt sink's format; also handy in tests).
QString formatLogLine(const LogRecord &record);

} // namespace opbench
