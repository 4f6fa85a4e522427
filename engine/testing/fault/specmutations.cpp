// SPDX-License-Identifier: Apache-2.0
// FaultHarness::specMutations: Acto-style mutations of one object's spec, generated from its
// CRD's openAPIV3Schema, each applied, checked and reverted in one Session.
#include "engine/testing/fault/faultsession_p.h"

#include "engine/api/yamlcodec.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <qcoro/qcorotask.h>

namespace opbench::testing {

namespace {

using detail::describeObject;

struct Mutation
{
    QString label;
    QByteArray patch;
    QByteArray revert;
    bool valid;
};

QByteArray specPatch(const QString &field, const QJsonValue &value)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("spec"), QJsonObject{{field, value}}}})
        .toJson(QJsonDocument::Compact);
}

/// The spec schema of the target's kind and version ({} when the CRDs have none).
QJsonObject specSchemaOf(const QList<QByteArray> &crds, const Object &target)
{
    QJsonObject specSchema;
    for (const QByteArray &yaml : crds) {
        Expected<QList<QJsonObject>> docs = yamlToJson(yaml);
        if (!docs)
            continue;
        for (const QJsonObject &crd : *docs) {
            const QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
            if (spec.value(QLatin1String("names")).toObject().value(QLatin1String("kind")).toString() != target.kind())
                continue;
            for (const QJsonValue v : spec.value(QLatin1String("versions")).toArray())
                if (spec.value(QLatin1String("group")).toString() + u'/'
                        + v.toObject().value(QLatin1String("name")).toString()
                    == target.apiVersion())
                    specSchema = v.toObject()
                                     .value(QLatin1String("schema"))
                                     .toObject()
                                     .value(QLatin1String("openAPIV3Schema"))
                                     .toObject()
                                     .value(QLatin1String("properties"))
                                     .toObject()
                                     .value(QLatin1String("spec"))
                                     .toObject();
        }
    }
    return specSchema;
}

/// The valid and invalid values of one spec field `p` (its schema) whose value is now `cur`.
void addFieldMutations(QList<Mutation> &mutations, const QString &field, const QJsonObject &p, const QJsonValue &cur,
    QRandomGenerator &random)
{
    const QString type = p.value(QLatin1String("type")).toString();
    const QByteArray revert = specPatch(field, cur.isUndefined() ? QJsonValue(QJsonValue::Null) : cur);
    const auto add = [&](const QString &what, const QJsonValue &v, bool valid) {
        mutations << Mutation{QStringLiteral("%1 spec.%2=%3")
                                  .arg(valid ? QStringLiteral("valid") : QStringLiteral("invalid"), field, what),
            specPatch(field, v), revert, valid};
    };
    if (type == QLatin1String("integer")) {
        const bool hasMin = p.contains(QLatin1String("minimum")), hasMax = p.contains(QLatin1String("maximum"));
        const qint64 min = p.value(QLatin1String("minimum")).toInteger(),
                     max = p.value(QLatin1String("maximum")).toInteger();
        const qint64 now
            = cur.isUndefined() ? p.value(QLatin1String("default")).toInteger(hasMin ? min : 0) : cur.toInteger();
        qint64 next = now + 1 + qint64(random.bounded(2));
        if (hasMax && next > max)
            next = hasMin ? qMax(min, now - 1) : now - 1;
        add(QString::number(next), next, true);
        if (hasMin) {
            add(QString::number(min - 1), min - 1, false);
            if (min > 1)
                add(QStringLiteral("0"), 0, false);
            if (min >= 0 && min - 1 != -1)
                add(QStringLiteral("-1"), -1, false);
            else if (min >= 0)
                add(QStringLiteral("-5"), -5, false);
        }
        if (hasMax)
            add(QString::number(max + 1), max + 1, false);
        else if (p.value(QLatin1String("format")).toString() == QLatin1String("int32"))
            add(QStringLiteral("2147483648"), double(2147483648.0), false);
        add(QStringLiteral("\"three\""), QStringLiteral("three"), false);
    } else if (type == QLatin1String("string")) {
        const QJsonArray en = p.value(QLatin1String("enum")).toArray();
        if (!en.isEmpty()) {
            for (const QJsonValue e : en)
                if (e != cur) {
                    add(e.toString(), e, true);
                    break;
                }
            add(QStringLiteral("\"not-in-enum\""), QStringLiteral("not-in-enum"), false);
        } else {
            const QString v = cur.toString() + QStringLiteral("-m%1").arg(random.bounded(100));
            add(v, v, true);
        }
        if (p.value(QLatin1String("minLength")).toInt() >= 1)
            add(QStringLiteral("\"\""), QString(), false);
        if (p.contains(QLatin1String("maxLength")))
            add(QStringLiteral("(too long)"), QString(p.value(QLatin1String("maxLength")).toInt() + 1, u'x'), false);
        add(QStringLiteral("42"), 42, false);
    } else if (type == QLatin1String("boolean")) {
        add(cur.toBool() ? QStringLiteral("false") : QStringLiteral("true"), !cur.toBool(), true);
        add(QStringLiteral("\"yes\""), QStringLiteral("yes"), false);
    }
}

/// Every mutation of `spec` (the live object's) that `specSchema` allows to generate.
QList<Mutation> mutationsOf(const QJsonObject &specSchema, const QJsonObject &spec, QRandomGenerator &random)
{
    const QJsonObject props = specSchema.value(QLatin1String("properties")).toObject();
    QStringList required;
    for (const QJsonValue v : specSchema.value(QLatin1String("required")).toArray())
        required << v.toString();
    QList<Mutation> mutations;
    for (auto it = props.begin(); it != props.end(); ++it) {
        const QString field = it.key();
        const QJsonValue cur = spec.value(field);
        addFieldMutations(mutations, field, it.value().toObject(), cur, random);
        if (required.contains(field))
            mutations << Mutation{QStringLiteral("invalid spec.%1 missing").arg(field),
                specPatch(field, QJsonValue(QJsonValue::Null)),
                specPatch(field, cur.isUndefined() ? QJsonValue(QJsonValue::Null) : cur), false};
    }
    mutations << Mutation{QStringLiteral("valid metadata.labels +fault.opbench.io/mutated"),
        R"({"metadata":{"labels":{"fault.opbench.io/mutated":"yes"}}})",
        R"({"metadata":{"labels":{"fault.opbench.io/mutated":null}}})", true};
    return mutations;
}

} // namespace

// The checks of one target's mutations in a started Session (each returns false after s.fail()).
class FaultHarness::SpecMutationRun
{
public:
    SpecMutationRun(Session &s, const Object &target, const Object &live, MutationReport &out)
        : s(s)
        , target(target)
        , live(live)
        , out(out)
        , mapping(s.mappingOf(target.gvk()))
    { }

    Expected<Object> patchTarget(const QByteArray &patch)
    {
        return s.retried([&] {
            return QCoro::waitFor(
                s.m_rest->patch(mapping->gvr, target.namespaceName(), target.name(), PatchType::Merge, patch));
        });
    }

    /// Applies `m` and checks what follows (refused() or convergedAndReverted()).
    bool check(const Mutation &m)
    {
        const QMap<QString, QByteArray> before = s.controlledBy(live);
        const EndState all = s.snapshot();
        const Expected<Object> beforeTarget = s.get(target);
        Expected<Object> patched = patchTarget(m.patch);
        if (!m.valid)
            return refused(m, all, beforeTarget, patched);
        return convergedAndReverted(m, before, patched);
    }

    /// An invalid mutation must be refused with 422 and change nothing.
    bool refused(
        const Mutation &m, const EndState &all, const Expected<Object> &beforeTarget, const Expected<Object> &patched)
    {
        ++out.invalid;
        if (patched.ok()) {
            s.fail(QStringLiteral("%1 was accepted (expected 422 Invalid)").arg(m.label));
            (void)patchTarget(m.revert);
            return false;
        }
        if (!isInvalid(patched.error()))
            return s.fail(QStringLiteral("%1 was refused with %2 (expected 422 Invalid)")
                              .arg(m.label, patched.error().toString()));
        const Expected<Object> afterTarget = s.get(target);
        if (!beforeTarget || !afterTarget || beforeTarget->resourceVersion() != afterTarget->resourceVersion())
            return s.fail(QStringLiteral("%1 was refused but the object changed").arg(m.label));
        if (QString d = compareEndStates(all, s.snapshot()); !d.isEmpty())
            return s.fail(QStringLiteral("%1 was refused but something changed: %2").arg(m.label, d));
        out.log << m.label + QStringLiteral(": refused with 422, nothing changed");
        return true;
    }

    /// A valid mutation must converge, and reverting it must restore what the target controls.
    bool convergedAndReverted(
        const Mutation &m, const QMap<QString, QByteArray> &before, const Expected<Object> &patched)
    {
        ++out.valid;
        if (!patched)
            return s.fail(QStringLiteral("%1 was refused: %2").arg(m.label, patched.error().toString()));
        if (!s.waitQuiescent())
            return s.fail(QStringLiteral("%1 did not converge").arg(m.label));
        const Expected<Object> now = s.get(target);
        const QJsonValue observed = now
            ? now->json().value(QLatin1String("status")).toObject().value(QLatin1String("observedGeneration"))
            : QJsonValue();
        if (now && !observed.isUndefined() && observed.toInteger() != now->generation())
            return s.fail(QStringLiteral("%1: status.observedGeneration %2 after converging, generation %3")
                              .arg(m.label)
                              .arg(observed.toInteger())
                              .arg(now->generation()));
        if (!patchTarget(m.revert) || !s.waitQuiescent())
            return s.fail(QStringLiteral("reverting %1 did not converge: %2").arg(m.label, s.m_error));
        const QMap<QString, QByteArray> after = s.controlledBy(live);
        if (after != before) {
            EndState b, a;
            b.objects = before;
            a.objects = after;
            return s.fail(QStringLiteral("reverting %1 did not restore what the object controls: %2")
                              .arg(m.label, compareEndStates(b, a)));
        }
        out.log << m.label + QStringLiteral(": converged, reverted, children restored");
        return true;
    }

    Session &s;
    const Object &target;
    const Object &live;
    MutationReport &out;
    const std::optional<ResourceMapping> mapping;
};

MutationReport FaultHarness::specMutations(const Workload &workload, const Object &target)
{
    MutationReport out;
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(workload) && s.waitQuiescent();
    const QJsonObject specSchema = specSchemaOf(m_def.crds, target);
    if (ok && specSchema.isEmpty())
        ok = s.fail(QStringLiteral("no openAPIV3Schema for %1 %2 in the definition's CRDs")
                        .arg(target.apiVersion(), target.kind()));
    QList<Mutation> mutations;
    Expected<Object> live = ok ? s.get(target) : Expected<Object>(Status::badRequest(QStringLiteral("not started")));
    if (ok && !live)
        ok = s.fail(
            QStringLiteral("the target %1 is not there: %2").arg(describeObject(target), live.error().toString()));
    if (ok)
        mutations = mutationsOf(specSchema, live->json().value(QLatin1String("spec")).toObject(), s.m_random);
    if (ok) {
        SpecMutationRun run(s, target, *live, out);
        for (const Mutation &m : std::as_const(mutations))
            if (!(ok = run.check(m)))
                break;
    }
    out.ok = ok;
    if (!ok)
        out.failure
            = failureText(QStringLiteral("spec mutations: ") + s.m_error + QStringLiteral("\n") + out.log.join(u'\n'));
    return out;
}

} // namespace opbench::testing
