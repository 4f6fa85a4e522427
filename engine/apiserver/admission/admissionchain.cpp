// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/admission/admissionchain.h"

#include "engine/apiserver/apply/jsonpatch.h"
#include "engine/base/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QUuid>

namespace opbench::apiserver {

namespace {

QString hookName(const MatchedWebhook &m) { return m.hook.value(QLatin1String("name")).toString(); }

bool ignoresFailure(const MatchedWebhook &m)
{
    return m.hook.value(QLatin1String("failurePolicy")).toString() == QLatin1String("Ignore");
}

/// k8s.io/apiserver webhook errors: the call failed.
Status callFailed(const MatchedWebhook &m, const QString &error)
{
    const QString message = QStringLiteral("failed calling webhook \"%1\": %2").arg(hookName(m), error);
    Status s = Status::internalError(message);
    return Status(s.code(), s.reason(), s.message(), StatusDetails{{}, {}, {}, {}, {StatusCause{{}, message, {}}}, 0});
}

/// webhookerrors.ToStatusErr: the webhook said no.
Status denied(const MatchedWebhook &m, const QJsonObject &response)
{
    const QJsonObject status = response.value(QLatin1String("status")).toObject();
    int code = status.value(QLatin1String("code")).toInt();
    if (code < 400)
        code = 403;
    const QString by = QStringLiteral("admission webhook \"%1\" denied the request").arg(hookName(m));
    const QString msg = status.value(QLatin1String("message")).toString();
    const QString reason = status.value(QLatin1String("reason")).toString();
    QString message = by + QStringLiteral(" without explanation");
    if (!msg.isEmpty())
        message = by + QStringLiteral(": ") + msg;
    else if (!reason.isEmpty())
        message = by + QStringLiteral(": ") + reason;
    // As kube-apiserver's ToStatusErr: the webhook's Status is kept (details and causes
    // included, so kubectl prints `The Kind "name" is invalid: …` for a 422), its message prefixed.
    return Status(code, reason, message, Status::fromJson(status, code).details());
}

/// A dry-run request may only reach webhooks without side effects.
std::optional<Status> dryRunRefused(const MatchedWebhook &m, const AdmissionAttributes &a)
{
    const QString effects = m.hook.value(QLatin1String("sideEffects")).toString();
    if (!a.dryRun || effects == QLatin1String("None") || effects == QLatin1String("NoneOnDryRun"))
        return std::nullopt;
    return Status::badRequest(QStringLiteral("admission webhook \"%1\" does not support dry run").arg(hookName(m)));
}

QStringList warningsOf(const QJsonObject &response)
{
    QStringList out;
    for (const QJsonValue w : response.value(QLatin1String("warnings")).toArray())
        out << w.toString();
    return out;
}

QString newUid() { return QUuid::createUuid().toString(QUuid::WithoutBraces); }

/// The record of a call about to be sent: which webhook, for which request.
WebhookCallRecord beginRecord(const MatchedWebhook &m, const AdmissionAttributes &a, bool mutating, const QString &uid)
{
    WebhookCallRecord r;
    r.mutating = mutating;
    r.webhook = hookName(m);
    r.configuration = m.configuration;
    r.operation = a.operation;
    r.group = a.type.gvr().group;
    r.version = a.type.gvr().version;
    r.resource = a.type.gvr().resource;
    r.objectKind = a.type.kind();
    r.subresource = a.subresource;
    r.namespaceName = a.namespaceName;
    r.name = a.name;
    r.uid = uid;
    r.dryRun = a.dryRun;
    r.failurePolicy = m.hook.value(QLatin1String("failurePolicy")).toString(QStringLiteral("Fail"));
    r.before = a.object.isEmpty() ? a.oldObject : a.object;
    r.after = r.before;
    return r;
}

/// `r` failed as `error` says (`failure`: how); Ignore lets the request go on.
void recordFailure(
    WebhookCallRecord &r, const MatchedWebhook &m, WebhookCallRecord::Failure failure, const QString &error)
{
    r.failure = failure == WebhookCallRecord::Failure::None ? WebhookCallRecord::Failure::BadResponse : failure;
    r.error = error;
    r.ignored = ignoresFailure(m);
    r.code = r.ignored ? 0 : 500;
    r.message = r.ignored ? QString() : callFailed(m, error).message();
}

/// `r` as the webhook answered: its failure, or its verdict, warnings and patch (not yet applied).
void recordAnswer(WebhookCallRecord &r, const MatchedWebhook &m, const WebhookAnswer &answer)
{
    if (!answer.error.isEmpty())
        return recordFailure(r, m, answer.failure, answer.error);
    r.allowed = answer.response.value(QLatin1String("allowed")).toBool();
    r.warnings = warningsOf(answer.response);
    if (!r.allowed) {
        const Status s = denied(m, answer.response);
        r.code = s.code();
        r.message = s.message();
        return;
    }
    r.code = 200;
    const QString patch = answer.response.value(QLatin1String("patch")).toString();
    if (!patch.isEmpty())
        r.patch = QJsonDocument::fromJson(QByteArray::fromBase64(patch.toLatin1())).array();
}

/// `object` with the response's JSONPatch applied, or why it cannot be.
std::optional<QJsonObject> applyResponsePatch(const QJsonObject &response, const QJsonObject &object, QString *error)
{
    const QString type = response.value(QLatin1String("patchType")).toString();
    if (type != QLatin1String("JSONPatch")) {
        *error = QStringLiteral("unsupported patch type \"%1\"").arg(type);
        return std::nullopt;
    }
    const QByteArray patch = QByteArray::fromBase64(response.value(QLatin1String("patch")).toString().toLatin1());
    auto patched = applyJsonPatch(object, QJsonDocument::fromJson(patch).array());
    if (!patched) {
        *error = patched.error().message();
        return std::nullopt;
    }
    return *patched;
}

} // namespace

struct AdmissionChain::MutationRun
{
    AdmissionAttributes attributes;
    QList<MatchedWebhook> hooks;
    qsizetype next = 0;
    bool reinvoking = false;
    QList<qsizetype> changedAt; // indexes (first pass) of webhooks that changed the object
    QStringList warnings;
    MutateDone done;
};

AdmissionChain::AdmissionChain(Store *store, WebhookCaller *caller, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_caller(caller)
{ }

void AdmissionChain::send(const MatchedWebhook &hook, const AdmissionAttributes &attributes, bool mutating,
    std::function<void(WebhookAnswer, WebhookCallRecord)> done)
{
    const QString uid = newUid();
    WebhookCallRecord record = beginRecord(hook, attributes, mutating, uid);
    record.url = m_caller->urlFor(hook.hook, nullptr);
    Clock *clock = m_store->clock();
    record.time = clock->wallNow();
    const Clock::TimePoint started = clock->now();
    QPointer<AdmissionChain> self(this);
    m_caller->call(hook.hook, admissionReview(attributes, uid),
        [self, clock, started, hook, record, done](WebhookAnswer answer) mutable {
            if (!self)
                return;
            record.latency = std::chrono::duration_cast<std::chrono::microseconds>(clock->now() - started);
            recordAnswer(record, hook, answer);
            done(std::move(answer), std::move(record));
        });
}

bool AdmissionChain::matches(bool mutating, const AdmissionAttributes &attributes) const
{
    return !matchingWebhooks(m_store, mutating, attributes).isEmpty();
}

void AdmissionChain::mutate(AdmissionAttributes attributes, MutateDone done)
{
    auto run = std::make_shared<MutationRun>();
    run->hooks = matchingWebhooks(m_store, true, attributes);
    run->attributes = std::move(attributes);
    run->done = std::move(done);
    step(run);
}

void AdmissionChain::step(std::shared_ptr<MutationRun> run)
{
    if (run->next >= run->hooks.size()) {
        // Reinvocation: the IfNeeded webhooks called before a later webhook's change, once.
        QList<MatchedWebhook> again;
        if (!run->reinvoking && !run->changedAt.isEmpty()) {
            for (qsizetype i = 0; i < run->changedAt.last(); ++i)
                if (run->hooks.at(i).hook.value(QLatin1String("reinvocationPolicy")).toString()
                    == QLatin1String("IfNeeded"))
                    again << run->hooks.at(i);
        }
        if (again.isEmpty())
            return run->done(run->attributes.object, run->warnings);
        run->reinvoking = true;
        run->hooks = again;
        run->next = 0;
    }
    const MatchedWebhook hook = run->hooks.at(run->next);
    if (auto refused = dryRunRefused(hook, run->attributes))
        return run->done(*refused, run->warnings);
    QPointer<AdmissionChain> self(this);
    send(hook, run->attributes, true, [self, run, hook](WebhookAnswer answer, WebhookCallRecord record) {
        if (self)
            self->answered(run, hook, answer, std::move(record));
    });
}

void AdmissionChain::answered(
    std::shared_ptr<MutationRun> run, const MatchedWebhook &hook, const WebhookAnswer &answer, WebhookCallRecord record)
{
    const qsizetype index = run->next++;
    record.reinvocation = run->reinvoking;
    if (!answer.error.isEmpty()) {
        Q_EMIT called(record);
        if (ignoresFailure(hook))
            return step(run);
        return run->done(callFailed(hook, answer.error), run->warnings);
    }
    const QJsonObject response = answer.response;
    run->warnings << warningsOf(response);
    if (!response.value(QLatin1String("allowed")).toBool()) {
        Q_EMIT called(record);
        return run->done(denied(hook, response), run->warnings);
    }
    const QString patch = response.value(QLatin1String("patch")).toString();
    if (!patch.isEmpty()) {
        QString error;
        const std::optional<QJsonObject> patched = applyResponsePatch(response, run->attributes.object, &error);
        if (!patched) {
            recordFailure(record, hook, WebhookCallRecord::Failure::BadResponse, error);
            record.ignored = false; // a bad patch fails the request whatever the failurePolicy
            record.code = 500;
            record.message = callFailed(hook, error).message();
            Q_EMIT called(record);
            return run->done(callFailed(hook, error), run->warnings);
        }
        if (*patched != run->attributes.object && !run->reinvoking)
            run->changedAt << index;
        run->attributes.object = *patched;
        record.after = *patched;
    }
    Q_EMIT called(record);
    step(run);
}

void AdmissionChain::validate(AdmissionAttributes attributes, ValidateDone done)
{
    const QList<MatchedWebhook> hooks = matchingWebhooks(m_store, false, attributes);
    if (hooks.isEmpty())
        return done(Expected<void>(), {});
    for (const MatchedWebhook &hook : hooks)
        if (auto refused = dryRunRefused(hook, attributes))
            return done(*refused, {});
    struct Pending
    {
        qsizetype left = 0;
        bool finished = false;
        QStringList warnings;
        ValidateDone done;
    };
    auto pending = std::make_shared<Pending>();
    pending->left = hooks.size();
    pending->done = std::move(done);
    QPointer<AdmissionChain> self(this);
    for (const MatchedWebhook &hook : hooks) {
        send(hook, attributes, false, [self, pending, hook](WebhookAnswer answer, WebhookCallRecord record) {
            if (self)
                Q_EMIT self->called(record);
            if (pending->finished)
                return;
            --pending->left;
            std::optional<Status> failure;
            if (!answer.error.isEmpty() && !ignoresFailure(hook))
                failure = callFailed(hook, answer.error);
            pending->warnings << warningsOf(answer.response);
            if (answer.error.isEmpty() && !answer.response.value(QLatin1String("allowed")).toBool())
                failure = denied(hook, answer.response);
            if (failure || pending->left == 0) {
                pending->finished = true;
                pending->done(failure ? Expected<void>(*failure) : Expected<void>(), pending->warnings);
            }
        });
    }
}

} // namespace opbench::apiserver
