// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/webhookgate.h"

#include "engine/base/logger.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QSet>

namespace opbench {

struct WebhookGate::HeldUids
{
    mutable QMutex mutex;
    QSet<QString> uids;

    void insert(const QString &uid)
    {
        const QMutexLocker lock(&mutex);
        uids.insert(uid);
    }
    void remove(const QString &uid)
    {
        const QMutexLocker lock(&mutex);
        uids.remove(uid);
    }
    bool contains(const QString &uid) const
    {
        const QMutexLocker lock(&mutex);
        return uids.contains(uid);
    }
};

namespace {

QByteArray indented(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Indented); }

/// What the gate shows of `http`: the review's kind, its request and who it is about.
WebhookRequestInfo describeRequest(const WebhookRequest &http, QString *review, QByteArray *shown)
{
    WebhookRequestInfo info;
    info.path = http.path;
    const QJsonObject doc = QJsonDocument::fromJson(http.body).object();
    const QJsonObject request = doc.value(QLatin1String("request")).toObject();
    *review = doc.value(QLatin1String("kind")).toString();
    *shown = request.isEmpty() ? http.body : indented(request);
    info.uid = request.value(QLatin1String("uid")).toString();
    if (*review == QLatin1String("ConversionReview")) {
        info.operation = QStringLiteral("CONVERT");
        const QJsonObject first = request.value(QLatin1String("objects")).toArray().at(0).toObject();
        const QJsonObject meta = first.value(QLatin1String("metadata")).toObject();
        info.objectKind = first.value(QLatin1String("kind")).toString();
        info.namespaceName = meta.value(QLatin1String("namespace")).toString();
        info.name = meta.value(QLatin1String("name")).toString();
        return info;
    }
    info.operation = request.value(QLatin1String("operation")).toString();
    info.objectKind = request.value(QLatin1String("kind")).toObject().value(QLatin1String("kind")).toString();
    info.namespaceName = request.value(QLatin1String("namespace")).toString();
    info.name = request.value(QLatin1String("name")).toString();
    if (info.name.isEmpty()) // a CREATE with generateName, or a review that names none
        info.name = request.value(QLatin1String("object"))
                        .toObject()
                        .value(QLatin1String("metadata"))
                        .toObject()
                        .value(QLatin1String("name"))
                        .toString();
    return info;
}

/// The handler's answer as the workbench shows it.
void describeAnswer(HeldWebhookRequest &h, const WebhookReply &reply)
{
    h.code = reply.code;
    const QJsonObject doc = QJsonDocument::fromJson(reply.body).object();
    const QJsonObject response = doc.value(QLatin1String("response")).toObject();
    h.response = response.isEmpty() ? reply.body : indented(response);
    if (reply.code < 200 || reply.code >= 300 || response.isEmpty()) {
        h.failed = true;
        h.verdict = QStringLiteral("failed: HTTP %1: %2")
                        .arg(reply.code)
                        .arg(QString::fromUtf8(reply.body.trimmed().left(200)));
        return;
    }
    // A ConversionReview's response carries "result", an AdmissionReview's "status".
    const QJsonObject result = response.value(QLatin1String("result")).toObject();
    const QJsonObject status = response.value(QLatin1String("status")).toObject();
    const QString message
        = (h.review == QLatin1String("ConversionReview") ? result : status).value(QLatin1String("message")).toString();
    if (h.review == QLatin1String("ConversionReview")) {
        h.failed = result.value(QLatin1String("status")).toString() != QLatin1String("Success");
        h.verdict = h.failed ? QStringLiteral("failed: ") + message : QStringLiteral("converted");
        return;
    }
    if (response.value(QLatin1String("allowed")).toBool()) {
        const QByteArray patch = QByteArray::fromBase64(response.value(QLatin1String("patch")).toString().toLatin1());
        const qsizetype ops = QJsonDocument::fromJson(patch).array().size();
        h.verdict = ops == 0 ? QStringLiteral("allowed")
            : ops == 1       ? QStringLiteral("patched (1 op)")
                             : QStringLiteral("patched (%1 ops)").arg(ops);
        if (ops > 0) // the operations, decoded, after the response
            h.response += "\npatch:\n" + QJsonDocument::fromJson(patch).toJson(QJsonDocument::Indented);
        return;
    }
    int code = status.value(QLatin1String("code")).toInt();
    if (code < 400) // as the API server reads a denial
        code = 403;
    h.failed = code >= 500;
    h.verdict = QStringLiteral("%1 (%2): %3")
                    .arg(h.failed ? QStringLiteral("failed") : QStringLiteral("denied"))
                    .arg(code)
                    .arg(message);
}

} // namespace

WebhookGate::WebhookGate(QObject *parent)
    : QObject(parent)
    , m_uids(std::make_shared<HeldUids>())
{
    qRegisterMetaType<WebhookGateState>();
}

WebhookGate::~WebhookGate() { attach(nullptr); }

void WebhookGate::attach(WebhookServer *server)
{
    if (m_server == server)
        return;
    if (m_server)
        m_server->setInterceptor({});
    continueAll();
    m_server = server;
    if (server) {
        QPointer<WebhookGate> self(this);
        server->setInterceptor(
            [self](const WebhookRequest &request, const WebhookResponder &respond, const WebhookRun &run) {
                if (self)
                    self->intercept(request, respond, run);
                else
                    run(respond);
            });
    }
    publish();
}

std::function<bool(const QString &)> WebhookGate::heldPredicate() const
{
    return [uids = m_uids](const QString &uid) { return uids->contains(uid); };
}

bool WebhookGate::hasBreakpoint(int id) const
{
    for (const WebhookBreakpoint &b : m_breakpoints)
        if (b.id == id)
            return true;
    return false;
}

void WebhookGate::intercept(const WebhookRequest &request, const WebhookResponder &respond, const WebhookRun &run)
{
    Entry e;
    e.shown.info = describeRequest(request, &e.shown.review, &e.shown.request);
    if (m_stepInto) {
        m_stepInto = false;
        e.shown.reason = QStringLiteral("step into");
    } else {
        for (const WebhookBreakpoint &b : std::as_const(m_breakpoints)) {
            if (b.holds(e.shown.info)) {
                e.shown.reason = b.describe();
                ++m_hits[b.id];
                break;
            }
        }
    }
    if (e.shown.reason.isEmpty()) {
        run(respond);
        return;
    }
    e.shown.id = ++m_nextId;
    e.respond = respond;
    e.run = run;
    if (!e.shown.info.uid.isEmpty())
        m_uids->insert(e.shown.info.uid);
    Logger()
        .withName(QStringLiteral("webhook-gate"))
        .info(QStringLiteral("holding a webhook request"),
            {{QStringLiteral("webhook"), request.path}, {QStringLiteral("uid"), e.shown.info.uid},
                {QStringLiteral("reason"), e.shown.reason}});
    m_held.append(e);
    publish();
}

WebhookGate::Entry *WebhookGate::entry(quint64 id)
{
    for (Entry &e : m_held)
        if (id == 0 || e.shown.id == id)
            return &e;
    return nullptr;
}

void WebhookGate::continueRequest(quint64 id) { release(id, false); }

void WebhookGate::stepRequest(quint64 id) { release(id, true); }

void WebhookGate::continueAll()
{
    QList<quint64> ids;
    for (const Entry &e : std::as_const(m_held))
        ids.append(e.shown.id);
    for (const quint64 id : std::as_const(ids))
        release(id, false);
}

void WebhookGate::release(quint64 id, bool keepAnswer)
{
    Entry *e = entry(id);
    if (!e)
        return;
    if (e->shown.stage == HeldWebhookRequest::Stage::Answered) {
        send(e->shown.id);
        return;
    }
    if (e->shown.stage == HeldWebhookRequest::Stage::Running)
        return; // its answer goes on when the handler gives it
    const quint64 held = e->shown.id;
    e->shown.stage = HeldWebhookRequest::Stage::Running;
    const WebhookRun run = e->run;
    publish();
    QPointer<WebhookGate> self(this);
    run(WebhookResponder([self, held, keepAnswer](const WebhookReply &reply) {
        if (self)
            self->handlerAnswered(held, reply, keepAnswer);
    }));
}

void WebhookGate::handlerAnswered(quint64 id, const WebhookReply &reply, bool keepAnswer)
{
    Entry *e = entry(id);
    if (!e || id == 0)
        return;
    e->answer = reply;
    describeAnswer(e->shown, reply);
    e->shown.stage = HeldWebhookRequest::Stage::Answered;
    if (keepAnswer)
        publish();
    else
        send(id);
}

void WebhookGate::send(quint64 id)
{
    for (qsizetype i = 0; i < m_held.size(); ++i) {
        if (m_held.at(i).shown.id != id)
            continue;
        const Entry e = m_held.takeAt(i);
        e.respond.reply(e.answer);
        m_uids->remove(e.shown.info.uid);
        publish();
        return;
    }
}

void WebhookGate::addBreakpoint(const QString &spec)
{
    Expected<WebhookBreakpoint> b = WebhookBreakpoint::parse(spec);
    m_error = b ? QString() : b.error().message();
    if (b) {
        b->id = m_nextBreakpointId++;
        m_breakpoints.append(*b);
    }
    publish();
}

void WebhookGate::removeBreakpoint(int id)
{
    m_breakpoints.removeIf([id](const WebhookBreakpoint &b) { return b.id == id; });
    m_hits.remove(id);
    publish();
}

void WebhookGate::setBreakpointEnabled(int id, bool on)
{
    for (WebhookBreakpoint &b : m_breakpoints)
        if (b.id == id)
            b.enabled = on;
    publish();
}

void WebhookGate::setNeverHits(const QString &reason)
{
    if (m_neverHits == reason)
        return;
    m_neverHits = reason;
    publish();
}

void WebhookGate::setStepInto(bool on)
{
    m_stepInto = on;
    publish();
}

WebhookGateState WebhookGate::state() const
{
    WebhookGateState s;
    s.attached = m_server != nullptr;
    s.stepInto = m_stepInto;
    s.error = m_error;
    s.neverHits = m_neverHits;
    for (const Entry &e : m_held)
        s.held.append(e.shown);
    for (const WebhookBreakpoint &b : m_breakpoints)
        s.breakpoints.append({b.id, b.describe(), b.enabled, m_hits.value(b.id)});
    return s;
}

void WebhookGate::publish() { Q_EMIT stateChanged(state()); }

} // namespace opbench
