// SPDX-License-Identifier: Apache-2.0
#pragma once
// ObjectKey and the list options of the typed Client (controller-runtime's client.ObjectKey,
// client.InNamespace, client.MatchingLabels, client.MatchingFields, client.Limit):
//
//     Expected<Guestbook> book = co_await client().get<Guestbook>(req.ctx, ObjectKey(ns, name));
//     auto pods = co_await client().list<Pod>(req.ctx, InNamespace(ns), MatchingLabels(selector));
//
// Every type here is a class with a constructor, never an aggregate: g++ 12 destroys an aggregate
// temporary with non-trivial members twice when it is built inside a co_await expression's
// arguments, and these are built exactly there (tests/api/tst_awaitsafety.cpp checks it).

#include "engine/api/fieldselector.h"
#include "engine/api/labelselector.h"
#include "engine/cache/informercache.h"

#include <QHash>

#include <concepts>

namespace opbench {

/// The namespace and name of an object ("" namespace: cluster-scoped).
class ObjectKey
{
public:
    ObjectKey() = default;
    ObjectKey(QString ns, QString objectName)
        : namespaceName(std::move(ns))
        , name(std::move(objectName))
    { }
    /// The key of `object` (any view or Object with namespaceName() and name()).
    template<class V> static ObjectKey of(const V &object) { return {object.namespaceName(), object.name()}; }
    /// "ns/name", or "name" when cluster-scoped.
    [[nodiscard]] QString toString() const { return objectKey(namespaceName, name); }
    friend bool operator==(const ObjectKey &, const ObjectKey &) = default;

    QString namespaceName;
    QString name;
};

/// A list option: something that narrows a cached list (applyTo edits the CacheListOptions).
template<class O>
concept ListOption = requires(const O &option, CacheListOptions &options)
{
    option.applyTo(options);
};

/// Objects of one namespace only ("" = all).
class InNamespace
{
public:
    explicit InNamespace(QString ns)
        : m_namespace(std::move(ns))
    { }
    void applyTo(CacheListOptions &o) const { o.namespaceName = m_namespace; }

private:
    QString m_namespace;
};

/// Objects carrying every one of these labels (ANDed with other label options).
class MatchingLabels
{
public:
    explicit MatchingLabels(Labels labels)
        : m_labels(std::move(labels))
    { }
    void applyTo(CacheListOptions &o) const;

private:
    Labels m_labels;
};

/// Objects matching a label selector (`app=web,tier in (a,b)`), ANDed with other label options.
class MatchingLabelsSelector
{
public:
    explicit MatchingLabelsSelector(LabelSelector selector)
        : m_selector(std::move(selector))
    { }
    void applyTo(CacheListOptions &o) const;

private:
    LabelSelector m_selector;
};

/// Objects whose fields equal these values (metadata.name, metadata.namespace, or a field the
/// cache indexes), ANDed with other field options.
class MatchingFields
{
public:
    explicit MatchingFields(QHash<QString, QString> fields)
        : m_fields(std::move(fields))
    { }
    MatchingFields(const QString &field, const QString &value)
        : m_fields{{field, value}}
    { }
    void applyTo(CacheListOptions &o) const;

private:
    QHash<QString, QString> m_fields;
};

/// At most `n` objects.
class Limit
{
public:
    explicit Limit(qint64 n)
        : m_limit(n)
    { }
    void applyTo(CacheListOptions &o) const { o.limit = m_limit; }

private:
    qint64 m_limit;
};

/// The CacheListOptions several list options make together.
template<ListOption... O> CacheListOptions listOptions(const O &...options)
{
    CacheListOptions o;
    (options.applyTo(o), ...);
    return o;
}

} // namespace opbench
