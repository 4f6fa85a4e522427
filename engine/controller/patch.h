// SPDX-License-Identifier: Apache-2.0
#pragma once
// Patch: what Client::patch sends (controller-runtime's client.Patch): a merge patch computed
// from an original and a modified object (MergeFrom, optionally with an optimistic lock),
// server-side apply, or a raw body.

#include "engine/api/object.h"
#include "engine/client/requestoptions.h"

#include <QByteArray>

namespace opbench {

class Patch
{
public:
    /// A JSON merge patch (RFC 7386) turning `original` into `modified`: changed fields are set,
    /// removed fields are null, lists are replaced whole (the last writer wins). With
    /// `optimisticLock`, metadata.resourceVersion of `original` is included, so the server answers
    /// 409 Conflict when the object changed meanwhile.
    static Patch mergeFrom(const Object &original, const Object &modified, bool optimisticLock = false);
    /// Server-side apply of `object` (needs PatchOptions::fieldManager).
    static Patch apply(const Object &object);
    static Patch raw(PatchType type, QByteArray data);

    [[nodiscard]] PatchType type() const { return m_type; }
    [[nodiscard]] const QByteArray &data() const { return m_data; }
    /// True for a merge patch that changes nothing ("{}").
    [[nodiscard]] bool isEmpty() const;

private:
    Patch(PatchType type, QByteArray data)
        : m_type(type)
        , m_data(std::move(data))
    { }
    PatchType m_type;
    QByteArray m_data;
};

/// The RFC 7386 merge patch from `a` to `b` (empty object when equal).
QJsonObject createMergePatch(const QJsonObject &a, const QJsonObject &b);

} // namespace opbench
