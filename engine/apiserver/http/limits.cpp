// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/http/limits.h"

#include <QJsonArray>

namespace opbench::apiserver {

namespace {

// Adds the compact-JSON size of `v` to `*total`; false once past `stopAbove`.
bool add(const QJsonValue &v, qint64 stopAbove, qint64 *total)
{
    switch (v.type()) {
    case QJsonValue::Object: {
        const QJsonObject o = v.toObject();
        *total += 2 + qMax<qint64>(0, o.size() - 1); // braces, commas
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            *total += it.key().size() + 3; // quotes, colon
            if (*total > stopAbove || !add(it.value(), stopAbove, total))
                return false;
        }
        break;
    }
    case QJsonValue::Array: {
        const QJsonArray a = v.toArray();
        *total += 2 + qMax<qint64>(0, a.size() - 1);
        for (const QJsonValue x : a)
            if (*total > stopAbove || !add(x, stopAbove, total))
                return false;
        break;
    }
    case QJsonValue::String:
        *total += v.toString().size() + 2;
        break;
    case QJsonValue::Double:
        *total += 8; // a typical number; exactness does not matter here
        break;
    case QJsonValue::Bool:
        *total += v.toBool() ? 4 : 5;
        break;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        *total += 4;
        break;
    }
    return *total <= stopAbove;
}

} // namespace

qint64 decodedSize(const QJsonValue &value, qint64 stopAbove)
{
    qint64 total = 0;
    add(value, stopAbove, &total);
    return total;
}

Status decodedTooLarge(const QString &what)
{
    return Status::tooLarge(QStringLiteral("%1 more than %2 bytes (%3 times the request body limit of %4 bytes)")
                                .arg(what)
                                .arg(kMaxDecodedBytes)
                                .arg(kDecodedSizeFactor)
                                .arg(kMaxRequestBodyBytes));
}

Expected<void> checkDecodedSize(const QJsonObject &object, const QString &what)
{
    if (decodedSize(object, kMaxDecodedBytes) > kMaxDecodedBytes)
        return decodedTooLarge(what + QStringLiteral(" decodes to"));
    return {};
}

} // namespace opbench::apiserver
