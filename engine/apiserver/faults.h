// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fault injection for resource requests (tests and the GUI):
//   drop-watch:every=5s            every 5 s, every open watch stream is ended and its
//                                  connection closed
//   error:rate=0.05,code=500       5 % of requests fail with that code (a Status)
//   throttle:rate=0.1,retry-after=1  10 % get 429 with Retry-After: 1
//   latency:ms=50                  every request waits 50 ms before it is served
//   reset:rate=0.1                 10 % of requests are served, then their response is cut off
//                                  mid-body and the connection closed (the client cannot tell
//                                  whether a write happened)
//   expire-continue:rate=1         a list carrying a continue token gets 410 Expired
// Error, throttle, reset and expire-continue faults take optional filters: verb=list (the
// request's verb), resource=deployments, and count=N (fire at most N times; 0 = no limit), e.g.
//   error:code=410,verb=list,resource=deployments,count=1   the first Deployment list gets 410
// Durations take ms, s or m suffixes ("500ms", "5s", "1m"; bare numbers are seconds for
// every=, milliseconds for ms=). Rates are 0..1.

#include "engine/api/expected.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QRandomGenerator>
#include <QTimer>

#include <optional>

namespace opbench::apiserver {

struct FaultSpec
{
    enum class Kind { DropWatch, Error, Throttle, Latency, Reset, ExpireContinue };
    Kind kind = Kind::Latency;
    double rate = 1.0;  // error, throttle, reset, expire-continue
    int code = 500;     // error
    int retryAfter = 1; // throttle, seconds
    int latencyMs = 0;  // latency
    int everyMs = 0;    // drop-watch
    QString verb;       // only requests with this verb ("" = all)
    QString resource;   // only requests on this resource ("" = all)
    int count = 0;      // fire at most this many times (0 = no limit)

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
    std::optional<Status> drawFailure(const QString &verb = {}, const QString &resource = {}) const;
    /// Whether to cut this request's response mid-body (reset faults).
    bool drawReset(const QString &verb = {}, const QString &resource = {}) const
    {
        return draw(FaultSpec::Kind::Reset, verb, resource);
    }
    /// Whether a list with a continue token gets 410 (expire-continue faults).
    bool drawExpireContinue(const QString &resource = {}) const
    {
        return draw(FaultSpec::Kind::ExpireContinue, QStringLiteral("list"), resource);
    }
    /// Seeds the draws (a fault run that fails can be repeated with its seed).
    void setSeed(quint32 seed) { m_random.seed(seed); }
    /// How many times faults of `kind` fired so far (tests check that a fault run had faults).
    int firedCount(FaultSpec::Kind kind) const { return m_fired.value(int(kind)); }

Q_SIGNALS:
    /// Time to drop every watch stream.
    void dropWatches();

private:
    bool draw(FaultSpec::Kind kind, const QString &verb, const QString &resource) const;
    /// Whether fault `i` applies to the request and is drawn (counted when it fires).
    bool fires(int i, const QString &verb, const QString &resource) const;
    mutable QHash<int, int> m_firedBySpec; // index in m_faults -> times fired
    QList<FaultSpec> m_faults;
    mutable QRandomGenerator m_random{QRandomGenerator::global()->generate()};
    mutable QHash<int, int> m_fired;
    QTimer m_dropTimer;
};

} // namespace opbench::apiserver
