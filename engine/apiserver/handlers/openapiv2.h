// SPDX-License-Identifier: Apache-2.0
#pragma once
// The swagger 2.0 document served at /openapi/v2, generated from the same schemas as the
// OpenAPI v3 documents (openapischema.h for built-in kinds, each CRD version's openAPIV3Schema
// through OpenApiV3::customKindSchema), converted to swagger 2.0:
//
//   definitions  every served kind ("io.k8s.api.apps.v1.Deployment", "com.example.v1alpha1.
//                MyApplication") and the definitions they refer to, transitively; references are
//                plain {"$ref": "#/definitions/<name>"} (v3's allOf wrappers are dropped);
//                x-kubernetes-group-version-kind, x-kubernetes-patch-strategy and
//                x-kubernetes-patch-merge-key kept (kubectl's client-side apply reads the last
//                two to compute strategic merge patches).
//   paths        per served resource, the collection (get, post) and item (get, put, patch,
//                delete) operations, plus /status; each operation carries
//                x-kubernetes-group-version-kind and x-kubernetes-action; PATCH operations list
//                the patch media types they consume (strategic merge for built-ins only: what
//                kubectl picks the patch type from) and the fieldValidation query parameter
//                (so kubectl leaves field validation to the server).
//
// What swagger 2.0 cannot say is dropped as kube-apiserver's CRD v2 conversion drops it: oneOf,
// anyOf, not and nullable (a nullable field loses its type and is no longer required);
// x-kubernetes-preserve-unknown-fields drops properties/items below the kind; an array without
// items loses its type. The built-in scalar unions (Quantity, IntOrString) become strings, and
// a built-in opaque object (a field the table does not describe) becomes typeless, so kubectl's
// strategic-merge lookups pass through it instead of failing.
//
// The document and its two encodings (JSON, gnostic protobuf) are built once and cached until
// the registry changes (a CRD added, changed or removed).

#include "engine/apiserver/registry/registry.h"

#include <QByteArray>
#include <QJsonObject>

namespace opbench::apiserver {

class OpenApiV2
{
public:
    explicit OpenApiV2(const ResourceRegistry *registry)
        : m_registry(registry)
    { }

    /// The swagger 2.0 document, built from the registry now.
    QJsonObject document() const;

    /// One v3 schema as swagger 2.0 (see above); `builtin` selects the built-in rules.
    static QJsonObject toV2Schema(const QJsonObject &v3, bool builtin);

    /// The encodings and their ETags (quoted, as sent), cached until the registry changes.
    struct Encoded
    {
        QByteArray json;
        QByteArray jsonEtag;
        QByteArray protobuf;
        QByteArray protobufEtag;
    };
    static Encoded encode(const QJsonObject &document);

private:
    const ResourceRegistry *m_registry;
};

} // namespace opbench::apiserver
