// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/runrecorder.h"

#include "engine/api/crdmapping.h"
#include "engine/api/version.h"
#include "engine/cache/informer.h"
#include "engine/cache/reflector.h"
#include "engine/client/watchdecoder.h"
#include "engine/manager/manager.h"
#include "engine/recording/recordingformat.h"
#include "engine/recording/recordingwriter_p.h"

namespace opbench {

using recording::appendBool;
using recording::appendField;
using recording::ObjectField;
using recording::RecordingWriter;

namespace {

GroupVersionKind gvkOfInformer(const Informer *informer)
{
    const InformerOptions &o = informer->options();
    return GroupVersionKind{o.resource.group, o.resource.version, o.kind};
}

/// A record body's start, `"t":"TYPE"`, in room for the usual record (objects are added by the
/// writer thread), so that the fields appended after it do not reallocate it.
QByteArray recordOf(const char *type)
{
    QByteArray body;
    body.reserve(512);
    body += "\"t\":\"";
    body += type;
    body += '"';
    return body;
}

void appendGvk(QByteArray &out, const GroupVersionKind &gvk)
{
    appendField(out, "av", gvk.apiVersion());
    appendField(out, "kind", gvk.kind);
}

void appendObject(QByteArray &out, const char *key, const Object &obj)
{
    out += ",\"";
    out += key;
    out += "\":";
    if (recording::isSecret(obj.gvk()))
        out += recording::redactedJson(obj);
    else
        obj.appendJsonTo(out); // no intermediate copy
}

qint64 nanos(Clock::TimePoint t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

const char *watchTypeName(WatchEvent::Type t)
{
    switch (t) {
    case WatchEvent::Type::Added:
        return "ADDED";
    case WatchEvent::Type::Modified:
        return "MODIFIED";
    case WatchEvent::Type::Deleted:
        return "DELETED";
    case WatchEvent::Type::Bookmark:
        return "BOOKMARK";
    case WatchEvent::Type::Error:
        return "ERROR";
    }
    return "";
}

} // namespace

/// One informer's reflectors, observed for the recorder (tagged with the informer's id).
class RunRecorder::InformerTap final : public ReflectorObserver
{
public:
    InformerTap(RunRecorder *recorder, int id)
        : m_recorder(recorder)
        , m_id(id)
    { }
    void listPage(const Reflector &reflector, const ListPageInfo &page) override
    {
        Q_UNUSED(reflector);
        m_recorder->recordListPage(m_id, page);
    }
    void watchStarted(const Reflector &reflector, const QString &rv, bool initialEvents) override
    {
        m_recorder->recordWatchStart(m_id, reflector.options().namespaceName, rv, initialEvents);
    }
    void watchEvent(const Reflector &reflector, const WatchEvent &event) override
    {
        Q_UNUSED(reflector);
        m_recorder->recordWatchEvent(m_id, event);
    }
    void watchEnded(const Reflector &reflector, const WatchEndInfo &end) override
    {
        Q_UNUSED(reflector);
        m_recorder->recordWatchEnd(m_id, end);
    }

private:
    RunRecorder *m_recorder;
    int m_id;
};

RunRecorder::RunRecorder(RunRecorderOptions options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{ }

RunRecorder::~RunRecorder() { stop(); }

QByteArray RunRecorder::header() const
{
    QByteArray h = "\"t\":\"header\"";
    appendField(h, "format", QString::fromLatin1(recording::kFormat));
    appendField(h, "operator", m_options.operatorName);
    appendField(h, "sdk", version());
    appendField(h, "start", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    h += ",\"crds\":[";
    bool first = true;
    for (const QByteArray &crd : m_options.crds) {
        const auto mappings = crdMappings(crd, QStringLiteral("crd"));
        if (!mappings)
            continue;
        for (const ResourceMapping &m : *mappings) {
            if (!first)
                h += ',';
            first = false;
            recording::appendString(h, m.kind + u'.' + m.gvr.version + u'.' + m.gvr.group);
        }
    }
    h += "]}";
    return h;
}

Expected<void> RunRecorder::start(Manager *manager)
{
    if (m_writer)
        return Status(0, QStringLiteral("Invalid"), QStringLiteral("the recorder is already started"));
    auto writer = std::make_unique<RecordingWriter>(m_options.path, m_options.maxBytes);
    if (auto ok = writer->open(header()); !ok)
        return ok.error();
    m_writer = std::move(writer);
    m_manager = manager;
    InformerCache *cache = manager->cache();
    for (Informer *informer : cache->informers())
        attachInformer(informer, gvkOfInformer(informer));
    m_connections.append(connect(cache, &InformerCache::informerCreated, this,
        [this](Informer *informer, const GroupVersionKind &gvk) { attachInformer(informer, gvk); }));
    for (Controller *controller : manager->controllers())
        attachController(controller);
    m_connections.append(connect(manager, &Manager::leadershipChanged, this, &RunRecorder::recordLeader));
    manager->client()->setTap(this);
    return {};
}

void RunRecorder::stop()
{
    for (const QMetaObject::Connection &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    for (const QPointer<Informer> &informer : std::as_const(m_tapped))
        if (informer)
            informer->setReflectorObserver(nullptr);
    m_tapped.clear();
    for (const QPointer<WorkQueue> &queue : std::as_const(m_queues))
        if (queue && queue->addObserver() == this)
            queue->setAddObserver(nullptr);
    m_queues.clear();
    if (m_manager && m_manager->client()->tap() == this)
        m_manager->client()->setTap(nullptr);
    m_manager = nullptr;
    if (m_writer)
        m_writer->close();
}

void RunRecorder::flush()
{
    if (m_writer)
        m_writer->flush();
}

qint64 RunRecorder::bytesWritten() const { return m_writer ? m_writer->bytesWritten() : 0; }
qint64 RunRecorder::recordsWritten() const { return m_writer ? m_writer->recordsWritten() : 0; }
int RunRecorder::rotations() const { return m_writer ? m_writer->rotations() : 0; }

void RunRecorder::attachInformer(Informer *informer, const GroupVersionKind &gvk)
{
    if (m_informers.contains(informer))
        return;
    const int id = int(m_informers.size()) + 1;
    m_informers.insert(informer, id);
    QByteArray body = recordOf("informer");
    appendField(body, "inf", id);
    appendGvk(body, gvk);
    appendBool(body, "meta", informer->options().metadataOnly);
    body += '}';
    m_writer->append(std::move(body), RecordingWriter::Mirror::Informer);
    // What it holds already (attached to a running manager): recorded as adds.
    for (const Object &obj : informer->store().list())
        recordChange(id, CacheChange{CacheChange::Type::Added, obj.key(), obj.resourceVersion(), {}, {}, obj});
    m_connections.append(connect(
        informer, &Informer::changed, this, [this, id](const CacheChange &change) { recordChange(id, change); }));
    m_taps.push_back(std::make_unique<InformerTap>(this, id));
    informer->setReflectorObserver(m_taps.back().get());
    m_tapped.append(informer);
}

void RunRecorder::attachController(Controller *controller)
{
    QPointer<Controller> c(controller);
    m_connections.append(connect(controller, &Controller::reconcileStarted, this,
        [this, c](const QString &id, const QString &key) { recordStart(c.data(), id, key); }));
    m_connections.append(connect(controller, &Controller::reconcileFinished, this, &RunRecorder::recordEnd));
    controller->queue()->setAddObserver(this);
    m_queues.append(controller->queue());
}

void RunRecorder::recordChange(int informerId, const CacheChange &change)
{
    ++m_events;
    const bool deleted = change.type == CacheChange::Type::Deleted;
    QByteArray body = recordOf("ev");
    appendField(body, "inf", informerId);
    appendField(body, "op",
        deleted ? QStringLiteral("del")
                : (change.type == CacheChange::Type::Added ? QStringLiteral("add") : QStringLiteral("mod")));
    appendField(body, "rv", change.resourceVersion);
    const Object &obj = deleted ? change.oldObject : change.newObject;
    QByteArray key = QByteArray::number(informerId) + '/' + change.key.toUtf8();
    const RecordingWriter::Mirror mirror = deleted ? RecordingWriter::Mirror::Remove : RecordingWriter::Mirror::Put;
    if (recording::isSecret(obj.gvk())) {
        appendObject(body, "obj", obj); // redacted here
        body += '}';
        m_writer->append(std::move(body), mirror, std::move(key));
        return;
    }
    // The object's JSON is written on the writer thread.
    m_writer->appendWithObjects(std::move(body), {"obj", obj}, {}, mirror, std::move(key));
}

void RunRecorder::recordListPage(int informerId, const ListPageInfo &page)
{
    if (!m_writer)
        return;
    ++m_raw;
    QByteArray body = recordOf("lp");
    appendField(body, "inf", informerId);
    if (!page.namespaceName.isEmpty())
        appendField(body, "ns", page.namespaceName);
    appendField(body, "req", page.requestedRv);
    if (page.code != 0) {
        appendField(body, "code", page.code);
        appendField(body, "msg", page.message);
    } else {
        appendField(body, "rv", page.resourceVersion);
        appendField(body, "n", page.items);
        if (!page.continueToken.isEmpty())
            appendField(body, "cont", page.continueToken);
    }
    if (page.fullList)
        appendBool(body, "full", true);
    body += '}';
    m_writer->append(std::move(body));
}

void RunRecorder::recordWatchStart(int informerId, const QString &ns, const QString &rv, bool initialEvents)
{
    if (!m_writer)
        return;
    ++m_raw;
    QByteArray body = recordOf("ws");
    appendField(body, "inf", informerId);
    if (!ns.isEmpty())
        appendField(body, "ns", ns);
    appendField(body, "rv", rv);
    if (initialEvents)
        appendBool(body, "stream", true);
    body += '}';
    m_writer->append(std::move(body));
}

void RunRecorder::recordWatchEvent(int informerId, const WatchEvent &event)
{
    if (!m_writer)
        return;
    ++m_raw;
    QByteArray body = recordOf("we");
    appendField(body, "inf", informerId);
    body += ",\"type\":\"";
    body += watchTypeName(event.type);
    body += '"';
    appendField(body, "rv", event.resourceVersion);
    if (event.type == WatchEvent::Type::Error) {
        appendField(body, "code", event.error.code());
        appendField(body, "msg", event.error.message());
    } else if (event.type != WatchEvent::Type::Bookmark) {
        appendField(body, "key", event.object.key());
    }
    body += '}';
    m_writer->append(std::move(body));
}

void RunRecorder::recordWatchEnd(int informerId, const WatchEndInfo &end)
{
    if (!m_writer)
        return;
    ++m_raw;
    QByteArray body = recordOf("wx");
    appendField(body, "inf", informerId);
    if (!end.namespaceName.isEmpty())
        appendField(body, "ns", end.namespaceName);
    body += ",\"why\":\"";
    body += WatchEndInfo::reasonName(end.reason);
    body += '"';
    if (end.code != 0)
        appendField(body, "code", end.code);
    if (!end.message.isEmpty())
        appendField(body, "msg", end.message);
    appendField(body, "n", end.events);
    body += '}';
    m_writer->append(std::move(body));
}

void RunRecorder::keyAdded(const WorkQueue &queue, const QueueKey &key, const Cause &cause, const QueueAddInfo &how)
{
    if (!m_writer)
        return;
    ++m_adds;
    QByteArray body = recordOf("qa");
    appendField(body, "ctl", queue.name());
    appendField(body, "key", key.toString());
    appendField(body, "cause", cause.describe());
    if (how.delay > Clock::Duration::zero())
        appendField(body, "afterMs", qint64(std::chrono::duration_cast<std::chrono::milliseconds>(how.delay).count()));
    if (how.rateLimited)
        appendBool(body, "rl", true);
    if (how.priority != 0)
        appendField(body, "prio", how.priority);
    appendField(body, "mono", nanos(queue.clock()->now()));
    body += '}';
    m_writer->append(std::move(body));
}

void RunRecorder::recordStart(const Controller *controller, const QString &reconcileId, const QString &key)
{
    ++m_reconciles;
    Clock *clock = m_manager ? m_manager->client()->clock() : Clock::system();
    QByteArray body = recordOf("rs");
    appendField(body, "ctl", controller ? controller->name() : QString());
    appendField(body, "id", reconcileId);
    appendField(body, "key", key);
    appendField(body, "mono", nanos(clock->now()));
    appendField(body, "wall", clock->wallNow().toMSecsSinceEpoch());
    body += '}';
    m_writer->append(std::move(body));
}

void RunRecorder::recordEnd(const ReconcileTrace &t)
{
    QByteArray body = recordOf("re");
    appendField(body, "id", t.id);
    appendField(body, "ctl", t.controller);
    appendField(body, "key", t.request.toString());
    appendField(body, "worker", t.worker);
    appendField(body, "retries", t.retries);
    appendField(body, "prio", t.priority);
    appendField(body, "result", ReconcileTrace::resultName(t.result));
    appendField(body, "afterMs", qint64(std::chrono::duration_cast<std::chrono::milliseconds>(t.requeueAfter).count()));
    if (!t.error.isEmpty()) {
        appendField(body, "err", t.error);
        appendField(body, "code", t.errorCode);
    }
    appendField(body, "calls", qint64(t.calls.size()));
    appendField(body, "mono", nanos((m_manager ? m_manager->client()->clock() : Clock::system())->now()));
    body += ",\"causes\":[";
    for (int i = 0; i < t.causes.size(); ++i) {
        if (i > 0)
            body += ',';
        recording::appendString(body, t.causes.at(i).describe());
    }
    body += "]}";
    m_writer->append(std::move(body));
}

void RunRecorder::recordLeader(bool leading)
{
    QByteArray body = recordOf("leader");
    appendBool(body, "leading", leading);
    appendField(body, "wall", QDateTime::currentMSecsSinceEpoch());
    body += '}';
    m_writer->append(std::move(body));
}

void RunRecorder::callFinished(
    const ReconcileContext &ctx, const TraceCall &call, const Object &sent, const Object &reply)
{
    if (ctx.isBackground() || !m_writer)
        return;
    QByteArray body = recordOf("call");
    appendField(body, "rid", ctx.reconcileId());
    appendField(body, "i", qint64(ctx.scope()->trace.calls.size()) - 1);
    appendField(body, "verb", call.verb);
    appendGvk(body, call.gvk);
    appendField(body, "key", call.key);
    appendBool(body, "cache", call.fromCache);
    appendField(body, "code", call.code);
    if (!call.reason.isEmpty())
        appendField(body, "reason", call.reason);
    if (!call.message.isEmpty())
        appendField(body, "msg", call.message);
    if (!call.resourceVersion.isEmpty())
        appendField(body, "rv", call.resourceVersion);
    if (call.items >= 0)
        appendField(body, "items", call.items);
    if (!call.patch.isEmpty())
        appendField(body, "patch",
            recording::isSecret(call.gvk) ? QString::fromLatin1(recording::kRedacted) : QString::fromUtf8(call.patch));
    if (recording::isSecret(sent.gvk()) || recording::isSecret(reply.gvk())) {
        if (!sent.isNull())
            appendObject(body, "sent", sent); // redacted here
        if (!reply.isNull())
            appendObject(body, "reply", reply);
        body += '}';
        m_writer->append(std::move(body));
        return;
    }
    // The objects' JSON is written on the writer thread.
    ObjectField first;
    ObjectField second;
    if (!sent.isNull())
        first = {"sent", sent};
    if (!reply.isNull())
        (first.key ? second : first) = {"reply", reply};
    m_writer->appendWithObjects(std::move(body), std::move(first), std::move(second));
}

} // namespace opbench
