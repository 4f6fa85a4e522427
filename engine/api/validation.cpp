// SPDX-License-Identifier: Apache-2.0
#include "engine/api/validation.h"

#include <QJsonArray>
#include <QSet>

namespace opbench {

namespace {

const QString kDns1123LabelFmt = QStringLiteral("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
const QString kDns1123SubdomainFmt
    = kDns1123LabelFmt + QStringLiteral("(\\.") + kDns1123LabelFmt + QStringLiteral(")*");
const QString kDns1035LabelFmt = QStringLiteral("[a-z]([-a-z0-9]*[a-z0-9])?");
const QString kQualifiedNameFmt = QStringLiteral("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
const QString kLabelValueFmt = QStringLiteral("(") + kQualifiedNameFmt + QStringLiteral(")?");

const QString kDns1123LabelMsg = QStringLiteral("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                                                "characters or '-', and must start and end with an "
                                                "alphanumeric character");
const QString kDns1123SubdomainMsg = QStringLiteral("a lowercase RFC 1123 subdomain must consist of lower case "
                                                    "alphanumeric characters, '-' or '.', and must start and end "
                                                    "with an alphanumeric character");
const QString kDns1035LabelMsg = QStringLiteral("a DNS-1035 label must consist of lower case alphanumeric characters "
                                                "or '-', start with an alphabetic character, and "
                                                "end with an alphanumeric character");
const QString kQualifiedNameMsg = QStringLiteral(
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
const QString kLabelValueMsg = QStringLiteral("a valid label must be an empty string or consist of alphanumeric "
                                              "characters, '-', '_' or '.', and must start and end "
                                              "with an alphanumeric character");

// Hand-written matchers for the formats above (the expressions stay for the messages, which
// quote them as apimachinery does): label and annotation checks run on every write the server
// takes, and a QRegularExpression match cost more than the rest of metadata validation.
bool isLower(QChar c) { return c >= QLatin1Char('a') && c <= QLatin1Char('z'); }
bool isLowerAlnum(QChar c) { return isLower(c) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')); }
bool isAlnum(QChar c) { return isLowerAlnum(c) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')); }

/// [a-z0-9]([-a-z0-9]*[a-z0-9])? over value[from, to); with firstAlpha, [a-z] first (DNS-1035).
bool matchesLabel(QStringView value, qsizetype from, qsizetype to, bool firstAlpha = false)
{
    if (to <= from || !(firstAlpha ? isLower(value[from]) : isLowerAlnum(value[from])) || !isLowerAlnum(value[to - 1]))
        return false;
    for (qsizetype i = from + 1; i < to - 1; ++i) {
        if (!isLowerAlnum(value[i]) && value[i] != QLatin1Char('-'))
            return false;
    }
    return true;
}

bool matchesDns1123Label(QStringView value) { return matchesLabel(value, 0, value.size()); }
bool matchesDns1035Label(QStringView value) { return matchesLabel(value, 0, value.size(), true); }

bool matchesDns1123Subdomain(QStringView value)
{
    qsizetype from = 0;
    for (;;) {
        const qsizetype dot = value.indexOf(QLatin1Char('.'), from);
        const qsizetype to = dot < 0 ? value.size() : dot;
        if (!matchesLabel(value, from, to))
            return false;
        if (dot < 0)
            return true;
        from = dot + 1;
    }
}

/// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool matchesQualifiedName(QStringView value)
{
    if (value.isEmpty() || !isAlnum(value.front()) || !isAlnum(value.back()))
        return false;
    for (const QChar c : value) {
        if (!isAlnum(c) && c != QLatin1Char('-') && c != QLatin1Char('_') && c != QLatin1Char('.'))
            return false;
    }
    return true;
}

bool matchesLabelValue(QStringView value) { return value.isEmpty() || matchesQualifiedName(value); }

qsizetype byteLength(QStringView s)
{
    for (const QChar c : s) {
        if (c.unicode() >= 0x80)
            return s.toUtf8().size();
    }
    return s.size();
}

QString maxLenError(int n) { return QStringLiteral("must be no more than %1 characters").arg(n); }

QString regexError(const QString &msg, const QString &fmt, const QStringList &examples)
{
    QString out = msg + QStringLiteral(" (e.g. ");
    for (qsizetype i = 0; i < examples.size(); ++i) {
        if (i > 0)
            out += QStringLiteral(" or ");
        out += QLatin1Char('\'') + examples[i] + QStringLiteral("', ");
    }
    return out + QStringLiteral("regex used for validation is '") + fmt + QStringLiteral("')");
}

QStringList checkFormat(const QString &value, int maxLen, bool (*matches)(QStringView), const QString &fmt,
    const QString &msg, const QStringList &examples)
{
    QStringList errs;
    if (byteLength(value) > maxLen)
        errs << maxLenError(maxLen);
    if (!matches(value))
        errs << regexError(msg, fmt, examples);
    return errs;
}

/// True exactly when validateQualifiedName(value) finds nothing, without building its messages.
bool validQualifiedName(const QString &value)
{
    const qsizetype slash = value.indexOf(QLatin1Char('/'));
    if (slash < 0)
        return byteLength(value) <= 63 && matchesQualifiedName(value);
    if (slash == 0 || value.indexOf(QLatin1Char('/'), slash + 1) >= 0)
        return false;
    const QStringView prefix = QStringView(value).left(slash);
    const QStringView name = QStringView(value).mid(slash + 1);
    return byteLength(prefix) <= 253 && matchesDns1123Subdomain(prefix) && byteLength(name) <= 63
        && matchesQualifiedName(name);
}

QString maskTrailingDash(const QString &name)
{
    return name.size() > 1 && name.endsWith(QLatin1Char('-')) ? name.left(name.size() - 2) + QLatin1Char('a') : name;
}

} // namespace

QStringList isDns1123Subdomain(const QString &value)
{
    if (byteLength(value) <= 253 && matchesDns1123Subdomain(value))
        return {}; // the common case: no messages (and their examples) to build
    return checkFormat(value, 253, matchesDns1123Subdomain, kDns1123SubdomainFmt, kDns1123SubdomainMsg,
        {QStringLiteral("example.com")});
}

QStringList isDns1123Label(const QString &value)
{
    if (byteLength(value) <= 63 && matchesDns1123Label(value))
        return {};
    return checkFormat(value, 63, matchesDns1123Label, kDns1123LabelFmt, kDns1123LabelMsg,
        {QStringLiteral("my-name"), QStringLiteral("123-abc")});
}

QStringList isDns1035Label(const QString &value)
{
    if (byteLength(value) <= 63 && matchesDns1035Label(value))
        return {};
    return checkFormat(value, 63, matchesDns1035Label, kDns1035LabelFmt, kDns1035LabelMsg,
        {QStringLiteral("my-name"), QStringLiteral("abc-123")});
}

QStringList validateQualifiedName(const QString &value)
{
    if (validQualifiedName(value))
        return {};
    const QStringList examples{QStringLiteral("MyName"), QStringLiteral("my.name"), QStringLiteral("123-abc")};
    QStringList errs;
    const QStringList parts = value.split(QLatin1Char('/'));
    QString name;
    if (parts.size() == 1) {
        name = parts[0];
    } else if (parts.size() == 2) {
        name = parts[1];
        if (parts[0].isEmpty()) {
            errs << QStringLiteral("prefix part must be non-empty");
        } else {
            for (const QString &m : isDns1123Subdomain(parts[0]))
                errs << QStringLiteral("prefix part ") + m;
        }
    } else {
        return {QStringLiteral("a qualified name ") + regexError(kQualifiedNameMsg, kQualifiedNameFmt, examples)
            + QStringLiteral(" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")};
    }
    if (name.isEmpty())
        errs << QStringLiteral("name part must be non-empty");
    else if (byteLength(name) > 63)
        errs << QStringLiteral("name part ") + maxLenError(63);
    if (!matchesQualifiedName(name))
        errs << QStringLiteral("name part ") + regexError(kQualifiedNameMsg, kQualifiedNameFmt, examples);
    return errs;
}

QStringList validateLabelValue(const QString &value)
{
    if (byteLength(value) <= 63 && matchesLabelValue(value))
        return {};
    return checkFormat(value, 63, matchesLabelValue, kLabelValueFmt, kLabelValueMsg,
        {QStringLiteral("MyValue"), QStringLiteral("my_value"), QStringLiteral("12345")});
}

QList<StatusCause> validateLabels(const QJsonObject &labels, const QString &fieldPath)
{
    QList<StatusCause> causes;
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        for (const QString &m : validateQualifiedName(it.key()))
            causes << fielderror::invalid(fieldPath, it.key(), m);
        if (!it.value().isString()) {
            causes << fielderror::invalidRaw(
                fieldPath, it.value().toVariant().toString(), QStringLiteral("label values must be strings"));
            continue;
        }
        for (const QString &m : validateLabelValue(it.value().toString()))
            causes << fielderror::invalid(fieldPath, it.value().toString(), m);
    }
    return causes;
}

QList<StatusCause> validateAnnotations(const QJsonObject &annotations, const QString &fieldPath)
{
    QList<StatusCause> causes;
    qsizetype total = 0;
    for (auto it = annotations.begin(); it != annotations.end(); ++it) {
        for (const QString &m : validateQualifiedName(it.key().toLower()))
            causes << fielderror::invalid(fieldPath, it.key(), m);
        total += byteLength(it.key()) + byteLength(it.value().toString());
    }
    if (total > kTotalAnnotationSizeLimit)
        causes << fielderror::tooLong(fieldPath, kTotalAnnotationSizeLimit);
    return causes;
}

QStringList validateObjectName(const QString &name, bool isPrefix)
{
    return isDns1123Subdomain(isPrefix ? maskTrailingDash(name) : name);
}

QStringList validateNamespaceName(const QString &name, bool isPrefix)
{
    return isDns1123Label(isPrefix ? maskTrailingDash(name) : name);
}

QStringList validateServiceName(const QString &name, bool isPrefix)
{
    return isDns1035Label(isPrefix ? maskTrailingDash(name) : name);
}

namespace {

QList<StatusCause> validateOwnerReferences(const QJsonArray &refs, const QString &path)
{
    QList<StatusCause> causes;
    QString firstController;
    for (const QJsonValue &v : refs) {
        const QJsonObject r = v.toObject();
        // One pass over the reference's members (rather than a lookup per field).
        QString apiVersion, kind, name;
        bool hasUid = false, controller = false;
        for (auto it = r.constBegin(); it != r.constEnd(); ++it) {
            const QString key = it.key();
            if (key == QLatin1String("apiVersion"))
                apiVersion = it.value().toString();
            else if (key == QLatin1String("kind"))
                kind = it.value().toString();
            else if (key == QLatin1String("name"))
                name = it.value().toString();
            else if (key == QLatin1String("uid"))
                hasUid = !it.value().toString().isEmpty();
            else if (key == QLatin1String("controller"))
                controller = it.value().toBool();
        }
        // the last '/'-separated section (apiVersion.section('/', -1)) is empty
        if (apiVersion.isEmpty() || apiVersion.endsWith(QLatin1Char('/')))
            causes << fielderror::invalid(
                path + QStringLiteral(".apiVersion"), apiVersion, QStringLiteral("version must not be empty"));
        for (const auto &[k, empty] : {std::pair{QStringLiteral("kind"), kind.isEmpty()},
                 std::pair{QStringLiteral("name"), name.isEmpty()}, std::pair{QStringLiteral("uid"), !hasUid}}) {
            if (empty)
                causes << fielderror::invalid(
                    path + QLatin1Char('.') + k, QString(), k + QStringLiteral(" must not be empty"));
        }
        if (controller) {
            const QString current = kind + QLatin1Char('/') + name;
            if (firstController.isEmpty())
                firstController = current;
            else
                causes << StatusCause{QStringLiteral("FieldValueInvalid"),
                    QStringLiteral(
                        "Invalid value: []v1.OwnerReference{…}: Only one reference can have Controller set to "
                        "true. Found \"true\" in references for %1 and %2")
                        .arg(firstController, current),
                    path};
        }
    }
    return causes;
}

QList<StatusCause> validateFinalizers(const QJsonArray &finalizers, const QString &path)
{
    QList<StatusCause> causes;
    QSet<QString> seen;
    for (const QJsonValue &v : finalizers) {
        const QString f = v.toString();
        seen.insert(f);
        for (const QString &m : validateQualifiedName(f))
            causes << fielderror::invalid(path, f, m);
    }
    if (seen.contains(QStringLiteral("orphan")) && seen.contains(QStringLiteral("foregroundDeletion")))
        causes << StatusCause{QStringLiteral("FieldValueInvalid"),
            QStringLiteral("Invalid value: []string{…}: finalizer orphan and foregroundDeletion cannot be both set"),
            path};
    return causes;
}

} // namespace

QList<StatusCause> validateObjectMeta(const QJsonObject &metadata, bool namespaced, NameValidator nameValidator)
{
    if (!nameValidator)
        nameValidator = [](const QString &n, bool p) { return validateObjectName(n, p); };
    QList<StatusCause> causes;
    const QString generateName = metadata.value(QLatin1String("generateName")).toString();
    const QString name = metadata.value(QLatin1String("name")).toString();
    const QString ns = metadata.value(QLatin1String("namespace")).toString();
    if (!generateName.isEmpty())
        for (const QString &m : nameValidator(generateName, true))
            causes << fielderror::invalid(QStringLiteral("metadata.generateName"), generateName, m);
    if (name.isEmpty())
        causes << fielderror::required(
            QStringLiteral("metadata.name"), QStringLiteral("name or generateName is required"));
    else
        for (const QString &m : nameValidator(name, false))
            causes << fielderror::invalid(QStringLiteral("metadata.name"), name, m);
    if (namespaced && ns.isEmpty())
        causes << fielderror::required(QStringLiteral("metadata.namespace"));
    else if (namespaced)
        for (const QString &m : validateNamespaceName(ns))
            causes << fielderror::invalid(QStringLiteral("metadata.namespace"), ns, m);
    else if (!ns.isEmpty())
        causes << fielderror::forbidden(
            QStringLiteral("metadata.namespace"), QStringLiteral("not allowed on this type"));
    const qint64 generation = metadata.value(QLatin1String("generation")).toInteger();
    if (generation < 0)
        causes << fielderror::invalidRaw(QStringLiteral("metadata.generation"), QString::number(generation),
            QStringLiteral("must be greater than or equal to 0"));
    causes << validateLabels(metadata.value(QLatin1String("labels")).toObject());
    causes << validateAnnotations(metadata.value(QLatin1String("annotations")).toObject());
    causes << validateOwnerReferences(
        metadata.value(QLatin1String("ownerReferences")).toArray(), QStringLiteral("metadata.ownerReferences"));
    causes << validateFinalizers(
        metadata.value(QLatin1String("finalizers")).toArray(), QStringLiteral("metadata.finalizers"));
    return causes;
}

namespace fielderror {

QString quote(const QString &s)
{
    QString out;
    out.reserve(s.size() + 2);
    out += QLatin1Char('"');
    for (QChar c : s) {
        switch (c.unicode()) {
        case '"':
            out += QStringLiteral("\\\"");
            break;
        case '\\':
            out += QStringLiteral("\\\\");
            break;
        case '\n':
            out += QStringLiteral("\\n");
            break;
        case '\r':
            out += QStringLiteral("\\r");
            break;
        case '\t':
            out += QStringLiteral("\\t");
            break;
        default:
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    out += QLatin1Char('"');
    return out;
}

StatusCause invalid(const QString &field, const QString &value, const QString &detail)
{
    return invalidRaw(field, quote(value), detail);
}

StatusCause invalidRaw(const QString &field, const QString &printedValue, const QString &detail)
{
    QString msg = QStringLiteral("Invalid value: ") + printedValue;
    if (!detail.isEmpty())
        msg += QStringLiteral(": ") + detail;
    return {QStringLiteral("FieldValueInvalid"), msg, field};
}

StatusCause required(const QString &field, const QString &detail)
{
    return {QStringLiteral("FieldValueRequired"),
        detail.isEmpty() ? QStringLiteral("Required value") : QStringLiteral("Required value: ") + detail, field};
}

StatusCause forbidden(const QString &field, const QString &detail)
{
    return {QStringLiteral("FieldValueForbidden"),
        detail.isEmpty() ? QStringLiteral("Forbidden") : QStringLiteral("Forbidden: ") + detail, field};
}

StatusCause tooLong(const QString &field, qsizetype maxBytes)
{
    return {QStringLiteral("FieldValueTooLong"), QStringLiteral("Too long: must have at most %1 bytes").arg(maxBytes),
        field};
}

StatusCause notSupported(const QString &field, const QString &value, const QStringList &supported)
{
    QStringList quoted;
    for (const QString &s : supported)
        quoted << quote(s);
    QString msg = QStringLiteral("Unsupported value: ") + quote(value);
    if (!quoted.isEmpty())
        msg += QStringLiteral(": supported values: ") + quoted.join(QStringLiteral(", "));
    return {QStringLiteral("FieldValueNotSupported"), msg, field};
}

} // namespace fielderror

} // namespace opbench
