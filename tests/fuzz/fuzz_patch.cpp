// SPDX-License-Identifier: Apache-2.0
// PATCH bodies (engine/apiserver/patch, jsonpatch, strategicmerge): input = one selector byte,
// then `live JSON` "\n===\n" `patch body` (no separator: the body patches a fixed Deployment).
// The selector picks the patch kind (JSON patch, merge, strategic merge, apply) and whether the
// object is a custom resource; the same body also goes through the other kinds.
// Invariants: merge patches are idempotent (RFC 7386); a strategic merge patch with no lists and
// no directives gives the merge patch's result; no `$` directive survives a strategic merge;
// a JSON patch of only `test` operations leaves the document as it was; JSON pointers survive
// escaping; what a patch produces is at most kMaxDecodedBytes larger than the object and the body
// together (limits.h: JSON patch `copy` operations could otherwise double it each).
#include "engine/apiserver/apply/jsonpatch.h"
#include "engine/apiserver/apply/patch.h"
#include "engine/apiserver/apply/strategicmerge.h"
#include "engine/apiserver/http/limits.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

const QByteArray kDeployment
    = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default",
"labels":{"app":"web"},"finalizers":["a","b"]},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1",
"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80}]}],
"tolerations":[{"key":"k","operator":"Exists"}]}}}})";

QString text(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return v.toVariant().toString();
}

bool isDirective(const QString &key)
{
    return key == QLatin1String("$patch") || key == QLatin1String("$retainKeys")
        || key.startsWith(QLatin1String("$deleteFromPrimitiveList/"))
        || key.startsWith(QLatin1String("$setElementOrder/"));
}

// A strategic-merge directive anywhere (other keys starting with '$' are ordinary fields).
bool hasDirective(const QJsonValue &v)
{
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            if (hasDirective(e))
                return true;
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (isDirective(it.key()) || hasDirective(it.value()))
                return true;
    }
    return false;
}

bool hasArray(const QJsonValue &v)
{
    if (v.isArray())
        return true;
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (hasArray(it.value()))
                return true;
    }
    return false;
}

QString escapeToken(QString t)
{
    t.replace(u'~', QLatin1String("~0"));
    t.replace(u'/', QLatin1String("~1"));
    return t;
}

} // namespace

OPBENCH_FUZZ_TARGET(patch)(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const int selector = data[0];
    const QByteArray input = fuzz::bytes(data + 1, size - 1);
    const qsizetype sep = input.indexOf("\n===\n");
    const QByteArray liveText = sep >= 0 ? input.left(sep) : kDeployment;
    const QByteArray body = sep >= 0 ? input.mid(sep + 5) : input;
    const QJsonDocument liveDoc = QJsonDocument::fromJson(liveText);
    if (!liveDoc.isObject())
        return 0;
    const QJsonObject live = liveDoc.object();
    const bool custom = selector & 4;
    static const PatchKind kinds[]
        = {PatchKind::JsonPatch, PatchKind::MergePatch, PatchKind::StrategicMerge, PatchKind::Apply};
    const PatchKind kind = kinds[selector & 3];

    // Through the media type, as the server dispatches it.
    const PatchKind viaType = mediaTypePatchKind(patchMediaType(kind) + "; charset=utf-8");
    FUZZ_CHECK(viaType == kind, QString::fromLatin1(patchMediaType(kind)));
    const Expected<QJsonObject> dispatched = applyPatch(kind, live, body, custom);
    if (!dispatched)
        FUZZ_CHECK(dispatched.error().code() >= 400 && dispatched.error().code() < 500, dispatched.error().message());
    const qint64 bound = decodedSize(live, kMaxDecodedBytes) + body.size() + kMaxDecodedBytes;
    if (dispatched)
        FUZZ_CHECK(decodedSize(*dispatched, bound) <= bound, QString::fromUtf8(body.left(2000)));

    const Expected<QJsonValue> patch = parsePatchBody(body);
    if (!patch)
        return 0;

    // Merge patch: idempotent.
    if (const Expected<QJsonObject> once = applyMergePatch(live, *patch); once) {
        const Expected<QJsonObject> twice = applyMergePatch(*once, *patch);
        FUZZ_CHECK(
            twice.ok() && *twice == *once, text(*once) + u'|' + (twice ? text(*twice) : twice.error().message()));
        // Strategic merge without lists or directives: the same as the merge patch.
        if (!hasArray(*patch) && !hasDirective(*patch) && !hasArray(live) && !hasDirective(live)) {
            const Expected<QJsonObject> smp = applyStrategicMergePatch(live, *patch);
            FUZZ_CHECK(smp.ok() && *smp == *once, text(*once) + u'|' + (smp ? text(*smp) : smp.error().message()));
        }
    }

    // Strategic merge: no directive survives (when the live object had none).
    if (const Expected<QJsonObject> smp = applyStrategicMergePatch(live, *patch); smp && !hasDirective(live))
        FUZZ_CHECK(!hasDirective(*smp), text(*patch) + u'|' + text(*smp));

    // JSON patch: `test` operations alone change nothing; every pointer survives escaping.
    if (patch->isArray()) {
        const QJsonArray ops = patch->toArray();
        bool onlyTests = !ops.isEmpty();
        for (const QJsonValue &op : ops) {
            const QJsonObject o = op.toObject();
            onlyTests = onlyTests && o.value(QLatin1String("op")).toString() == QLatin1String("test");
            for (const char *field : {"path", "from"}) {
                const QString pointer = o.value(QLatin1String(field)).toString();
                if (const auto tokens = parseJsonPointer(pointer)) {
                    QString rebuilt;
                    for (const QString &t : *tokens)
                        rebuilt += u'/' + escapeToken(t);
                    const auto again = parseJsonPointer(rebuilt);
                    FUZZ_CHECK(again && *again == *tokens, pointer + u'|' + rebuilt);
                }
            }
        }
        const Expected<QJsonObject> applied = applyJsonPatch(live, *patch);
        if (applied)
            FUZZ_CHECK(decodedSize(*applied, bound) <= bound, text(*patch).left(2000));
        if (applied && onlyTests)
            FUZZ_CHECK(*applied == live, text(*patch));
    }

    // Apply: create and update.
    if (patch->isObject()) {
        const Expected<QJsonObject> created = applyServerSide(std::nullopt, patch->toObject(), custom);
        if (created)
            FUZZ_CHECK(*created == patch->toObject(), text(*patch));
        (void)applyServerSide(live, patch->toObject(), custom);
    }
    return 0;
}
