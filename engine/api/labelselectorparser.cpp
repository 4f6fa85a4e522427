// SPDX-License-Identifier: Apache-2.0
#include "engine/api/labelselectorparser.h"

#include "engine/api/validation.h"

#include <algorithm>

namespace opbench::labelselectorparser {

namespace {

using Op = LabelRequirement::Op;

enum class Tok {
    Error,
    End,
    ClosePar,
    Comma,
    Not,
    DoubleEquals,
    Equals,
    Greater,
    Identifier,
    In,
    Less,
    NotEquals,
    NotIn,
    OpenPar
};

struct Item
{
    Tok tok;
    QString lit;
};

bool isSpace(QChar c) { return c == u' ' || c == u'\t' || c == u'\r' || c == u'\n'; }
bool isSpecial(QChar c)
{
    return c == u'=' || c == u'!' || c == u'(' || c == u')' || c == u',' || c == u'>' || c == u'<';
}

std::optional<Tok> symbolToken(const QString &s)
{
    static const QHash<QString, Tok> map{{QStringLiteral(")"), Tok::ClosePar}, {QStringLiteral(","), Tok::Comma},
        {QStringLiteral("!"), Tok::Not}, {QStringLiteral("=="), Tok::DoubleEquals}, {QStringLiteral("="), Tok::Equals},
        {QStringLiteral(">"), Tok::Greater}, {QStringLiteral("in"), Tok::In}, {QStringLiteral("<"), Tok::Less},
        {QStringLiteral("!="), Tok::NotEquals}, {QStringLiteral("notin"), Tok::NotIn},
        {QStringLiteral("("), Tok::OpenPar}};
    auto it = map.find(s);
    return it == map.end() ? std::nullopt : std::optional<Tok>(*it);
}

// Splits the selector into tokens the way apimachinery's lexer does.
QList<Item> lex(const QString &s)
{
    QList<Item> items;
    qsizetype pos = 0;
    while (true) {
        while (pos < s.size() && isSpace(s[pos]))
            ++pos;
        if (pos >= s.size()) {
            items.append({Tok::End, QString()});
            return items;
        }
        if (isSpecial(s[pos])) {
            // Longest run of special characters that still forms an operator.
            QString buf;
            Item last{Tok::Error, QString()};
            while (pos < s.size() && isSpecial(s[pos])) {
                buf += s[pos];
                if (auto t = symbolToken(buf)) {
                    last = {*t, buf};
                    ++pos;
                } else {
                    break;
                }
            }
            items.append(last);
            continue;
        }
        const qsizetype start = pos;
        while (pos < s.size() && !isSpecial(s[pos]) && !isSpace(s[pos]))
            ++pos;
        const QString word = s.mid(start, pos - start);
        auto t = symbolToken(word);
        items.append({t ? *t : Tok::Identifier, word});
    }
}

QString joinedOperators() { return QStringLiteral("in, notin, =, ==, !=, gt, lt"); }

// Validates a requirement as NewRequirement does; returns the field-error text or empty.

// A recursive-descent parser over the token list; error() holds the message once failed.
class Parser
{
public:
    explicit Parser(QList<Item> items)
        : m_items(std::move(items))
    { }

    std::optional<QList<LabelRequirement>> parse();
    QString error;

private:
    Item peek(bool values) const { return adjust(m_items[m_pos], values); }
    Item next(bool values) { return adjust(m_items[m_pos++], values); }
    static Item adjust(Item it, bool values)
    {
        if (values && (it.tok == Tok::In || it.tok == Tok::NotIn))
            it.tok = Tok::Identifier;
        return it;
    }
    std::optional<LabelRequirement> requirement();
    bool operatorAndValues(LabelRequirement &r);
    std::optional<QStringList> setValues();
    std::optional<QStringList> identifierList();
    std::optional<QStringList> exactValue();
    bool fail(const QString &msg)
    {
        error = msg;
        return false;
    }

    QList<Item> m_items;
    qsizetype m_pos = 0;
};

std::optional<QList<LabelRequirement>> Parser::parse()
{
    QList<LabelRequirement> reqs;
    while (true) {
        const Item it = peek(true);
        if (it.tok == Tok::End)
            return reqs;
        if (it.tok != Tok::Identifier && it.tok != Tok::Not) {
            fail(QStringLiteral("found '%1', expected: !, identifier, or 'end of string'").arg(it.lit));
            return std::nullopt;
        }
        auto r = requirement();
        if (!r) {
            error = QStringLiteral("unable to parse requirement: ") + error;
            return std::nullopt;
        }
        reqs.append(*r);
        const Item sep = next(true);
        if (sep.tok == Tok::End)
            return reqs;
        if (sep.tok != Tok::Comma) {
            fail(QStringLiteral("found '%1', expected: ',' or 'end of string'").arg(sep.lit));
            return std::nullopt;
        }
        const Item after = peek(true);
        if (after.tok != Tok::Identifier && after.tok != Tok::Not) {
            fail(QStringLiteral("found '%1', expected: identifier after ','").arg(after.lit));
            return std::nullopt;
        }
    }
}

std::optional<LabelRequirement> Parser::requirement()
{
    LabelRequirement r;
    Item it = next(true);
    bool negated = false;
    if (it.tok == Tok::Not) {
        negated = true;
        it = next(true);
    }
    if (it.tok != Tok::Identifier) {
        fail(QStringLiteral("found '%1', expected: identifier").arg(it.lit));
        return std::nullopt;
    }
    r.key = it.lit;
    const QStringList keyErrs = validateQualifiedName(r.key);
    if (!keyErrs.isEmpty()) {
        fail(QStringLiteral("<nil>: Invalid value: %1: %2")
                 .arg(fielderror::quote(r.key), keyErrs.join(QStringLiteral("; "))));
        return std::nullopt;
    }
    const Tok following = peek(true).tok;
    if (negated || following == Tok::End || following == Tok::Comma) {
        // "!k=v" ends the requirement at k; the caller then rejects the '='.
        r.op = negated ? Op::DoesNotExist : Op::Exists;
        return r;
    }
    if (!operatorAndValues(r))
        return std::nullopt;
    const QString err = requirementError(r);
    if (!err.isEmpty()) {
        fail(err);
        return std::nullopt;
    }
    return r;
}

bool Parser::operatorAndValues(LabelRequirement &r)
{
    const Item op = next(false);
    std::optional<QStringList> values;
    switch (op.tok) {
    case Tok::In:
        r.op = Op::In;
        values = setValues();
        break;
    case Tok::NotIn:
        r.op = Op::NotIn;
        values = setValues();
        break;
    case Tok::Equals:
        r.op = Op::Equals;
        values = exactValue();
        break;
    case Tok::DoubleEquals:
        r.op = Op::DoubleEquals;
        values = exactValue();
        break;
    case Tok::NotEquals:
        r.op = Op::NotEquals;
        values = exactValue();
        break;
    case Tok::Greater:
        r.op = Op::GreaterThan;
        values = exactValue();
        break;
    case Tok::Less:
        r.op = Op::LessThan;
        values = exactValue();
        break;
    default:
        return fail(QStringLiteral("found '%1', expected: %2").arg(op.lit, joinedOperators()));
    }
    if (!values)
        return false;
    r.values = sortedSet(*values);
    return true;
}

std::optional<QStringList> Parser::setValues()
{
    const Item open = next(true);
    if (open.tok != Tok::OpenPar) {
        fail(QStringLiteral("found '%1' expected: '('").arg(open.lit));
        return std::nullopt;
    }
    const Item it = peek(true);
    if (it.tok == Tok::ClosePar) {
        next(true);
        return QStringList{QString()};
    }
    if (it.tok != Tok::Identifier && it.tok != Tok::Comma) {
        fail(QStringLiteral("found '%1', expected: ',', ')' or identifier").arg(it.lit));
        return std::nullopt;
    }
    auto list = identifierList();
    if (!list)
        return std::nullopt;
    const Item close = next(true);
    if (close.tok != Tok::ClosePar) {
        fail(QStringLiteral("found '%1', expected: ')'").arg(close.lit));
        return std::nullopt;
    }
    return list;
}

std::optional<QStringList> Parser::identifierList()
{
    QStringList out;
    while (true) {
        const Item it = next(true);
        if (it.tok == Tok::Identifier) {
            out << it.lit;
            const Item after = peek(true);
            if (after.tok == Tok::Comma)
                continue;
            if (after.tok == Tok::ClosePar)
                return out;
            fail(QStringLiteral("found '%1', expected: ',' or ')'").arg(after.lit));
            return std::nullopt;
        }
        if (it.tok != Tok::Comma) {
            fail(QStringLiteral("found '%1', expected: ',', or identifier").arg(it.lit));
            return std::nullopt;
        }
        // Empty values around commas: "(,a)", "(a,)", "(a,,b)".
        if (out.isEmpty())
            out << QString();
        const Tok after = peek(true).tok;
        if (after == Tok::ClosePar) {
            out << QString();
            return out;
        }
        if (after == Tok::Comma) {
            next(true);
            out << QString();
        }
    }
}

std::optional<QStringList> Parser::exactValue()
{
    const Tok t = peek(true).tok;
    if (t == Tok::End || t == Tok::Comma)
        return QStringList{QString()};
    const Item it = next(true);
    if (it.tok == Tok::Identifier)
        return QStringList{it.lit};
    fail(QStringLiteral("found '%1', expected: identifier").arg(it.lit));
    return std::nullopt;
}

} // namespace

namespace {

QString valuesText(const QStringList &values)
{
    QStringList quoted;
    for (const QString &v : values)
        quoted << fielderror::quote(v);
    return QStringLiteral("[]string{%1}").arg(quoted.join(QStringLiteral(", ")));
}

// The operator's rule on the number (and, for gt/lt, the form) of values.
QStringList operatorErrors(const LabelRequirement &r)
{
    const auto invalid = [&r](const char *why) {
        return QStringLiteral("values: Invalid value: %1: %2").arg(valuesText(r.values), QLatin1String(why));
    };
    QStringList errs;
    switch (r.op) {
    case Op::In:
    case Op::NotIn:
        if (r.values.isEmpty())
            errs << invalid("for 'in', 'notin' operators, values set can't be empty");
        break;
    case Op::Equals:
    case Op::DoubleEquals:
    case Op::NotEquals:
        if (r.values.size() != 1)
            errs << invalid("exact-match compatibility requires one single value");
        break;
    case Op::Exists:
    case Op::DoesNotExist:
        if (!r.values.isEmpty())
            errs << invalid("values set must be empty for exists and does not exist");
        break;
    case Op::GreaterThan:
    case Op::LessThan:
        if (r.values.size() != 1)
            errs << invalid("for 'Gt', 'Lt' operators, exactly one value is required");
        for (qsizetype i = 0; i < r.values.size(); ++i) {
            bool ok = false;
            r.values[i].toLongLong(&ok);
            if (!ok)
                errs << QStringLiteral(
                    "values[%1]: Invalid value: %2: for 'Gt', 'Lt' operators, the value must be an integer")
                            .arg(i)
                            .arg(fielderror::quote(r.values[i]));
        }
        break;
    }
    return errs;
}

} // namespace

QString requirementError(const LabelRequirement &r)
{
    QStringList errs;
    const QStringList keyErrs = validateQualifiedName(r.key);
    if (!keyErrs.isEmpty())
        errs << QStringLiteral("key: Invalid value: %1: %2")
                    .arg(fielderror::quote(r.key), keyErrs.join(QStringLiteral("; ")));
    errs << operatorErrors(r);
    for (qsizetype i = 0; i < r.values.size(); ++i) {
        const QStringList ve = validateLabelValue(r.values[i]);
        if (!ve.isEmpty())
            errs << QStringLiteral("values[%1][%2]: Invalid value: %3: %4")
                        .arg(i)
                        .arg(r.key, fielderror::quote(r.values[i]), ve.join(QStringLiteral("; ")));
    }
    if (errs.isEmpty())
        return {};
    return errs.size() == 1 ? errs.first() : QLatin1Char('[') + errs.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QStringList sortedSet(QStringList values)
{
    values.sort();
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

std::optional<QList<LabelRequirement>> parse(const QString &selector, QString *error)
{
    Parser p(lex(selector));
    auto reqs = p.parse();
    if (!reqs && error)
        *error = p.error;
    return reqs;
}

} // namespace opbench::labelselectorparser
