// SPDX-License-Identifier: Apache-2.0
#pragma once
// Metadata-only reads (meta.k8s.io/v1 PartialObjectMetadata), the client side of client-go's
// metadata client (k8s.io/client-go/metadata):
//
// - get and watch send  Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json
//   list sends          Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json
//   (client-go puts the protobuf variant first; opbench speaks JSON only). The trailing plain
//   application/json is the fallback a server that does not know the conversion answers with:
//   the full object, which the client reduces to its metadata (client-go does the same for get
//   and list; its watch has no fallback and fails on every event, opbench's reduces those too).
// - the result is always {"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":{...}};
//   nothing outside metadata is kept.
// - a server that refuses both (406 Not Acceptable) gives an error naming the metadata-only
//   request, so the cause is clear in an informer's errorOccurred.

#include "engine/api/object.h"
#include "engine/api/status.h"

#include <QByteArray>

namespace opbench {

/// The Accept header of a metadata-only get or watch.
inline constexpr char PartialObjectMetadataAccept[]
    = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
/// The Accept header of a metadata-only list.
inline constexpr char PartialObjectMetadataListAccept[]
    = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/// True when `o` is a meta.k8s.io/v1 PartialObjectMetadata.
bool isPartialObjectMetadata(const Object &o);

/// `o` as a meta.k8s.io/v1 PartialObjectMetadata: returned as is when it already is one,
/// otherwise only its metadata is kept (the fallback for servers that send the full object).
Object toPartialObjectMetadata(const Object &o);

/// A metadata-only object carrying the apiVersion/kind of the watched type, as
/// controller-runtime's metadata informers store them (its GVK fix-up of list items and watch
/// events): only `o`'s metadata is kept.
Object metadataOnlyAs(const Object &o, const QString &apiVersion, const QString &kind);

/// A 406 reply to a metadata-only request, restated so that it says what was refused.
Status metadataNotAcceptable(const Status &error, const QString &what);

} // namespace opbench
