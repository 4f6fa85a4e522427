// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fault injection for resource requests (tests and the GUI):
//   drop-watch:every=5s            every 5 s, every open watch stream is ended and its
//                                  connection closed
//   error:rate=0.05,code=500       5 % of requests fail with that code (a Status)
//   throttle:rate=0.1,retry-after=1  10 % get 429 with Retry-After: 1
//   latency:ms=50                  every request waits 50 ms before it is served
// Durations take ms, s or m suffixes ("500ms", "5s", "1m"; bare numbers are seconds for
// every=, milliseconds for ms=). Rates are 0..1.

#include "engine/api/expected.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <optional>

namespace opbench::apiserver {

struct FaultSpec
{
    enum class Kind { DropWatch, Error, Throttle, Latency };
    Kind kind = Kind::Latency;
    double rate = 1.0;     // error, throttle
    int code = 500;        // error
    int retryAfter = 1;    // throttle, seconds
    int latencyMs = 0;     // latency
    int everyMs = 0;       // drop-watch

    /// Parses "kind:key=value,…"; errors name the bad part.
    static Expected<FaultSpec> parse(const QString &text);
    QString toString() const;
};

class FaultInjector : public QObject
{
    Q_OBJECT
public:
    explicit FaultInjector(QObject *parent = nullptr);

    /// Replaces the active faults (may be called at any time).
    void setFaults(const QList<FaultSpec> &faults);
    void addFault(const FaultSpec &fault);
    void clear() { setFaults({}); }
    const QList<FaultSpec> &faults() const { return m_faults; }

    /// Milliseconds to delay the next request (sum of latency faults).
    int latencyMs() const;
    /// A failure to answer instead of serving the request, drawn per the rates.
    std::optional<Status> drawFailure() const;

Q_SIGNALS:
    /// Time to drop every watch stream.
    void dropWatches();

private:
    QList<FaultSpec> m_faults;
    QTimer m_dropTimer;
};

} // namespace opbench::apiserver
