// SPDX-License-Identifier: Apache-2.0
#pragma once
// EventRecorder: core/v1 Events as client-go's record package writes them.
//
// - A new event is POSTed as `<object name>.<hex wall-clock nanoseconds>` (strictly increasing
//   per recorder, so events in the same millisecond do not collide) in the object's
//   namespace ("default" for cluster-scoped objects), count 1, first = last timestamp.
// - An identical repeat (same source, involved object, type, reason, message) PATCHes the
//   existing Event (strategic merge: count + 1, lastTimestamp); when that Event is gone, a new
//   one is POSTed.
// - Spam filter: a token bucket per source + object + type (burst 25, one token per 300 s);
//   events beyond it are dropped (counted in droppedCount()).
// - Writes are fire-and-forget from event(), normal() and warning(); record() is the awaitable
//   form (tests). recorder() is the value handle a Reconciler holds (engine/controller/recorder.h).
// Type is "Normal" or "Warning".

#include "engine/api/expected.h"
#include "engine/api/object.h"
#include "engine/base/clock.h"
#include "engine/controller/recorder.h"

#include <QHash>
#include <QObject>

#include <qcoro/qcorotask.h>

namespace opbench {

class RestClient;

class EventRecorder : public QObject
{
    Q_OBJECT
public:
    /// `client` is not owned. `component` is source.component (e.g. "myapplication-controller").
    EventRecorder(
        RestClient *client, QString component, QString host = {}, Clock *clock = nullptr, QObject *parent = nullptr);

    void event(const Object &object, const QString &type, const QString &reason, const QString &message);
    /// A "Normal" / "Warning" event about `object` (an Object or any view with toObject()).
    template<class V> void normal(const V &object, const QString &reason, const QString &message)
    {
        recorder().normal(object, reason, message);
    }
    template<class V> void warning(const V &object, const QString &reason, const QString &message)
    {
        recorder().warning(object, reason, message);
    }
    /// A handle writing through this recorder (nothing once it is destroyed).
    [[nodiscard]] Recorder recorder();
    /// The written Event, or the error; a spam-filtered event gives a TooManyRequests Status.
    QCoro::Task<Expected<Object>> record(Object object, QString type, QString reason, QString message);

    int droppedCount() const { return m_dropped; }

private:
    struct Seen
    {
        QString eventName;
        QString namespaceName;
        int count = 0;
        QString firstTimestamp;
    };
    struct Bucket
    {
        double tokens = 25;
        Clock::TimePoint last{};
    };
    bool allow(const QString &bucketKey);
    QCoro::Task<Expected<Object>> post(Object object, QString type, QString reason, QString message, QString key);

    RestClient *m_client;
    QString m_component;
    QString m_host;
    Clock *m_clock;
    QHash<QString, Seen> m_seen;      // identical-event key → written Event (LRU-ish, 4096)
    QHash<QString, Bucket> m_buckets; // spam key → token bucket
    int m_dropped = 0;
    qint64 m_lastNanos = 0; // the last name suffix used
};

} // namespace opbench
