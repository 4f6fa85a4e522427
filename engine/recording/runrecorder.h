// SPDX-License-Identifier: Apache-2.0
#pragma once
// RunRecorder: records what a Manager received and decided, in order, into a file a replay can
// re-execute (`--record PATH` on every runOperator-based operator; docs/recording.md):
//   - every change each informer applied (kind, add/modify/delete, resourceVersion, object),
//     and at attach time the content the informers already held;
//   - reconcile starts (controller, reconcileID, key, the clock's monotonic and wall readings)
//     and ends (worker, retries, priority, causes, result, requeueAfter, error and its code, the
//     clock's monotonic reading);
//   - every client call of a reconcile (verb, kind, key, cache or live, status code, reason,
//     resourceVersion; writes with the object sent and the server's reply; live reads with the
//     reply);
//   - what the informers got, raw (format 2): each list page (resourceVersion asked and got,
//     continue token, item count), each watch start and end (closed, expired, error, cancelled)
//     and each watch event as received (type, BOOKMARK and ERROR included, resourceVersion, key);
//   - every queue add with its cause (delay, rate-limited, priority, the queue clock's reading);
//   - leadership changes.
// Secret data/stringData values are replaced by "<redacted>"; the REST configuration (tokens,
// client keys, kubeconfig) is never seen by the recorder. The engine thread only builds each
// record's bytes and queues them: a writer thread writes, flushes and rotates (maxBytes; the
// previous file becomes PATH.1). Lives on the engine thread.

#include "engine/api/expected.h"
#include "engine/cache/reflectorobserver.h"
#include "engine/controller/clienttap.h"
#include "engine/queue/workqueue.h"

#include <QByteArrayList>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>
#include <vector>

namespace opbench {

class Controller;
class Informer;
class Manager;
struct CacheChange;
struct ReconcileTrace;

namespace recording {
class RecordingWriter;
}

struct RunRecorderOptions
{
    QString path;
    /// Rotate when the file would grow past this many bytes (0 = never). Defaults to 64 MiB.
    qint64 maxBytes = 64LL * 1024 * 1024;
    /// Header fields: the operator's name and its CRDs (YAML; the header lists their kinds).
    QString operatorName;
    QByteArrayList crds;
};

class RunRecorder : public QObject, public ClientTap, public WorkQueueAddObserver
{
    Q_OBJECT
public:
    explicit RunRecorder(RunRecorderOptions options, QObject *parent = nullptr);
    ~RunRecorder() override;
    Q_DISABLE_COPY_MOVE(RunRecorder)

    /// Opens the file (writing the header) and attaches to `manager`: its cache's informers
    /// (those there now, whose content is recorded as it stands, and those created later), its
    /// controllers (those added so far: attach after the operator's setup), its client and its
    /// leadership. The error names the path and the reason.
    Expected<void> start(Manager *manager);
    /// Detaches and closes the file after writing everything queued. Idempotent.
    void stop();
    /// Waits until every record so far is on disk (tests, benchmarks).
    void flush();

    /// The file written (rotation keeps the name; the previous one is PATH.1).
    [[nodiscard]] const QString &path() const { return m_options.path; }
    [[nodiscard]] qint64 bytesWritten() const;
    [[nodiscard]] qint64 recordsWritten() const;
    [[nodiscard]] int rotations() const;
    [[nodiscard]] qint64 reconcilesRecorded() const { return m_reconciles; }
    [[nodiscard]] qint64 eventsRecorded() const { return m_events; }
    /// Raw informer records (list pages, watch starts, ends and events) and queue adds so far.
    [[nodiscard]] qint64 rawRecorded() const { return m_raw; }
    [[nodiscard]] qint64 queueAddsRecorded() const { return m_adds; }

    // ClientTap
    void callFinished(
        const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply) override;
    // WorkQueueAddObserver
    void keyAdded(const WorkQueue &queue, const QueueKey &key, const Cause &cause, const QueueAddInfo &how) override;

private:
    class InformerTap;
    friend class InformerTap;
    void recordListPage(int informerId, const ListPageInfo &page);
    void recordWatchStart(int informerId, const QString &ns, const QString &rv, bool initialEvents);
    void recordWatchEvent(int informerId, const WatchEvent &event);
    void recordWatchEnd(int informerId, const WatchEndInfo &end);
    QByteArray header() const;
    void attachInformer(Informer *informer, const GroupVersionKind &gvk);
    void attachController(Controller *controller);
    void recordChange(int informerId, const CacheChange &change);
    void recordStart(const Controller *controller, const QString &reconcileId, const QString &key);
    void recordEnd(const ReconcileTrace &trace);
    void recordLeader(bool leading);

    RunRecorderOptions m_options;
    std::unique_ptr<recording::RecordingWriter> m_writer;
    QPointer<Manager> m_manager;
    QHash<const Informer *, int> m_informers;
    QList<QMetaObject::Connection> m_connections;
    std::vector<std::unique_ptr<InformerTap>> m_taps;
    QList<QPointer<Informer>> m_tapped;
    QList<QPointer<WorkQueue>> m_queues;
    qint64 m_reconciles = 0;
    qint64 m_events = 0;
    qint64 m_raw = 0;
    qint64 m_adds = 0;
};

} // namespace opbench
