// SPDX-License-Identifier: Apache-2.0
#include "engine/testing/fault/faultharness.h"

#include "engine/testing/fault/faultsession_p.h"

#include "engine/cache/reflector.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <qcoro/qcorotask.h>

#include <cstdio>

namespace opbench::testing {

namespace {

using detail::describeObject;
using detail::spin;

constexpr quint32 kDefaultSeed = 16;

bool rvAtLeast(const QString &rv, const QString &target) { return rv.toULongLong() >= target.toULongLong(); }

} // namespace

// ---------------------------------------------------------------------------------------------

Step Step::create(const Object &object, bool settle) { return {Action::Create, object, {}, settle}; }
Step Step::mergePatch(const Object &target, const QByteArray &patch, bool settle)
{
    return {Action::MergePatch, target, patch, settle};
}
Step Step::remove(const Object &target, bool settle) { return {Action::Delete, target, {}, settle}; }

QString Step::describe() const
{
    switch (action) {
    case Action::Create:
        return QStringLiteral("create ") + describeObject(object) + u' '
            + QString::fromUtf8(
                QJsonDocument(object.json().value(QLatin1String("spec")).toObject()).toJson(QJsonDocument::Compact));
    case Action::MergePatch:
        return QStringLiteral("patch ") + describeObject(object) + u' ' + QString::fromUtf8(patch);
    case Action::Delete:
        return QStringLiteral("delete ") + describeObject(object);
    }
    return {};
}

QString EndState::toText() const
{
    QString out;
    for (auto it = objects.cbegin(); it != objects.cend(); ++it)
        out += QStringLiteral("  %1: %2\n").arg(it.key(), QString::fromUtf8(it.value()));
    for (auto it = creates.cbegin(); it != creates.cend(); ++it)
        out += QStringLiteral("  creates %1: %2\n").arg(it.key()).arg(it.value());
    for (auto it = deletes.cbegin(); it != deletes.cend(); ++it)
        out += QStringLiteral("  deletes %1: %2\n").arg(it.key()).arg(it.value());
    return out;
}

QString compareEndStates(const EndState &expected, const EndState &actual)
{
    QStringList diff;
    const auto keysOf = [](const auto &a, const auto &b) {
        QStringList keys = a.keys() + b.keys();
        keys.removeDuplicates();
        keys.sort();
        return keys;
    };
    for (const QString &k : keysOf(expected.objects, actual.objects)) {
        const QByteArray e = expected.objects.value(k), a = actual.objects.value(k);
        if (e == a)
            continue;
        if (e.isEmpty())
            diff << QStringLiteral("+ %1 (only in the faulty run): %2").arg(k, QString::fromUtf8(a));
        else if (a.isEmpty())
            diff << QStringLiteral("- %1 (missing from the faulty run): %2").arg(k, QString::fromUtf8(e));
        else {
            // Field by field (top two levels) so the difference is readable.
            const QJsonObject eo = QJsonDocument::fromJson(e).object(), ao = QJsonDocument::fromJson(a).object();
            QStringList fields;
            for (const QString &top : keysOf(eo, ao)) {
                const QJsonValue ev = eo.value(top), av = ao.value(top);
                if (ev == av)
                    continue;
                if (ev.isObject() && av.isObject()) {
                    const QJsonObject es = ev.toObject(), as = av.toObject();
                    for (const QString &sub : keysOf(es, as))
                        if (es.value(sub) != as.value(sub))
                            fields << QStringLiteral("    %1.%2: reference %3, faulty %4")
                                          .arg(top, sub,
                                              QString::fromUtf8(QJsonDocument(QJsonArray{es.value(sub)})
                                                                    .toJson(QJsonDocument::Compact)),
                                              QString::fromUtf8(QJsonDocument(QJsonArray{as.value(sub)})
                                                                    .toJson(QJsonDocument::Compact)));
                } else {
                    fields << QStringLiteral("    %1 differs").arg(top);
                }
            }
            diff << QStringLiteral("~ %1:\n%2").arg(k, fields.join(u'\n'));
        }
    }
    for (const QString &k : keysOf(expected.creates, actual.creates))
        if (expected.creates.value(k) != actual.creates.value(k))
            diff << QStringLiteral("~ creates of %1: reference %2, faulty %3")
                        .arg(k)
                        .arg(expected.creates.value(k))
                        .arg(actual.creates.value(k));
    for (const QString &k : keysOf(expected.deletes, actual.deletes))
        if (expected.deletes.value(k) != actual.deletes.value(k))
            diff << QStringLiteral("~ deletes of %1: reference %2, faulty %3")
                        .arg(k)
                        .arg(expected.deletes.value(k))
                        .arg(actual.deletes.value(k));
    if (diff.isEmpty())
        return {};
    return QStringLiteral("end states differ:\n%1\nreference end state:\n%2faulty end state:\n%3")
        .arg(diff.join(u'\n'), expected.toText(), actual.toText());
}

// ---------------------------------------------------------------------------------------------

FaultHarness::FaultHarness(OperatorDefinition definition, HarnessOptions options)
    : m_def(std::move(definition))
    , m_options(std::move(options))
{
    m_seed = m_options.seed;
    if (m_seed == 0) {
        bool ok = false;
        const quint32 env = qEnvironmentVariable("OPBENCH_FAULT_SEED").toUInt(&ok);
        m_seed = ok && env != 0 ? env : kDefaultSeed;
    }
    std::fprintf(stderr, "opbench fault harness: operator %s, seed %u (set OPBENCH_FAULT_SEED to change it)\n",
        qPrintable(m_def.name), m_seed);
}

FaultHarness::~FaultHarness() { forgetRecordings(); }

void FaultHarness::forgetRecordings() const
{
    if (!m_keepRecordings)
        for (const QString &path : std::as_const(m_runRecordings))
            QFile::remove(path);
    m_runRecordings.clear();
    m_keepRecordings = false;
}

QString FaultHarness::failureText(const QString &what) const
{
    QString cmd = QStringLiteral("OPBENCH_FAULT_SEED=%1").arg(m_seed);
    if (!m_options.reproduceCommand.isEmpty())
        cmd += u' ' + m_options.reproduceCommand;
    QString text = QStringLiteral("%1\nseed %2; reproduce with: %3").arg(what).arg(m_seed).arg(cmd);
    if (!m_runRecordings.isEmpty()) {
        m_keepRecordings = true;
        text += QStringLiteral("\nrecording of the run (replay with --replay): ") + m_runRecordings.join(u' ');
    }
    return text;
}

namespace {
QString workloadKey(const Workload &w)
{
    QStringList parts;
    for (const Step &s : w)
        parts << s.describe();
    return parts.join(u'\n');
}
} // namespace

RunReport FaultHarness::reference(const Workload &workload)
{
    const QString key = workloadKey(workload);
    if (m_references.contains(key))
        return m_references.value(key);
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(workload) && s.waitQuiescent();
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    if (!r.ok)
        r.failure = failureText(QStringLiteral("reference run: ") + r.failure);
    else
        m_references.insert(key, r);
    return r;
}

namespace {
/// Compares `r` with `ref`; fills ok/failure.
void judge(
    RunReport &r, const RunReport &ref, const QString &mode, const std::function<QString(const QString &)> &failureText)
{
    if (!ref.ok) {
        r.ok = false;
        r.failure = ref.failure;
        return;
    }
    QString why = r.failure;
    if (r.ok) {
        if (QString diff = compareEndStates(ref.end, r.end); !diff.isEmpty())
            why = diff;
    }
    r.ok = why.isEmpty();
    if (!r.ok)
        r.failure = failureText(mode + QStringLiteral(": ") + why + QStringLiteral("\noperator writes:\n  ")
            + r.writes.join(QStringLiteral("\n  ")));
}
} // namespace

RunReport FaultHarness::crashAfterWrite(const Workload &workload, int writeIndex)
{
    const RunReport ref = reference(workload);
    Session s(*this);
    s.crashAfter(writeIndex);
    bool ok = s.startServer() && s.startOperator();
    // Apply the workload until the crash (or to its end), then wait for the crash.
    int applied = 0;
    for (; ok && applied < workload.size() && !s.crashed(); ++applied)
        ok = s.apply(workload.at(applied));
    QElapsedTimer t;
    t.start();
    while (ok && !s.crashed() && t.elapsed() < m_options.convergeTimeout.count())
        spin(10);
    if (ok && !s.crashed())
        ok = s.fail(QStringLiteral("the operator made fewer than %1 writes").arg(writeIndex));
    if (ok) {
        s.stopOperator(); // its cache, queue and in-flight reconciles are gone
        s.crashAfter(0);
        ok = s.startOperator() && s.applyAll(workload.mid(applied)) && s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    judge(r, ref, QStringLiteral("crash after write %1").arg(writeIndex),
        [this](const QString &w) { return failureText(w); });
    return r;
}

RunReport FaultHarness::staleCache(
    const Workload &setup, const Workload &changes, const QList<GroupVersionKind> &heldKinds)
{
    const RunReport ref = reference(setup + changes);
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(setup) && s.waitQuiescent();
    QList<Informer *> held;
    if (ok) {
        held = s.informersOf(heldKinds);
        for (Informer *inf : held)
            inf->setDeltaFilter([](const Informer::Delta &) { return Informer::DeltaAction::Hold; });
        s.m_staleWindow = true;
        ok = s.applyAll(changes) && s.waitIdle();
        s.m_staleWindow = false;
        for (Informer *inf : held) {
            inf->setDeltaFilter({});
            inf->releaseHeldDeltas();
        }
        ok = ok && s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    if (r.ok && r.unconditionalWrites > 0)
        r.ok = s.fail(
            QStringLiteral("%1 update(s)/delete(s) without a resourceVersion were accepted while the cache was stale")
                .arg(r.unconditionalWrites));
    if (!r.ok && r.failure.isEmpty())
        r.failure = s.m_error;
    judge(r, ref, QStringLiteral("stale cache"), [this](const QString &w) { return failureText(w); });
    return r;
}

RunReport FaultHarness::unobserved(
    const Workload &setup, const Workload &dropped, const Workload &after, const QList<GroupVersionKind> &kinds)
{
    const RunReport ref = reference(setup + dropped + after);
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(setup) && s.waitQuiescent();
    if (ok) {
        const QList<Informer *> dropping = s.informersOf(kinds);
        int droppedCount = 0;
        for (Informer *inf : dropping)
            inf->setDeltaFilter([&droppedCount](const Informer::Delta &d) {
                if (d.type == Informer::Delta::Type::Replace || d.type == Informer::Delta::Type::Bookmark)
                    return Informer::DeltaAction::Apply;
                ++droppedCount;
                return Informer::DeltaAction::Drop;
            });
        ok = s.applyAll(dropped);
        // Wait until the reflectors have read past the last dropped change.
        QString target;
        if (ok && !dropping.isEmpty()) {
            Expected<Object::List> l = s.retried(
                [&] { return QCoro::waitFor(s.m_rest->list(dropping.first()->options().resource, QString())); });
            if (l)
                target = l->resourceVersion;
        }
        QElapsedTimer t;
        t.start();
        const auto caughtUp = [&] {
            for (Informer *inf : dropping)
                if (!inf->reflector() || !rvAtLeast(inf->reflector()->lastSyncResourceVersion(), target))
                    return false;
            return true;
        };
        while (ok && !caughtUp() && t.elapsed() < m_options.convergeTimeout.count())
            spin(10);
        for (Informer *inf : dropping)
            inf->setDeltaFilter({});
        if (ok && droppedCount == 0)
            ok = s.fail(
                QStringLiteral("no event was dropped (the workload's dropped part changed nothing the kinds watch)"));
        ok = ok && s.applyAll(after) && s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    judge(r, ref, QStringLiteral("unobserved state"), [this](const QString &w) { return failureText(w); });
    return r;
}

RunReport FaultHarness::apiFaults(const Workload &workload, const ApiFaults &faults)
{
    const RunReport ref = reference(workload);
    Session s(*this);
    bool ok = s.startServer() && s.createPadding(faults.paddingCount, faults.paddingTemplate);
    if (ok) {
        s.setFaults(faults.faults);
        ok = s.startOperator();
    }
    for (int i = 0; ok && i < workload.size(); ++i) {
        ok = s.apply(workload.at(i));
        if (ok && faults.expireWatches)
            s.expireWatches();
        if (ok && faults.restartServer) {
            ++s.m_fired[QStringLiteral("restart")];
            ok = s.restartServer();
            if (ok)
                s.setFaults(faults.faults);
        }
    }
    ok = ok && s.waitQuiescent(); // converged with the faults still on
    if (ok) {
        s.setFaults({});
        ok = s.waitQuiescent();
    }
    RunReport r = s.report(ok);
    r.end = s.snapshot();
    judge(r, ref,
        QStringLiteral("API faults (%1%2%3)")
            .arg(faults.faults.join(QLatin1String("; ")),
                faults.expireWatches ? QStringLiteral(", 410 on watch") : QString(),
                faults.restartServer ? QStringLiteral(", server restarts") : QString()),
        [this](const QString &w) { return failureText(w); });
    return r;
}

StabilityReport FaultHarness::stability(const Workload &workload, int maxReconcilesPerStep)
{
    StabilityReport out;
    Session s(*this);
    bool ok = s.startServer() && s.startOperator() && s.applyAll(workload) && s.waitQuiescent();
    out.reconcilesToConverge = s.m_reconciles;
    out.writesToConverge = s.m_writes;
    if (ok && s.m_reconciles > maxReconcilesPerStep * qMax(1, int(workload.size())))
        ok = s.fail(QStringLiteral("%1 reconciles to converge %2 steps (bound %3 per step): a hot loop?")
                        .arg(s.m_reconciles)
                        .arg(workload.size())
                        .arg(maxReconcilesPerStep));
    if (ok) {
        const int r0 = s.m_reconciles, w0 = s.m_writes;
        const QList<Informer *> forInformers = s.informersOf({m_def.kinds.value(0)});
        int queued = 0;
        for (Informer *inf : forInformers)
            for (const Object &o : inf->store().list()) {
                s.m_ctrl->queue()->add(QueueKey{o.namespaceName(), o.name()});
                ++queued;
            }
        ok = s.waitQuiescent();
        out.reconcilesAfter = s.m_reconciles - r0;
        out.writesAfter = s.m_writes - w0;
        if (ok && out.writesAfter > 0)
            ok = s.fail(QStringLiteral("reconciling converged objects wrote %1 time(s):\n  %2")
                            .arg(out.writesAfter)
                            .arg(s.m_writeLog.mid(w0).join(QStringLiteral("\n  "))));
        if (ok && out.reconcilesAfter > queued)
            ok = s.fail(QStringLiteral("%1 objects queued once gave %2 reconciles (no hot loop allowed)")
                            .arg(queued)
                            .arg(out.reconcilesAfter));
    }
    out.ok = ok;
    if (!ok)
        out.failure = failureText(QStringLiteral("stability: ") + s.m_error);
    return out;
}

} // namespace opbench::testing
