// SPDX-License-Identifier: Apache-2.0
// The CRD schema validator (engine/apiserver/schemavalidator): input = `schema or CRD JSON`
// "\n===\n" `object JSON`; with no separator the input is the object and the schema is a fixed
// one (MyApplication's, plus one of every check). A CRD (kind CustomResourceDefinition) goes
// through validateCrd() first and then each version's schema is used.
// Invariants: process() is a fixed point on its own output (defaulting and pruning are
// idempotent, and a valid result validates again with no causes and no pruned fields); every
// cause has a type and a message; pruning never adds keys.
#include "engine/apiserver/validation/schemavalidator.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

const QByteArray kSchema = R"({"type":"object","properties":{
 "spec":{"type":"object","required":["image"],"properties":{
   "image":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[a-z0-9./:-]+$"},
   "replicas":{"type":"integer","format":"int32","minimum":1,"maximum":100,"default":1},
   "ratio":{"type":"number","multipleOf":0.5,"exclusiveMaximum":true,"maximum":10},
   "mode":{"type":"string","enum":["a","b"],"default":"a"},
   "port":{"x-kubernetes-int-or-string":true},
   "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
   "tags":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string"}},
   "env":{"type":"object","maxProperties":2,"additionalProperties":{"type":"string","nullable":true}},
   "nested":{"type":"object","default":{},"properties":{"deep":{"type":"boolean","default":true}}}}},
 "status":{"type":"object","properties":{"phase":{"type":"string","enum":["Pending","Running","Failed"]},
   "conditions":{"type":"array","items":{"type":"object","required":["type"],"properties":{"type":{"type":"string"}}}}}}}})";

QString text(const QJsonObject &o) { return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)); }

// The CRD the API server would accept for `schema` (only such schemas ever validate objects).
bool servable(const QJsonObject &schema)
{
    QJsonObject crd
        = QJsonDocument::fromJson(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
        "metadata":{"name":"things.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
        "names":{"plural":"things","singular":"thing","kind":"Thing"},
        "versions":[{"name":"v1","served":true,"storage":true,"schema":{}}]}})")
              .object();
    QJsonObject spec = crd.value(QLatin1String("spec")).toObject();
    QJsonArray versions = spec.value(QLatin1String("versions")).toArray();
    QJsonObject v1 = versions.first().toObject();
    v1.insert(QLatin1String("schema"), QJsonObject{{QLatin1String("openAPIV3Schema"), schema}});
    versions.replace(0, v1);
    spec.insert(QLatin1String("versions"), versions);
    crd.insert(QLatin1String("spec"), spec);
    return validateCrd(crd).isEmpty();
}

void checkSchema(const QJsonObject &schema, const QJsonObject &object, bool invariants)
{
    const SchemaValidator v(schema);
    const SchemaValidator::Result r = v.process(object);
    for (const StatusCause &c : r.causes)
        FUZZ_CHECK(!c.reason.isEmpty() && !c.message.isEmpty(), text(object));
    // The three steps alone don't crash and pruning never adds keys.
    const QJsonObject pruned = v.prune(object);
    const QJsonObject defaulted = v.applyDefaults(object);
    if (invariants) {
        FUZZ_CHECK(pruned.keys().size() <= object.keys().size(), text(object) + u'|' + text(pruned));
        QStringList prunedAgain;
        FUZZ_CHECK(v.prune(pruned, &prunedAgain) == pruned && prunedAgain.isEmpty(),
            text(pruned) + u'|' + prunedAgain.join(u','));
        FUZZ_CHECK(v.applyDefaults(defaulted) == defaulted, text(defaulted));
    }
    (void)v.validate(object);
    if (!invariants || !r.causes.isEmpty())
        return;
    const SchemaValidator::Result again = v.process(r.object);
    FUZZ_CHECK(again.causes.isEmpty(), text(r.object) + u'|' + again.causes.first().message);
    FUZZ_CHECK(again.object == r.object, text(r.object) + u'|' + text(again.object));
    FUZZ_CHECK(again.prunedFields.isEmpty(), text(r.object) + u'|' + again.prunedFields.join(u','));
}

} // namespace

OPBENCH_FUZZ_TARGET(schema)(const std::uint8_t *data, std::size_t size)
{
    const QByteArray input = fuzz::bytes(data, size);
    const qsizetype sep = input.indexOf("\n===\n");
    const QJsonDocument schemaDoc = QJsonDocument::fromJson(sep >= 0 ? input.left(sep) : kSchema);
    const QJsonDocument objectDoc = QJsonDocument::fromJson(sep >= 0 ? input.mid(sep + 5) : input);
    if (!schemaDoc.isObject())
        return 0;
    const QJsonObject schemaOrCrd = schemaDoc.object();
    const QJsonObject object = objectDoc.object();
    if (schemaOrCrd.value(QLatin1String("kind")).toString() == QLatin1String("CustomResourceDefinition")) {
        const QList<StatusCause> causes = validateCrd(schemaOrCrd);
        for (const StatusCause &c : causes)
            FUZZ_CHECK(!c.message.isEmpty(), text(schemaOrCrd));
        FUZZ_CHECK(checkCrd(schemaOrCrd).ok() == causes.isEmpty(), text(schemaOrCrd));
        if (!causes.isEmpty())
            return 0;
        const QJsonArray versions
            = schemaOrCrd.value(QLatin1String("spec")).toObject().value(QLatin1String("versions")).toArray();
        for (const QJsonValue &version : versions) {
            const QJsonObject s = version.toObject()
                                      .value(QLatin1String("schema"))
                                      .toObject()
                                      .value(QLatin1String("openAPIV3Schema"))
                                      .toObject();
            checkSchema(s, object, true);
        }
        return 0;
    }
    (void)formatCauseValue(objectDoc.isArray() ? QJsonValue(objectDoc.array()) : QJsonValue(object));
    static const bool fixedServable = servable(QJsonDocument::fromJson(kSchema).object());
    FUZZ_CHECK(fixedServable, QStringLiteral("the fixed schema is not one the API server accepts"));
    checkSchema(schemaOrCrd, object, servable(schemaOrCrd));
    return 0;
}
