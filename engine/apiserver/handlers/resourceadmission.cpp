// SPDX-License-Identifier: Apache-2.0
// ResourceHandler: webhook admission around a write (admissionchain.h). The mutating webhooks see
// the decoded object; the validating webhooks see it as the store would write it (a dry-run
// write first runs defaulting and the schema and built-in validation), then the write happens.
#include "engine/apiserver/handlers/resourcehandler.h"

#include "engine/apiserver/validation/conversion.h"
#include "engine/apiserver/validation/fieldvalidation.h"

#include <QPointer>

namespace opbench::apiserver {

namespace {

void addWarnings(Responder::Headers &headers, const QStringList &warnings)
{
    for (const QString &w : warnings)
        headers.append(qMakePair(QByteArray("Warning"), warningHeaderValue(w)));
}

} // namespace

void ResourceHandler::admit(AdmissionAttributes a, Responder resp, Responder::Headers warnings, AdmitTrial trial,
    AdmitFinish finish, std::function<void()> onConflict)
{
    if (!m_admission || (!m_admission->matches(true, a) && !m_admission->matches(false, a)))
        return finish(a.object, warnings);
    QPointer<QObject> context(m_context);
    AdmissionChain *chain = m_admission;
    chain->mutate(a,
        [context, chain, a, resp, warnings, trial, finish, onConflict](
            Expected<QJsonObject> mutated, QStringList added) mutable {
            if (!context)
                return;
            if (!mutated)
                return resp.sendStatus(mutated.error());
            addWarnings(warnings, added);
            a.object = *mutated;
            AdmissionAttributes checked = a;
            if (trial) {
                auto tried = trial(a.object);
                if (!tried && tried.error().code() == 409 && onConflict)
                    return onConflict(); // another write came while the mutating webhooks decided
                if (!tried)
                    return resp.sendStatus(tried.error());
                checked.object = *tried;
            }
            chain->validate(checked, [context, a, resp, warnings, finish](Expected<void> ok, QStringList more) mutable {
                if (!context)
                    return;
                if (!ok)
                    return resp.sendStatus(ok.error());
                addWarnings(warnings, more);
                finish(a.object, warnings);
            });
        });
}

void ResourceHandler::admitWrite(const Request &r, const RequestInfo &info, const ResourceType &type,
    AdmissionAttributes a, WriteOptions wo, Responder resp, Responder::Headers warnings,
    std::function<void()> retryOnConflict)
{
    const bool creating = a.operation == QLatin1String("CREATE");
    auto store = [this, info, type, creating](const QJsonObject &object, const WriteOptions &options) {
        if (creating)
            return m_store->create(type.gvr(), info.namespaceName, toStorage(type, object), options);
        return write(info, type, object, options);
    };
    auto trial = [store, type, wo](const QJsonObject &object) -> Expected<QJsonObject> {
        WriteOptions dry = wo;
        dry.dryRun = true;
        auto o = store(object, dry);
        if (!o)
            return o.error();
        return toServed(type, o->json());
    };
    admit(
        std::move(a), resp, std::move(warnings), trial,
        [this, r, info, type, wo, store, creating, resp, retryOnConflict](
            const QJsonObject &object, const Responder::Headers &w) mutable {
            const bool converts
                = m_convert && usesConversionWebhook(type) && type.apiVersion() != type.storageApiVersion();
            if (converts && !wo.dryRun) {
                writeConverted(
                    info, type, creating, object, wo, [this, r, type, creating, resp, w](Expected<Object> o) mutable {
                        if (!o)
                            return resp.sendStatus(o.error());
                        sendObject(r, type, *o, creating ? 201 : 200, resp, w);
                    });
                return;
            }
            auto o = store(object, wo);
            if (!o && o.error().code() == 409 && retryOnConflict)
                return retryOnConflict();
            if (!o)
                return resp.sendStatus(o.error());
            if (converts) // a dry run never left the requested version: upstream's dry-run storage encodes nothing
                return sendServed(r, type, toServed(type, *o), creating ? 201 : 200, resp, w);
            sendObject(r, type, *o, creating ? 201 : 200, resp, w);
        },
        retryOnConflict);
}

void ResourceHandler::writeConverted(const RequestInfo &info, const ResourceType &type, bool creating,
    QJsonObject object, WriteOptions wo, std::function<void(Expected<Object>)> done)
{
    // validated and defaulted at the requested version first (upstream validates before encoding)
    WriteOptions dry = wo;
    dry.dryRun = true;
    auto tried = creating ? m_store->create(type.gvr(), info.namespaceName, toStorage(type, object), dry)
                          : write(info, type, object, dry);
    if (!tried)
        return done(tried.error());
    QPointer<QObject> context(m_context);
    m_convert(type, {object}, type.storageApiVersion(),
        [this, context, info, type, creating, wo, done](Expected<QList<QJsonObject>> converted) {
            if (!context)
                return;
            if (!converted)
                return done(converted.error());
            // written through the storage version's type: its schema and rules
            const QJsonObject &stored = converted->first();
            if (creating)
                return done(m_store->create(type.storage, info.namespaceName, stored, wo));
            if (info.subresource == QLatin1String("status"))
                return done(m_store->updateStatus(type.storage, info.namespaceName, info.name, stored, wo));
            done(m_store->update(type.storage, info.namespaceName, info.name, stored, wo));
        });
}

bool ResourceHandler::throughWebhook(const ResourceType &type, const Object &stored) const
{
    return m_convert && usesConversionWebhook(type) && stored.apiVersion() != type.apiVersion();
}

void ResourceHandler::servedJson(
    const ResourceType &type, const Object &stored, std::function<void(Expected<QJsonObject>)> done)
{
    if (!throughWebhook(type, stored))
        return done(toServed(type, m_store->jsonOf(stored)));
    QPointer<QObject> context(m_context);
    m_convert(type, {m_store->jsonOf(stored)}, type.apiVersion(), [context, done](Expected<QList<QJsonObject>> c) {
        if (!context)
            return;
        if (!c)
            return done(c.error());
        done(c->first());
    });
}

AdmissionAttributes ResourceHandler::attributesFor(const Request &r, const RequestInfo &info, const ResourceType &type,
    const QString &operation, bool dryRun, const QString &fieldManager) const
{
    AdmissionAttributes a;
    a.operation = operation;
    a.type = type;
    a.subresource = info.subresource;
    a.namespaceName = info.namespaceName;
    a.name = info.name;
    a.dryRun = dryRun;
    a.user = r.user;
    const QString kind = operation == QLatin1String("CREATE") ? QStringLiteral("CreateOptions")
        : operation == QLatin1String("UPDATE")                ? QStringLiteral("UpdateOptions")
                                                              : QStringLiteral("DeleteOptions");
    a.options = admissionOptions(kind, dryRun, fieldManager);
    return a;
}

} // namespace opbench::apiserver
