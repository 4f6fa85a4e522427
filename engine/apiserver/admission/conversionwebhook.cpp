// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/admission/conversionwebhook.h"

#include "engine/api/validation.h"
#include "engine/base/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QUuid>

#include <algorithm>
#include <chrono>

namespace opbench::apiserver {

namespace {

const QLatin1String kMetadata("metadata");
const QLatin1String kApiVersion("apiVersion");
const QLatin1String kKind("kind");
const QString kReviewGroup = QStringLiteral("apiextensions.k8s.io/");

/// upstream calls conversion webhooks with the webhook client's 30 s request timeout
constexpr int kTimeoutSeconds = 30;

QString str(const QJsonObject &o, QLatin1String key) { return o.value(key).toString(); }

QString metaStr(const QJsonObject &o, const char *key)
{
    return o.value(kMetadata).toObject().value(QLatin1String(key)).toString();
}

/// schema.GroupVersionKind's String().
QString gvkText(const QString &apiVersion, const QString &kind)
{
    const QString gv = apiVersion.contains(u'/') ? apiVersion : u'/' + apiVersion;
    return gv + QStringLiteral(", Kind=") + kind;
}

/// Go's %T of a decoded JSON value.
QString goType(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Double:
        return QStringLiteral("int64");
    case QJsonValue::Bool:
        return QStringLiteral("bool");
    case QJsonValue::Array:
        return QStringLiteral("[]interface {}");
    case QJsonValue::Object:
        return QStringLiteral("map[string]interface {}");
    default:
        return QStringLiteral("<nil>");
    }
}

/// The first conversionReviewVersions entry the server speaks (empty: none).
QString reviewVersionOf(const QJsonObject &webhook)
{
    for (const QJsonValue v : webhook.value(QLatin1String("conversionReviewVersions")).toArray())
        if (v.toString() == QLatin1String("v1") || v.toString() == QLatin1String("v1beta1"))
            return v.toString();
    return {};
}

/// client-go's error for a non-2xx answer (a Status body says it itself).
QString httpError(int code, const QByteArray &body)
{
    const QJsonObject status = QJsonDocument::fromJson(body).object();
    if (str(status, kKind) == QLatin1String("Status") && !str(status, QLatin1String("message")).isEmpty())
        return str(status, QLatin1String("message"));
    if (code == 404)
        return QStringLiteral("the server could not find the requested resource");
    if (code == 500)
        return QStringLiteral("an error on the server (%1) has prevented the request from succeeding")
            .arg(fielderror::quote(QString::fromUtf8(body.trimmed())));
    return QStringLiteral("the server responded with the status code %1 but did not return more information").arg(code);
}

/// validateConvertedObject: everything but labels and annotations stays (kind, name, namespace, uid).
QString changedIdentity(const QJsonObject &in, const QJsonObject &out)
{
    if (str(in, kKind) != str(out, kKind))
        return QStringLiteral("must have the same kind: %1 != %2").arg(str(in, kKind), str(out, kKind));
    for (const char *key : {"name", "namespace"}) {
        if (metaStr(in, key) != metaStr(out, key))
            return QStringLiteral("must have the same %1: %2 != %3")
                .arg(QLatin1String(key), metaStr(in, key), metaStr(out, key));
    }
    if (metaStr(in, "uid") != metaStr(out, "uid"))
        return QStringLiteral("must have the same UID: %1 != %2").arg(metaStr(in, "uid"), metaStr(out, "uid"));
    return {};
}

/// restoreObjectMeta: the original metadata, with the converted labels and annotations.
QString restoreMetadata(const QJsonObject &original, QJsonObject &converted)
{
    if (!converted.contains(kMetadata))
        return QStringLiteral("missing metadata in converted object");
    if (!converted.value(kMetadata).isObject())
        return QStringLiteral("invalid metadata of type %1 in converted object")
            .arg(goType(converted.value(kMetadata)));
    const QJsonObject answered = converted.value(kMetadata).toObject();
    QJsonObject meta = original.value(kMetadata).toObject();
    for (const char *field : {"labels", "annotations"}) {
        const QLatin1String key(field);
        const QJsonValue v = answered.value(key);
        if (v.isUndefined() || v.isNull()) {
            meta.remove(key);
            continue;
        }
        if (!v.isObject())
            return QStringLiteral("invalid metadata.%1 of type %2 in converted object").arg(key, goType(v));
        const QJsonObject map = v.toObject();
        for (auto it = map.constBegin(); it != map.constEnd(); ++it)
            if (!it.value().isString())
                return QStringLiteral("metadata.%1[%2] must be a string, but is %3 in converted object")
                    .arg(key, it.key(), goType(it.value()));
        meta.insert(key, map);
    }
    converted.insert(kMetadata, meta);
    return {};
}

/// The checks upstream makes on converted object `index` (0-based) against its original;
/// `many`: more than one object was sent (upstream's list wording, 1-based index).
QString checkConverted(
    const QJsonObject &original, QJsonObject &converted, const QString &desired, qsizetype index, bool many)
{
    const QString at = many ? QStringLiteral("invalid converted object at index %1: ").arg(index + 1)
                            : QStringLiteral("invalid object at index 0: ");
    if (str(converted, kApiVersion) != desired)
        return at
            + QStringLiteral("invalid groupVersion (expected %1, received %2)")
                  .arg(desired, str(converted, kApiVersion));
    if (str(converted, kKind) != str(original, kKind))
        return at
            + QStringLiteral("invalid kind (expected %1, received %2)")
                  .arg(str(original, kKind), str(converted, kKind));
    if (const QString changed = changedIdentity(original, converted); !changed.isEmpty())
        return (many ? at : QStringLiteral("invalid object: ")) + changed;
    if (const QString bad = restoreMetadata(original, converted); !bad.isEmpty())
        return (many ? QStringLiteral("invalid metadata in object at index %1: ").arg(index + 1)
                     : QStringLiteral("invalid metadata: "))
            + bad;
    return {};
}

/// A conversion failure as the handlers answer it: 500, no reason (a plain Go error upstream).
Status failure(const QString &message) { return Status(500, QString(), message); }

} // namespace

struct ConversionWebhook::Run
{
    QList<QJsonObject> objects;
    QList<qsizetype> sent; // indexes of the objects sent
    QString desired;
    QString gvk; // of the first object sent, for the messages
    QString reviewVersion;
    Clock::TimePoint started;
    ConversionCall call;
    ConvertDone done;

    Expected<QList<QJsonObject>> check(const WebhookReply &reply);
    Expected<QList<QJsonObject>> checkObjects(const QJsonArray &converted);
};

Expected<QList<QJsonObject>> ConversionWebhook::Run::check(const WebhookReply &reply)
{
    const QString failed = QStringLiteral("conversion webhook for %1 failed: ").arg(gvk);
    if (!reply.error.isEmpty())
        return failure(failed + reply.error);
    if (reply.code < 200 || reply.code >= 300)
        return failure(failed + httpError(reply.code, reply.body));
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(reply.body, &parse);
    if (!doc.isObject())
        return failure(failed + QStringLiteral("couldn't get version/kind; json parse error: ") + parse.errorString());
    const QJsonObject answer = doc.object();
    call.response = answer.value(QLatin1String("response")).toObject();
    if (reviewVersion == QLatin1String("v1")
        && (str(answer, kApiVersion) != kReviewGroup + reviewVersion
            || str(answer, kKind) != QLatin1String("ConversionReview")))
        return failure(failed
            + QStringLiteral("expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ")
            + gvkText(str(answer, kApiVersion), str(answer, kKind)));
    if (!answer.value(QLatin1String("response")).isObject())
        return failure(failed + QStringLiteral("no response provided"));
    const QString uid = str(call.response, QLatin1String("uid"));
    if (reviewVersion == QLatin1String("v1") && uid != call.uid)
        return failure(failed
            + QStringLiteral("expected response.uid=%1, got %2")
                  .arg(fielderror::quote(call.uid), fielderror::quote(uid)));
    const QJsonObject result = call.response.value(QLatin1String("result")).toObject();
    if (const QString status = str(result, QLatin1String("status")); status != QLatin1String("Success")) {
        const QString message = str(result, QLatin1String("message"));
        return failure(failed
            + (message.isEmpty() ? QStringLiteral("response.result.status was '%1', not 'Success'").arg(status)
                                 : message));
    }
    return checkObjects(call.response.value(QLatin1String("convertedObjects")).toArray());
}

Expected<QList<QJsonObject>> ConversionWebhook::Run::checkObjects(const QJsonArray &converted)
{
    if (converted.size() != sent.size())
        return failure(QStringLiteral("conversion webhook for %1 returned %2 objects, expected %3")
                           .arg(gvk)
                           .arg(converted.size())
                           .arg(sent.size()));
    QList<QJsonObject> out = objects;
    for (qsizetype i = 0; i < sent.size(); ++i) {
        QJsonObject object = converted.at(i).toObject();
        const QString problem = checkConverted(objects.at(sent.at(i)), object, desired, i, sent.size() > 1);
        if (!problem.isEmpty())
            return failure(QStringLiteral("conversion webhook for %1 returned %2").arg(gvk, problem));
        out[sent.at(i)] = object;
    }
    return out;
}

ConversionWebhook::ConversionWebhook(WebhookCaller *caller, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_caller(caller)
    , m_clock(clock ? clock : Clock::system())
{
    qRegisterMetaType<ConversionCall>();
}

void ConversionWebhook::convert(
    const ResourceType &type, QList<QJsonObject> objects, QString desiredApiVersion, ConvertDone done)
{
    auto run = std::make_shared<Run>();
    for (qsizetype i = 0; i < objects.size(); ++i)
        if (str(objects.at(i), kApiVersion) != desiredApiVersion)
            run->sent << i;
    if (run->sent.isEmpty())
        return done(std::move(objects)); // same version: no call
    const QJsonObject first = objects.at(run->sent.first());
    run->gvk = gvkText(str(first, kApiVersion), str(first, kKind));
    run->reviewVersion = reviewVersionOf(type.conversionWebhook);
    if (run->reviewVersion.isEmpty())
        return done(failure(QStringLiteral("no supported conversion review versions")));
    QJsonArray sent;
    for (qsizetype i : std::as_const(run->sent))
        sent.append(objects.at(i));
    run->call.crd = type.crdName;
    run->call.from = str(first, kApiVersion);
    run->call.to = desiredApiVersion;
    run->call.objects = int(sent.size());
    run->call.uid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    run->call.review = QJsonObject{{QStringLiteral("kind"), QStringLiteral("ConversionReview")},
        {QStringLiteral("apiVersion"), kReviewGroup + run->reviewVersion},
        {QStringLiteral("request"),
            QJsonObject{{QStringLiteral("uid"), run->call.uid},
                {QStringLiteral("desiredAPIVersion"), desiredApiVersion}, {QStringLiteral("objects"), sent}}}};
    run->objects = std::move(objects);
    run->desired = std::move(desiredApiVersion);
    run->done = std::move(done);
    run->started = m_clock->now();
    run->call.time = m_clock->wallNow();
    const QJsonObject hook{
        {QStringLiteral("clientConfig"), type.conversionWebhook.value(QLatin1String("clientConfig"))},
        {QStringLiteral("timeoutSeconds"), kTimeoutSeconds}};
    run->call.url = m_caller->urlFor(hook, nullptr);
    QPointer<ConversionWebhook> self(this);
    m_caller->post(hook, run->call.review, [self, run](const WebhookReply &reply) {
        if (self)
            self->answered(run, reply);
        else
            run->done(Status(503, QStringLiteral("ServiceUnavailable"), QStringLiteral("the server is shutting down")));
    });
}

void ConversionWebhook::answered(const std::shared_ptr<Run> &run, const WebhookReply &reply)
{
    Expected<QList<QJsonObject>> result = run->check(reply);
    run->call.ok = result.ok();
    if (!result) {
        run->call.error = result.error().message();
        run->call.failure = reply.error.isEmpty() ? WebhookCallRecord::Failure::BadResponse : reply.failure;
    }
    run->call.latencyMs = std::chrono::duration_cast<std::chrono::milliseconds>(m_clock->now() - run->started).count();
    Q_EMIT callFinished(run->call);
    run->done(std::move(result));
}

WebhookCallRecord callRecordOf(const ConversionCall &call)
{
    WebhookCallRecord r;
    r.kind = WebhookCallRecord::Kind::Conversion;
    r.time = call.time;
    r.webhook = call.crd;
    r.configuration = call.crd;
    r.url = call.url;
    r.operation = QStringLiteral("CONVERT");
    const QJsonArray sent
        = call.review.value(QLatin1String("request")).toObject().value(QLatin1String("objects")).toArray();
    r.before = sent.isEmpty() ? QJsonObject() : sent.first().toObject();
    const QJsonArray converted = call.response.value(QLatin1String("convertedObjects")).toArray();
    r.after = converted.isEmpty() ? r.before : converted.first().toObject();
    const qsizetype slash = call.to.indexOf(u'/');
    r.group = call.to.left(std::max<qsizetype>(slash, 0));
    r.version = call.to.mid(slash + 1);
    r.resource = call.crd.section(u'.', 0, 0);
    r.objectKind = r.before.value(QLatin1String("kind")).toString();
    const QJsonObject meta = r.before.value(QLatin1String("metadata")).toObject();
    r.namespaceName = meta.value(QLatin1String("namespace")).toString();
    r.name = meta.value(QLatin1String("name")).toString();
    r.uid = call.uid;
    r.failurePolicy = QStringLiteral("Fail"); // a conversion that fails always fails the request
    r.allowed = call.ok;
    r.code = call.ok ? 200 : 500;
    r.message = call.error;
    r.latency = std::chrono::milliseconds(call.latencyMs);
    r.failure = call.failure;
    r.error = call.error;
    return r;
}

AsyncConverter ConversionWebhook::converter()
{
    QPointer<ConversionWebhook> self(this);
    return [self](const ResourceType &type, QList<QJsonObject> objects, QString desired, ConvertDone done) {
        if (!self)
            return done(
                Status(503, QStringLiteral("ServiceUnavailable"), QStringLiteral("the server is shutting down")));
        self->convert(type, std::move(objects), std::move(desired), std::move(done));
    };
}

} // namespace opbench::apiserver
