// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/breakpoint.h"

#include "engine/api/status.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace opbench {

namespace {

bool isWrite(const QString &verb) { return verb != QLatin1String("get") && verb != QLatin1String("list"); }

QString scalarText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', 15);
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Object:
    case QJsonValue::Array:
        return QStringLiteral("<%1>").arg(v.isObject() ? QStringLiteral("object") : QStringLiteral("list"));
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

} // namespace

Breakpoint Breakpoint::beforeCall(QString verb, QString kind, QString key)
{
    Breakpoint b(Type::Call, std::move(key));
    b.verb = std::move(verb);
    b.kind = std::move(kind);
    return b;
}

Expected<Breakpoint> Breakpoint::condition(const QString &text, QString key)
{
    static const QRegularExpression re(QStringLiteral(R"(^\s*([A-Za-z0-9_.\[\]-]+)\s*(==|!=)\s*(.*?)\s*$)"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return Status::badRequest(QStringLiteral("breakpoint condition \"%1\": expected \"path == value\" or "
                                                 "\"path != value\", e.g. \"status.phase == Failed\"")
                                      .arg(text));
    Breakpoint b(Type::Condition, std::move(key));
    b.path = m.captured(1);
    b.op = m.captured(2);
    b.value = m.captured(3);
    if (b.value.size() >= 2 && b.value.startsWith(u'"') && b.value.endsWith(u'"'))
        b.value = b.value.mid(1).chopped(1);
    return b;
}

Expected<Breakpoint> Breakpoint::parse(const QString &text)
{
    const QString t = text.simplified();
    const QStringList w = t.split(u' ', Qt::SkipEmptyParts);
    const QString first = w.value(0).toLower();
    if (first == QLatin1String("key") && w.size() == 2)
        return Breakpoint(Type::Key, w.at(1));
    if (first == QLatin1String("kind") && w.size() == 2)
        return Breakpoint(Type::Kind, w.at(1));
    if (t.compare(QLatin1String("error"), Qt::CaseInsensitive) == 0
        || t.compare(QLatin1String("on error"), Qt::CaseInsensitive) == 0)
        return Breakpoint(Type::Error, QString());
    if (first == QLatin1String("before") && w.size() >= 2) {
        int i = 1;
        QString verb = w.at(i++);
        if (verb == QLatin1String("any")) {
            verb.clear();
            if (w.value(i) == QLatin1String("call"))
                ++i;
        }
        QString kind;
        if (i < w.size() && w.at(i) != QLatin1String("of"))
            kind = w.at(i++);
        QString key;
        if (i + 1 < w.size() && w.at(i) == QLatin1String("of")) {
            key = w.at(i + 1);
            i += 2;
        }
        if (i == w.size())
            return beforeCall(verb, kind, key);
    }
    if (t.contains(QLatin1String("==")) || t.contains(QLatin1String("!=")))
        return condition(first == QLatin1String("if") ? t.mid(3) : t);
    return Status::badRequest(QStringLiteral("breakpoint \"%1\": expected \"key NS/NAME\", \"kind KIND\", \"error\", "
                                             "\"before VERB|write|any KIND\" or \"PATH == VALUE\" (or !=)")
                                  .arg(text));
}

QString Breakpoint::typeName(Type t)
{
    switch (t) {
    case Type::Key:
        return QStringLiteral("key");
    case Type::Kind:
        return QStringLiteral("kind");
    case Type::Error:
        return QStringLiteral("error");
    case Type::Call:
        return QStringLiteral("call");
    case Type::Condition:
        return QStringLiteral("condition");
    }
    return {};
}

QString Breakpoint::describe() const
{
    const QString of = key.isEmpty() ? QString() : QStringLiteral(" of %1").arg(key);
    switch (type) {
    case Type::Key:
        return QStringLiteral("key %1").arg(key);
    case Type::Kind:
        return QStringLiteral("kind %1").arg(kind);
    case Type::Error:
        return QStringLiteral("on error");
    case Type::Call:
        return QStringLiteral("before ") + (verb.isEmpty() ? QStringLiteral("any call") : verb)
            + (kind.isEmpty() ? QString() : u' ' + kind) + of;
    case Type::Condition:
        return QStringLiteral("%1 %2 %3").arg(path, op, value) + of;
    }
    return {};
}

QString Breakpoint::valueAt(const QJsonObject &object, const QString &path)
{
    static const QRegularExpression index(QStringLiteral(R"(^([^\[]*)((?:\[\d+\])*)$)"));
    QJsonValue cur(object);
    for (const QString &part : path.split(u'.', Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = index.match(part);
        if (!m.hasMatch())
            return {};
        if (!m.captured(1).isEmpty())
            cur = cur.toObject().value(m.captured(1));
        const QStringList idx = m.captured(2).split(u']', Qt::SkipEmptyParts);
        for (const QString &i : idx)
            cur = cur.toArray().at(i.mid(1).toInt());
    }
    return scalarText(cur);
}

bool Breakpoint::stopsBefore(const QueueKey &k, const QString &forKind, const QJsonObject &object) const
{
    if (!enabled)
        return false;
    switch (type) {
    case Type::Key:
        return k.toString() == key;
    case Type::Kind:
        return !forKind.isEmpty() && forKind == kind;
    case Type::Condition: {
        if ((!key.isEmpty() && k.toString() != key) || object.isEmpty())
            return false;
        const bool equal = valueAt(object, path) == value;
        return op == QLatin1String("!=") ? !equal : equal;
    }
    case Type::Error:
    case Type::Call:
        break;
    }
    return false;
}

bool Breakpoint::stopsCall(const QueueKey &k, const PendingCall &call) const
{
    if (!enabled || type != Type::Call || (!key.isEmpty() && k.toString() != key))
        return false;
    if (!kind.isEmpty() && call.gvk.kind != kind)
        return false;
    if (verb.isEmpty())
        return true;
    return verb == QLatin1String("write") ? isWrite(call.verb) : call.verb == verb;
}

} // namespace opbench
