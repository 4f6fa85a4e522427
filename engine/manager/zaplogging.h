// SPDX-License-Identifier: Apache-2.0
#pragma once
// ZapSink: controller-runtime's zap logging options for the runtime's Logger.
//
// JSON lines by default: {"level":"info","ts":1700000000.123,"logger":"controller","msg":"…",
// <fields>…,"error":"…"}; console encoding with `--zap-encoder console`
// ("2024-05-01T10:00:00.123Z\tINFO\tlogger\tmsg\t{fields}"). Levels: debug (V(1)), info (V(0)),
// error (errors only), or N > 0 (V(N) and below). Qt messages (qDebug/qWarning…) go through the
// same encoder with the category as logger name once ZapSink::install() is called.

#include "engine/api/expected.h"
#include "engine/base/logger.h"

#include <QMutex>

#include <cstdio>

namespace opbench {

struct ZapOptions
{
    bool json = true;
    int verbosity = 0;       // V(n) enabled up to this; -1 = errors only
    std::FILE *out = stderr; // zap writes to stderr

    /// Parses --zap-log-level: debug, info, error, panic, or an integer N > 0.
    Expected<void> parseLevel(const QString &level);
    /// Parses --zap-encoder: json or console.
    Expected<void> parseEncoder(const QString &encoder);
};

class ZapSink final : public LogSink
{
public:
    explicit ZapSink(ZapOptions options)
        : m_options(options)
    { }
    bool enabled(int verbosity) const override { return verbosity <= m_options.verbosity; }
    void write(const LogRecord &record) override;
    /// The encoded line (no newline), for tests.
    QByteArray encode(const LogRecord &record, double epochSeconds) const;

    /// Makes this sink the Logger default and routes Qt messages to it. `sink` must outlive the process's logging.
    static void install(ZapSink *sink);

private:
    ZapOptions m_options;
    QMutex m_mutex;
};

} // namespace opbench
