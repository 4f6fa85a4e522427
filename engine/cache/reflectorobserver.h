// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReflectorObserver: sees what a Reflector got from the API server, raw, before the informer
// turns it into store changes: each list page (its resourceVersion, continue token and item
// count), each watch as it starts and ends (with why it ended), and each watch event as received
// (BOOKMARK and ERROR included, with its resourceVersion). A run recorder's tap
// (engine/recording); the cache does not know who listens. Called synchronously on the engine
// thread from the reflector: keep it cheap. Set with Informer::setReflectorObserver().

#include <QString>

namespace opbench {

class Reflector;
struct WatchEvent;

/// One page of a LIST as the reflector got it.
struct ListPageInfo
{
    QString namespaceName;   ///< the reflector's namespace ("" = all)
    QString requestedRv;     ///< the resourceVersion asked for ("" = a consistent read; "0" = any)
    QString resourceVersion; ///< the page's (every page carries the first page's)
    QString continueToken;   ///< "" on the last page
    int items = 0;
    int code = 0;          ///< 0 when the page came; else the HTTP status of the failed list
    QString message;       ///< the failure's message (code != 0)
    bool fullList = false; ///< the unpaginated retry after a continue token expired
};

/// Why a watch ended.
struct WatchEndInfo
{
    enum class Reason {
        Closed,    ///< the server ended the stream cleanly (EOF, its timeout): the reflector re-watches
        Expired,   ///< 410 Gone / Expired (or 504 too-large resourceVersion): the reflector relists
        Error,     ///< another error (transport, 429, 5xx, …)
        Cancelled, ///< the reflector stopped it (stop(), a streaming list abandoned)
    };
    QString namespaceName;
    Reason reason = Reason::Closed;
    int code = 0;      ///< the Status code (0 for a clean close or a transport failure)
    QString message;   ///< the Status message
    qint64 events = 0; ///< events the watch delivered

    [[nodiscard]] static const char *reasonName(Reason r)
    {
        switch (r) {
        case Reason::Closed:
            return "closed";
        case Reason::Expired:
            return "expired";
        case Reason::Error:
            return "error";
        case Reason::Cancelled:
            return "cancelled";
        }
        return "";
    }
};

class ReflectorObserver
{
public:
    virtual ~ReflectorObserver() = default;
    /// A list page arrived (or the list failed: `page.code`).
    virtual void listPage(const Reflector &reflector, const ListPageInfo &page) = 0;
    /// A watch was opened from `resourceVersion` (`initialEvents`: a streaming list).
    virtual void watchStarted(const Reflector &reflector, const QString &resourceVersion, bool initialEvents) = 0;
    /// An event as the watch delivered it (before any filtering).
    virtual void watchEvent(const Reflector &reflector, const WatchEvent &event) = 0;
    virtual void watchEnded(const Reflector &reflector, const WatchEndInfo &end) = 0;

protected:
    ReflectorObserver() = default;
    ReflectorObserver(const ReflectorObserver &) = default;
    ReflectorObserver &operator=(const ReflectorObserver &) = default;
    ReflectorObserver(ReflectorObserver &&) = default;
    ReflectorObserver &operator=(ReflectorObserver &&) = default;
};

} // namespace opbench
