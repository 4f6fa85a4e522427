// SPDX-License-Identifier: Apache-2.0
#pragma once
// LabelSelector: the Kubernetes label selector, in its string form (`app=web,tier in (a,b),!legacy`)
// and its JSON form ({matchLabels, matchExpressions}).
//
// Semantics follow apimachinery's labels package: requirements are ANDed; `!=` and `notin` also
// match objects lacking the key; `>`/`<` compare integers and never match a missing or
// non-integer value; an empty selector matches everything. Requirements are kept sorted by key
// and set values sorted and de-duplicated, so toString() is canonical and parses back to an
// equal selector. Keys and values are validated as the API server does.

#include "engine/api/expected.h"
#include "engine/api/object.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace opbench {

struct LabelRequirement
{
    enum class Op { Equals, DoubleEquals, NotEquals, In, NotIn, Exists, DoesNotExist, GreaterThan, LessThan };
    QString key;
    Op op = Op::Exists;
    QStringList values; // one value for =, ==, !=, >, <; a sorted set for in/notin; none otherwise

    bool matches(const Labels &labels) const;
    /// `k=v`, `k in (a,b)`, `!k`, … (values of sets sorted).
    QString toString() const;
    /// True for =, == and single-valued `in`: a cache can answer it from an index.
    bool isExactMatch() const;
    friend bool operator==(const LabelRequirement &, const LabelRequirement &) = default;
};

class LabelSelector
{
public:
    /// The empty selector: matches everything.
    LabelSelector() = default;

    /// Parses the string form. Errors are BadRequest Statuses worded like apimachinery's, quoting
    /// the bad part (e.g. `unable to parse requirement: found '(', expected: identifier`).
    static Expected<LabelSelector> parse(const QString &selector);
    /// Converts the JSON form {matchLabels:{k:v}, matchExpressions:[{key, operator, values}]};
    /// operator is In, NotIn, Exists or DoesNotExist. An empty object matches everything.
    /// Errors are BadRequest Statuses (`"Foo" is not a valid label selector operator`, …).
    static Expected<LabelSelector> fromJson(const QJsonObject &json);
    /// A selector requiring every label of `labels` (no validation: for labels taken from objects).
    static LabelSelector fromLabels(const Labels &labels);
    /// A selector that matches nothing (what a null selector means for a workload).
    static LabelSelector nothing();

    bool matches(const Labels &labels) const;
    /// True when the selector matches everything.
    bool isEmpty() const { return !m_nothing && m_requirements.isEmpty(); }
    bool matchesNothing() const { return m_nothing; }
    /// Canonical string form (empty for the empty selector).
    QString toString() const;
    const QList<LabelRequirement> &requirements() const { return m_requirements; }
    /// The value a key must have when the selector pins it (=, == or single-valued in).
    std::optional<QString> requiresExactMatch(const QString &key) const;
    /// Returns a copy with `r` added (kept sorted by key; not validated).
    LabelSelector with(const LabelRequirement &r) const;

    friend bool operator==(const LabelSelector &, const LabelSelector &) = default;

private:
    QList<LabelRequirement> m_requirements;
    bool m_nothing = false;
};

} // namespace opbench
