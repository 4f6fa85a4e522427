// SPDX-License-Identifier: Apache-2.0
#include "engine/api/labelselector.h"

#include "engine/api/labelselectorparser.h"
#include "engine/api/validation.h"

#include <QJsonArray>

#include <algorithm>

namespace opbench {

namespace {

using Op = LabelRequirement::Op;
using labelselectorparser::requirementError;
using labelselectorparser::sortedSet;

void sortByKey(QList<LabelRequirement> &reqs)
{
    std::stable_sort(
        reqs.begin(), reqs.end(), [](const LabelRequirement &a, const LabelRequirement &b) { return a.key < b.key; });
}

} // namespace

bool LabelRequirement::matches(const Labels &labels) const
{
    auto it = labels.constFind(key);
    const bool has = it != labels.cend();
    switch (op) {
    case Op::Equals:
    case Op::DoubleEquals:
    case Op::In:
        return has && values.contains(*it);
    case Op::NotEquals:
    case Op::NotIn:
        return !has || !values.contains(*it);
    case Op::Exists:
        return has;
    case Op::DoesNotExist:
        return !has;
    case Op::GreaterThan:
    case Op::LessThan: {
        if (!has || values.size() != 1)
            return false;
        bool ok1 = false, ok2 = false;
        const qint64 have = it->toLongLong(&ok1);
        const qint64 want = values.first().toLongLong(&ok2);
        if (!ok1 || !ok2)
            return false;
        return op == Op::GreaterThan ? have > want : have < want;
    }
    }
    return false;
}

QString LabelRequirement::toString() const
{
    switch (op) {
    case Op::Exists:
        return key;
    case Op::DoesNotExist:
        return QLatin1Char('!') + key;
    case Op::Equals:
        return key + QLatin1Char('=') + values.value(0);
    case Op::DoubleEquals:
        return key + QStringLiteral("==") + values.value(0);
    case Op::NotEquals:
        return key + QStringLiteral("!=") + values.value(0);
    case Op::GreaterThan:
        return key + QLatin1Char('>') + values.value(0);
    case Op::LessThan:
        return key + QLatin1Char('<') + values.value(0);
    case Op::In:
        return key + QStringLiteral(" in (") + sortedSet(values).join(QLatin1Char(',')) + QLatin1Char(')');
    case Op::NotIn:
        return key + QStringLiteral(" notin (") + sortedSet(values).join(QLatin1Char(',')) + QLatin1Char(')');
    }
    return key;
}

bool LabelRequirement::isExactMatch() const
{
    return (op == Op::Equals || op == Op::DoubleEquals || op == Op::In) && values.size() == 1;
}

Expected<LabelSelector> LabelSelector::parse(const QString &selector)
{
    QString error;
    auto reqs = labelselectorparser::parse(selector, &error);
    if (!reqs)
        return Status::badRequest(error);
    LabelSelector s;
    s.m_requirements = *reqs;
    sortByKey(s.m_requirements);
    return s;
}

Expected<LabelSelector> LabelSelector::fromJson(const QJsonObject &json)
{
    LabelSelector s;
    const QJsonObject matchLabels = json.value(QLatin1String("matchLabels")).toObject();
    QStringList errors;
    for (auto it = matchLabels.begin(); it != matchLabels.end(); ++it) {
        LabelRequirement r{it.key(), Op::Equals, {it.value().toString()}};
        if (const QString e = requirementError(r); !e.isEmpty())
            errors << e;
        s.m_requirements.append(r);
    }
    for (const QJsonValue &v : json.value(QLatin1String("matchExpressions")).toArray()) {
        const QJsonObject e = v.toObject();
        const QString opName = e.value(QLatin1String("operator")).toString();
        static const QHash<QString, Op> ops{{QStringLiteral("In"), Op::In}, {QStringLiteral("NotIn"), Op::NotIn},
            {QStringLiteral("Exists"), Op::Exists}, {QStringLiteral("DoesNotExist"), Op::DoesNotExist}};
        if (!ops.contains(opName))
            return Status::badRequest(
                QStringLiteral("%1 is not a valid label selector operator").arg(fielderror::quote(opName)));
        LabelRequirement r{e.value(QLatin1String("key")).toString(), ops.value(opName), {}};
        for (const QJsonValue &x : e.value(QLatin1String("values")).toArray())
            r.values << x.toString();
        if (const QString err = requirementError(r); !err.isEmpty())
            errors << err;
        r.values = sortedSet(r.values);
        s.m_requirements.append(r);
    }
    if (!errors.isEmpty())
        return Status::badRequest(errors.size() == 1
                ? errors.first()
                : QLatin1Char('[') + errors.join(QStringLiteral(", ")) + QLatin1Char(']'));
    sortByKey(s.m_requirements);
    return s;
}

LabelSelector LabelSelector::fromLabels(const Labels &labels)
{
    LabelSelector s;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it)
        s.m_requirements.append({it.key(), Op::Equals, {it.value()}});
    return s; // QMap iterates in key order: already sorted
}

LabelSelector LabelSelector::nothing()
{
    LabelSelector s;
    s.m_nothing = true;
    return s;
}

bool LabelSelector::matches(const Labels &labels) const
{
    if (m_nothing)
        return false;
    return std::all_of(
        m_requirements.cbegin(), m_requirements.cend(), [&](const LabelRequirement &r) { return r.matches(labels); });
}

QString LabelSelector::toString() const
{
    QStringList parts;
    for (const LabelRequirement &r : m_requirements)
        parts << r.toString();
    return parts.join(QLatin1Char(','));
}

std::optional<QString> LabelSelector::requiresExactMatch(const QString &key) const
{
    for (const LabelRequirement &r : m_requirements)
        if (r.key == key && r.isExactMatch())
            return r.values.first();
    return std::nullopt;
}

LabelSelector LabelSelector::with(const LabelRequirement &r) const
{
    LabelSelector s = *this;
    s.m_requirements.append(r);
    sortByKey(s.m_requirements);
    return s;
}

} // namespace opbench
