// SPDX-License-Identifier: Apache-2.0
// jsonPathValues (tables.h): the JSONPath subset of CRD printer columns and kubectl.
#include "engine/apiserver/transform/tables.h"

namespace opbench::apiserver {

namespace {

/// Splits ".a.b[0]['c'][?(@.x=="y")]" into steps: names, "[n]", "[*]", "[?...]".
QStringList pathSteps(QString p)
{
    p = p.trimmed();
    if (p.startsWith(u'{') && p.endsWith(u'}'))
        p = p.mid(1, p.size() - 2);
    QStringList steps;
    qsizetype i = 0;
    while (i < p.size()) {
        if (p[i] == u'.') {
            ++i;
            continue;
        }
        if (p[i] == u'[') {
            int depth = 0;
            qsizetype j = i;
            for (; j < p.size(); ++j) {
                if (p[j] == u'[')
                    ++depth;
                else if (p[j] == u']' && --depth == 0)
                    break;
            }
            steps << p.mid(i, j - i + 1);
            i = j + 1;
            continue;
        }
        qsizetype j = i;
        while (j < p.size() && p[j] != u'.' && p[j] != u'[')
            ++j;
        steps << p.mid(i, j - i);
        i = j;
    }
    return steps;
}

QString unquote(QString s)
{
    s = s.trimmed();
    if (s.size() >= 2 && (s.startsWith(u'"') || s.startsWith(u'\'')) && s.endsWith(s[0]))
        return s.mid(1, s.size() - 2);
    return s;
}

bool filterMatches(const QJsonValue &element, const QString &expr)
{
    // "@.a.b==\"v\"", "@.a!=\"v\"", "@.a" (exists)
    static const QStringList ops{QStringLiteral("=="), QStringLiteral("!=")};
    for (const QString &op : ops) {
        const qsizetype at = expr.indexOf(op);
        if (at < 0)
            continue;
        const QString lhs = expr.left(at).trimmed();
        const QString rhs = unquote(expr.mid(at + 2));
        if (!lhs.startsWith(u'@') || !element.isObject())
            return false;
        const QJsonArray got = jsonPathValues(element.toObject(), lhs.mid(1));
        QString value;
        if (!got.isEmpty())
            value = got.first().isString()
                ? got.first().toString()
                : (got.first().isDouble() ? QString::number(got.first().toDouble())
                                          : (got.first().isBool() ? (got.first().toBool() ? QStringLiteral("true")
                                                                                          : QStringLiteral("false"))
                                                                  : QString()));
        const bool equal = !got.isEmpty() && value == rhs;
        return op == QLatin1String("==") ? equal : !equal;
    }
    const QString e = expr.trimmed();
    return e.startsWith(u'@') && element.isObject() && !jsonPathValues(element.toObject(), e.mid(1)).isEmpty();
}

} // namespace

QJsonArray jsonPathValues(const QJsonObject &root, const QString &jsonPath)
{
    QJsonArray current{root};
    for (const QString &step : pathSteps(jsonPath)) {
        QJsonArray next;
        for (const QJsonValue v : std::as_const(current)) {
            if (!step.startsWith(u'[')) {
                const QJsonValue child = v.toObject().value(step);
                if (v.isObject() && !child.isUndefined())
                    next.append(child);
                continue;
            }
            const QString inner = step.mid(1, step.size() - 2).trimmed();
            if (inner == QLatin1String("*")) {
                if (v.isArray())
                    for (const QJsonValue e : v.toArray())
                        next.append(e);
                else if (v.isObject())
                    for (const QJsonValue e : v.toObject())
                        next.append(e);
            } else if (inner.startsWith(QLatin1String("?(")) && inner.endsWith(u')')) {
                for (const QJsonValue e : v.toArray())
                    if (filterMatches(e, inner.mid(2, inner.size() - 3)))
                        next.append(e);
            } else if (inner.startsWith(u'\'') || inner.startsWith(u'"')) {
                const QJsonValue child = v.toObject().value(unquote(inner));
                if (v.isObject() && !child.isUndefined())
                    next.append(child);
            } else {
                bool ok = false;
                qsizetype index = inner.toLongLong(&ok);
                const QJsonArray a = v.toArray();
                if (ok && index < 0)
                    index += a.size();
                if (ok && v.isArray() && index >= 0 && index < a.size())
                    next.append(a.at(index));
            }
        }
        current = next;
    }
    return current;
}

} // namespace opbench::apiserver
