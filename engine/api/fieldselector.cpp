// SPDX-License-Identifier: Apache-2.0
#include "engine/api/fieldselector.h"

#include <algorithm>

namespace opbench {

namespace {

// Splits on commas not preceded by a backslash escape (escapes stay in the terms).
QStringList splitTerms(const QString &selector)
{
    QStringList terms;
    if (selector.isEmpty())
        return terms;
    qsizetype start = 0;
    bool inSlash = false;
    for (qsizetype i = 0; i < selector.size(); ++i) {
        const QChar c = selector[i];
        if (inSlash)
            inSlash = false;
        else if (c == u'\\')
            inSlash = true;
        else if (c == u',') {
            terms << selector.mid(start, i - start);
            start = i + 1;
        }
    }
    terms << selector.mid(start);
    return terms;
}

struct SplitTerm
{
    QString lhs;
    QString op;
    QString rhs;
};

// The first occurrence of an operator (checked in the order !=, ==, =) splits the term.
std::optional<SplitTerm> splitTerm(const QString &term)
{
    static const QString ops[] = {QStringLiteral("!="), QStringLiteral("=="), QStringLiteral("=")};
    for (qsizetype i = 0; i < term.size(); ++i) {
        for (const QString &op : ops) {
            if (QStringView(term).mid(i).startsWith(op))
                return SplitTerm{term.left(i), op, term.mid(i + op.size())};
        }
    }
    return std::nullopt;
}

Expected<QString> unescape(const QString &s)
{
    if (!s.contains(u'\\') && !s.contains(u',') && !s.contains(u'='))
        return s;
    QString out;
    out.reserve(s.size());
    bool inSlash = false;
    for (QChar c : s) {
        if (inSlash) {
            if (c != u'\\' && c != u',' && c != u'=')
                return Status::badRequest(QStringLiteral("invalid field selector: invalid escape sequence: \\") + c);
            out += c;
            inSlash = false;
            continue;
        }
        if (c == u'\\')
            inSlash = true;
        else if (c == u',' || c == u'=')
            return Status::badRequest(
                QStringLiteral("invalid field selector: unescaped character in value: '%1' in '%2'").arg(c).arg(s));
        else
            out += c;
    }
    if (inSlash)
        return Status::badRequest(QStringLiteral("invalid field selector: invalid escape sequence: \\"));
    return out;
}

} // namespace

QString FieldRequirement::toString() const
{
    return field + (notEquals ? QStringLiteral("!=") : QStringLiteral("=")) + FieldSelector::escapeValue(value);
}

QString FieldSelector::escapeValue(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (QChar c : value) {
        if (c == u'\\' || c == u',' || c == u'=')
            out += u'\\';
        out += c;
    }
    return out;
}

Expected<FieldSelector> FieldSelector::parse(const QString &selector)
{
    QStringList terms = splitTerms(selector);
    terms.sort();
    FieldSelector s;
    for (const QString &term : std::as_const(terms)) {
        if (term.isEmpty())
            continue;
        auto split = splitTerm(term);
        if (!split)
            return Status::badRequest(
                QStringLiteral("invalid selector: '%1'; can't understand '%2'").arg(selector, term));
        auto value = unescape(split->rhs);
        if (!value.ok())
            return value.error();
        s.m_requirements.append({split->lhs, split->op == QLatin1String("!="), value.value()});
    }
    // Order by the canonical text, so parse(toString()) yields the same list.
    std::stable_sort(s.m_requirements.begin(), s.m_requirements.end(),
        [](const FieldRequirement &a, const FieldRequirement &b) { return a.toString() < b.toString(); });
    return s;
}

FieldSelector FieldSelector::equals(const QString &field, const QString &value)
{
    FieldSelector s;
    s.m_requirements.append({field, false, value});
    return s;
}

bool FieldSelector::matches(const FieldLookup &lookup) const
{
    return std::all_of(m_requirements.cbegin(), m_requirements.cend(), [&](const FieldRequirement &r) {
        const QString have = lookup(r.field).value_or(QString());
        return r.notEquals ? have != r.value : have == r.value;
    });
}

bool FieldSelector::matches(const QHash<QString, QString> &fields) const
{
    return matches([&fields](const QString &f) -> std::optional<QString> {
        auto it = fields.constFind(f);
        return it == fields.cend() ? std::nullopt : std::optional<QString>(*it);
    });
}

QString FieldSelector::toString() const
{
    QStringList parts;
    for (const FieldRequirement &r : m_requirements)
        parts << r.toString();
    return parts.join(QLatin1Char(','));
}

std::optional<QString> FieldSelector::requiresExactMatch(const QString &field) const
{
    for (const FieldRequirement &r : m_requirements)
        if (r.field == field && !r.notEquals)
            return r.value;
    return std::nullopt;
}

QHash<QString, QString> fieldsOf(const Object &object)
{
    QHash<QString, QString> fields;
    fields.insert(QStringLiteral("metadata.name"), object.name());
    if (!object.namespaceName().isEmpty())
        fields.insert(QStringLiteral("metadata.namespace"), object.namespaceName());
    return fields;
}

} // namespace opbench
