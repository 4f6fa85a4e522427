// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/jsonpatch.h"

#include "engine/apiserver/http/limits.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

enum class Edit { Add, Remove, Replace };

// Parses an array index token: digits without a leading zero. -1 when invalid.
qsizetype arrayIndex(const QString &tok)
{
    if (tok.isEmpty() || (tok.size() > 1 && tok.front() == u'0'))
        return -1;
    bool ok = false;
    const qsizetype i = tok.toLongLong(&ok);
    return ok && i >= 0 ? i : -1;
}

QString editArray(QJsonValue &node, const QStringList &tokens, int i, Edit edit, const QJsonValue &value);

// Applies one edit at tokens[i..] below `node`. Returns an empty string or why it failed.
QString editAt(QJsonValue &node, const QStringList &tokens, int i, Edit edit, const QJsonValue &value)
{
    if (node.isArray())
        return editArray(node, tokens, i, edit, value);
    if (!node.isObject())
        return QStringLiteral("cannot address a key below a scalar value");
    QJsonObject obj = node.toObject();
    const QString &tok = tokens.at(i);
    if (i == tokens.size() - 1) {
        if (edit != Edit::Add && !obj.contains(tok))
            return QStringLiteral("the document has no such member");
        if (edit == Edit::Remove)
            obj.remove(tok);
        else
            obj.insert(tok, value);
    } else {
        const auto it = obj.constFind(tok);
        if (it == obj.constEnd())
            return QStringLiteral("the document is missing the path");
        QJsonValue child = it.value();
        const QString err = editAt(child, tokens, i + 1, edit, value);
        if (!err.isEmpty())
            return err;
        obj.insert(tok, child);
    }
    node = obj;
    return {};
}

QString editArray(QJsonValue &node, const QStringList &tokens, int i, Edit edit, const QJsonValue &value)
{
    QJsonArray arr = node.toArray();
    const QString &tok = tokens.at(i);
    const bool last = i == tokens.size() - 1;
    const qsizetype index = (tok == u'-' && last && edit == Edit::Add) ? arr.size() : arrayIndex(tok);
    if (index < 0)
        return QStringLiteral("\"%1\" is not a valid array index").arg(tok);
    const qsizetype limit = (last && edit == Edit::Add) ? arr.size() : arr.size() - 1;
    if (index > limit)
        return QStringLiteral("array index %1 is out of bounds (size %2)").arg(index).arg(arr.size());
    if (last) {
        if (edit == Edit::Add)
            arr.insert(index, value);
        else if (edit == Edit::Remove)
            arr.removeAt(index);
        else
            arr.replace(index, value);
    } else {
        QJsonValue child = arr.at(index);
        const QString err = editAt(child, tokens, i + 1, edit, value);
        if (!err.isEmpty())
            return err;
        arr.replace(index, child);
    }
    node = arr;
    return {};
}

std::optional<QJsonValue> valueAt(const QJsonValue &root, const QStringList &tokens)
{
    QJsonValue cur = root;
    for (const QString &tok : tokens) {
        if (cur.isObject()) {
            const QJsonObject o = cur.toObject();
            const auto it = o.constFind(tok);
            if (it == o.constEnd())
                return std::nullopt;
            cur = it.value();
        } else if (cur.isArray()) {
            const QJsonArray a = cur.toArray();
            const qsizetype idx = arrayIndex(tok);
            if (idx < 0 || idx >= a.size())
                return std::nullopt;
            cur = a.at(idx);
        } else {
            return std::nullopt;
        }
    }
    return cur;
}

struct Op
{
    QString op;
    QString path;
    QStringList pathTokens;
    QStringList fromTokens;
    QString from;
    QJsonValue value;
};

// Decodes operation `index`; a malformed one yields a 400 Status.
Expected<Op> decodeOp(const QJsonValue &v, qsizetype index)
{
    const auto bad = [index](const QString &why) {
        return Status::badRequest(QStringLiteral("invalid JSON patch operation %1: %2").arg(index).arg(why));
    };
    if (!v.isObject())
        return bad(QStringLiteral("an operation must be a JSON object"));
    const QJsonObject o = v.toObject();
    Op op;
    op.op = o.value(QLatin1String("op")).toString();
    static const QStringList known{QStringLiteral("add"), QStringLiteral("remove"), QStringLiteral("replace"),
        QStringLiteral("move"), QStringLiteral("copy"), QStringLiteral("test")};
    if (!known.contains(op.op))
        return bad(QStringLiteral("unknown op \"%1\"").arg(op.op));
    if (!o.value(QLatin1String("path")).isString())
        return bad(QStringLiteral("op \"%1\" is missing a string \"path\"").arg(op.op));
    op.path = o.value(QLatin1String("path")).toString();
    auto tokens = parseJsonPointer(op.path);
    if (!tokens)
        return bad(QStringLiteral("path \"%1\" is not a JSON pointer (must start with '/')").arg(op.path));
    op.pathTokens = *tokens;
    const bool needsValue
        = op.op == QLatin1String("add") || op.op == QLatin1String("replace") || op.op == QLatin1String("test");
    if (needsValue && !o.contains(QLatin1String("value")))
        return bad(QStringLiteral("op \"%1\" is missing \"value\"").arg(op.op));
    op.value = o.value(QLatin1String("value"));
    if (op.op == QLatin1String("move") || op.op == QLatin1String("copy")) {
        op.from = o.value(QLatin1String("from")).toString();
        auto from = parseJsonPointer(op.from);
        if (!o.value(QLatin1String("from")).isString() || !from)
            return bad(QStringLiteral("op \"%1\" needs a JSON pointer in \"from\"").arg(op.op));
        op.fromTokens = *from;
    }
    return op;
}

// Applies one decoded operation to `doc`; returns why it does not apply (empty on success).
QString applyOp(QJsonValue &doc, const Op &op)
{
    const auto edit = [&doc](const QStringList &tokens, Edit e, const QJsonValue &value) -> QString {
        if (tokens.isEmpty()) {
            if (e == Edit::Remove)
                return QStringLiteral("the whole document cannot be removed");
            doc = value;
            return {};
        }
        return editAt(doc, tokens, 0, e, value);
    };
    if (op.op == QLatin1String("add"))
        return edit(op.pathTokens, Edit::Add, op.value);
    if (op.op == QLatin1String("remove"))
        return edit(op.pathTokens, Edit::Remove, {});
    if (op.op == QLatin1String("replace"))
        return edit(op.pathTokens, Edit::Replace, op.value);
    if (op.op == QLatin1String("test")) {
        const auto cur = valueAt(doc, op.pathTokens);
        if (!cur)
            return QStringLiteral("the document is missing the path");
        return *cur == op.value ? QString() : QStringLiteral("test failed: the value differs");
    }
    const auto src = valueAt(doc, op.fromTokens);
    if (!src)
        return QStringLiteral("the document is missing the \"from\" path \"%1\"").arg(op.from);
    if (op.op == QLatin1String("move")) {
        if (op.pathTokens.size() > op.fromTokens.size() && op.pathTokens.mid(0, op.fromTokens.size()) == op.fromTokens)
            return QStringLiteral("a value cannot be moved into one of its children");
        const QString err = edit(op.fromTokens, Edit::Remove, {});
        if (!err.isEmpty())
            return err;
    }
    return edit(op.pathTokens, Edit::Add, *src);
}

} // namespace

std::optional<QStringList> parseJsonPointer(const QString &pointer)
{
    if (pointer.isEmpty())
        return QStringList{};
    if (pointer.front() != u'/')
        return std::nullopt;
    QStringList tokens = pointer.mid(1).split(u'/');
    for (QString &t : tokens)
        t = t.replace(QLatin1String("~1"), QLatin1String("/")).replace(QLatin1String("~0"), QLatin1String("~"));
    return tokens;
}

Expected<QJsonObject> applyJsonPatch(const QJsonObject &document, const QJsonValue &patch)
{
    if (!patch.isArray())
        return Status::badRequest(QStringLiteral("a JSON patch must be a JSON array of operations"));
    const QJsonArray ops = patch.toArray();
    if (ops.size() > kMaxJsonPatchOperations)
        return Status::tooLarge(QStringLiteral("The allowed maximum operations in a JSON patch is %1, got: %2")
                                    .arg(kMaxJsonPatchOperations)
                                    .arg(ops.size()));
    QList<Op> decoded;
    decoded.reserve(ops.size());
    for (qsizetype i = 0; i < ops.size(); ++i) {
        Expected<Op> op = decodeOp(ops.at(i), i);
        if (!op)
            return op.error();
        decoded.append(std::move(op).value());
    }
    QJsonValue doc = document;
    // `copy` is the one operation that grows the document by more than the patch's own bytes
    // (each can double it): what the copies add up to is bounded like a decoded body (limits.h).
    qint64 copied = 0;
    for (qsizetype i = 0; i < decoded.size(); ++i) {
        const Op &op = decoded.at(i);
        if (op.op == QLatin1String("copy")) {
            if (const auto src = valueAt(doc, op.fromTokens)) {
                copied += decodedSize(*src, kMaxDecodedBytes - copied);
                if (copied > kMaxDecodedBytes)
                    return decodedTooLarge(
                        QStringLiteral("the values copied by JSON patch operations 0 to %1 add up to").arg(i));
            }
        }
        const QString err = applyOp(doc, op);
        if (!err.isEmpty())
            return Status(422, QString::fromLatin1(StatusReason::Invalid),
                QStringLiteral("JSON patch operation %1 (%2 \"%3\") does not apply: %4")
                    .arg(i)
                    .arg(op.op, op.path, err));
    }
    if (!doc.isObject())
        return Status(422, QString::fromLatin1(StatusReason::Invalid),
            QStringLiteral("the JSON patch replaced the object with a value that is not a JSON object"));
    return doc.toObject();
}

QJsonValue mergePatchValue(const QJsonValue &target, const QJsonValue &patch)
{
    if (!patch.isObject())
        return patch;
    QJsonObject result = target.isObject() ? target.toObject() : QJsonObject();
    const QJsonObject p = patch.toObject();
    for (auto it = p.constBegin(); it != p.constEnd(); ++it) {
        if (it.value().isNull())
            result.remove(it.key());
        else
            result.insert(it.key(), mergePatchValue(result.value(it.key()), it.value()));
    }
    return result;
}

Expected<QJsonObject> applyMergePatch(const QJsonObject &document, const QJsonValue &patch)
{
    if (!patch.isObject())
        return Status::badRequest(QStringLiteral("a JSON merge patch for an object must be a JSON object"));
    return mergePatchValue(document, patch).toObject();
}

} // namespace opbench::apiserver
