// SPDX-License-Identifier: Apache-2.0
#pragma once
// FieldSelector: the Kubernetes field selector (`metadata.name=web,status.phase!=Running`).
//
// Operators `=`, `==` (same) and `!=`; comma = AND; values escape `\`, `,` and `=` with a
// backslash, as apimachinery's fields package does. A field missing from the object reads as
// the empty string. Which fields a resource supports is the server's business (see
// fieldsOf() for the ones every object has).

#include "engine/api/expected.h"
#include "engine/api/object.h"

#include <QHash>
#include <QStringList>

#include <functional>
#include <optional>

namespace opbench {

struct FieldRequirement
{
    QString field;
    bool notEquals = false; // `!=` when true, `=` otherwise
    QString value;          // unescaped

    /// `field=value` / `field!=value` with the value escaped.
    QString toString() const;
    friend bool operator==(const FieldRequirement &, const FieldRequirement &) = default;
};

class FieldSelector
{
public:
    /// The empty selector: matches everything.
    FieldSelector() = default;

    /// Parses the string form. Errors are BadRequest Statuses quoting the bad term, e.g.
    /// `invalid selector: 'a'; can't understand 'a'` or
    /// `invalid field selector: invalid escape sequence: \x`.
    static Expected<FieldSelector> parse(const QString &selector);
    /// `field=value`.
    static FieldSelector equals(const QString &field, const QString &value);

    using FieldLookup = std::function<std::optional<QString>(const QString &field)>;
    bool matches(const FieldLookup &lookup) const;
    bool matches(const QHash<QString, QString> &fields) const;
    bool isEmpty() const { return m_requirements.isEmpty(); }
    /// Canonical string form (terms sorted, values escaped); parses back to an equal selector.
    QString toString() const;
    const QList<FieldRequirement> &requirements() const { return m_requirements; }
    /// The value `field` must equal, if the selector pins it (e.g. metadata.name for one-object watches).
    std::optional<QString> requiresExactMatch(const QString &field) const;

    /// Escapes `\`, `,` and `=` in a value.
    static QString escapeValue(const QString &value);

    friend bool operator==(const FieldSelector &, const FieldSelector &) = default;

private:
    QList<FieldRequirement> m_requirements;
};

/// The fields every object supports: metadata.name and, for namespaced objects, metadata.namespace.
QHash<QString, QString> fieldsOf(const Object &object);

} // namespace opbench
