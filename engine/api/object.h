// SPDX-License-Identifier: Apache-2.0
#pragma once
// Object: an immutable, implicitly shared Kubernetes object.
//
// It keeps the whole document once, as compact JSON in a packed form (object keys, enum-like
// values and timestamps replaced by short tokens, see objectencoding_p.h), plus where the metadata
// fields sit in it. Accessors decode on each call (name(), uid(), …: a small allocation);
// labels(), ownerReferences() and finalizers() return references, so they are decoded on their
// first call and kept with the object from then on. Copies are a pointer copy. Editing goes
// through json() / fromJson() or a typed view (Deployment, Lease, …), which produce a new Object.
//
// Memory: a cached Object costs its packed document (about half its wire bytes for a
// Deployment) plus a fixed block of about 170 bytes, in one allocation; see bench/objectmemory.cpp
// ("opbench-bench object-memory") for the figure against the wire size.

#include "engine/api/expected.h"
#include "engine/api/gvk.h"

#include <QExplicitlySharedDataPointer>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace opbench {

struct OwnerReference
{
    QString apiVersion;
    QString kind;
    QString name;
    QString uid;
    bool controller = false;
    bool blockOwnerDeletion = false;

    QJsonObject toJson() const;
    static OwnerReference fromJson(const QJsonObject &o);
    friend bool operator==(const OwnerReference &, const OwnerReference &) = default;
};

using Labels = QMap<QString, QString>;

class ObjectData;

class Object
{
public:
    /// A null object (isNull() is true; every accessor returns an empty value).
    Object();
    Object(const Object &);
    Object(Object &&) noexcept;
    Object &operator=(const Object &);
    Object &operator=(Object &&) noexcept;
    ~Object();

    /// Builds an object from a JSON document (any JSON object is accepted).
    static Object fromJson(const QJsonObject &json);
    /// Parses JSON text. Errors say what is wrong and where (byte offset).
    static Expected<Object> parse(const QByteArray &json);
    /// Parses a list document ({"items":[…], "metadata":{"resourceVersion":…}}) in one pass;
    /// items lacking apiVersion/kind get `itemApiVersion`/`itemKind` when those are non-empty.
    struct List
    {
        QList<Object> items;
        QString resourceVersion;
        QString continueToken;
        qint64 remainingItemCount = -1;
        QString kind;
    };
    /// With `stripManagedFields`, metadata.managedFields is dropped while decoding (the cache's
    /// default transform, at no extra cost).
    static Expected<List> parseList(const QByteArray &json, const QString &itemApiVersion = {},
        const QString &itemKind = {}, bool stripManagedFields = false);

    bool isNull() const;

    /// The whole document (decoded on each call: keep the result if you read many fields).
    QJsonObject json() const;
    /// The whole document as compact JSON (unpacked on each call: about 1 µs per KB).
    QByteArray toJsonBytes() const;
    /// Appends toJsonBytes() to `out` without an intermediate copy (for list bodies).
    void appendJsonTo(QByteArray &out) const;
    /// Bytes this object holds (packed document, fixed block, and whatever labels(),
    /// ownerReferences() and finalizers() have decoded so far), for cache accounting.
    qsizetype memoryFootprint() const;

    QString apiVersion() const;
    QString kind() const;
    GroupVersionKind gvk() const;
    QString name() const;
    QString generateName() const;
    QString namespaceName() const;
    /// "namespace/name", or "name" for cluster-scoped objects: the cache key.
    QString key() const;
    /// objectKeyHash(key()), computed without building key() (for key-indexed sets).
    std::size_t keyHash() const;
    /// key() == key, without building key().
    bool hasKey(QStringView key) const;
    /// key() == other.key(), without building either.
    bool sameKey(const Object &other) const;
    QString uid() const;
    QString resourceVersion() const;
    qint64 generation() const;
    QString creationTimestamp() const;
    QString deletionTimestamp() const;
    bool isBeingDeleted() const { return !deletionTimestamp().isEmpty(); }
    /// Decoded on the first call, then kept with the object.
    const Labels &labels() const;
    /// Decoded on demand (annotations can be large; they are not kept decoded).
    Labels annotations() const;
    /// Decoded on the first call, then kept with the object.
    const QList<OwnerReference> &ownerReferences() const;
    /// The uids of ownerReferences(), decoded on each call and not kept (for indexes that visit
    /// every object).
    QStringList ownerReferenceUids() const;
    /// The ownerReference with controller=true, if any.
    std::optional<OwnerReference> controllerReference() const;
    /// Decoded on the first call, then kept with the object.
    const QStringList &finalizers() const;

    /// Reads a nested value by path ("spec", "replicas"); undefined when absent.
    QJsonValue value(std::initializer_list<QLatin1String> path) const;

    /// A copy without metadata.managedFields (the cache's default transform).
    Object withoutManagedFields() const;

    /// Same document (compares the packed bytes, which are equal exactly when the JSON is).
    friend bool operator==(const Object &a, const Object &b);

private:
    explicit Object(ObjectData *d);
    QExplicitlySharedDataPointer<const ObjectData> d;
};

/// "ns/name" or "name".
QString objectKey(const QString &ns, const QString &name);
/// A hash of a cache key (FNV-1a over its UTF-16 code units); Object::keyHash() agrees with it.
std::size_t objectKeyHash(QStringView key);

} // namespace opbench

Q_DECLARE_METATYPE(opbench::Object)
