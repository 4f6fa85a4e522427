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
// request's verb), resource=deployments, name=web (the object's name), user=alice (the
// authenticated user), agent=opbench/ (the User-Agent starts with it: the workbench's operator
// says "opbench/…", kubectl "kubectl/…"), and count=N (fire at most N times; 0 = no limit), e.g.
//   error:code=410,verb=list,resource=deployments,count=1   the first Deployment list gets 410
//   error:code=409,verb=update,resource=deployments,name=web,agent=opbench/,count=1
//                                  the operator's next update of Deployment web gets the 409
//                                  Conflict a stale resourceVersion gets ("Operation cannot be
//                                  fulfilled on deployments.apps "web": the object has been
//                                  modified; …"); kubectl's writes go through
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
    QString name;       // only requests for the object with this name ("" = all)
    QString user;       // only requests by this authenticated user ("" = all)
    QString agent;      // only requests whose User-Agent starts with this ("" = all)
    int count = 0;      // fire at most this many times (0 = no limit)

    /// Parses "kind:key=value,…"; errors name the bad part.
    static Expected<FaultSpec> parse(const QString &text);
    QString toString() const;
};

/// What a fault filters on: the request as the server understood it.
struct FaultRequest
{
    QString verb;
    QString apiGroup; // "" for core ("apps" names deployments.apps in a Conflict's message)
    QString resource;
    QString name;
    QString user;
    QString userAgent;
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
    std::optional<Status> drawFailure(const QString &verb = {}, const QString &resource = {}) const
    {
        return drawFailure(FaultRequest{verb, {}, resource, {}, {}, {}});
    }
    /// The same for a request with its name, user and User-Agent (the name=, user= and agent=
    /// filters); a 409 names the object as Kubernetes' optimistic-concurrency Conflict does.
    std::optional<Status> drawFailure(const FaultRequest &request) const;
    /// Whether to cut this request's response mid-body (reset faults).
    bool drawReset(const QString &verb = {}, const QString &resource = {}) const
    {
        return draw(FaultSpec::Kind::Reset, FaultRequest{verb, {}, resource, {}, {}, {}});
    }
    /// Whether a list with a continue token gets 410 (expire-continue faults).
    bool drawExpireContinue(const QString &resource = {}) const
    {
        return draw(FaultSpec::Kind::ExpireContinue, FaultRequest{QStringLiteral("list"), {}, resource, {}, {}, {}});
    }
    /// Seeds the draws (a fault run that fails can be repeated with its seed).
    void setSeed(quint32 seed) { m_random.seed(seed); }
    /// How many times faults of `kind` fired so far (tests check that a fault run had faults).
    int firedCount(FaultSpec::Kind kind) const { return m_fired.value(int(kind)); }

Q_SIGNALS:
    /// Time to drop every watch stream.
    void dropWatches();

private:
    bool draw(FaultSpec::Kind kind, const FaultRequest &request) const;
    /// Whether fault `i` applies to the request and is drawn (counted when it fires).
    bool fires(int i, const FaultRequest &request) const;
    mutable QHash<int, int> m_firedBySpec; // index in m_faults -> times fired
    QList<FaultSpec> m_faults;
    mutable QRandomGenerator m_random{QRandomGenerator::global()->generate()};
    mutable QHash<int, int> m_fired;
    QTimer m_dropTimer;
};

} // namespace opbench::apiserver
