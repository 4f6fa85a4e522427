// SPDX-License-Identifier: Apache-2.0
// The protobuf reader and decoder (engine/apiserver/protobufreader, protobufdecode): the input is
// a request body (`k8s\0` + runtime.Unknown) and, in parallel, a bare message decoded with each
// top-level table. Invariants: the reader stays inside its buffer (every length-delimited view
// lies within the input) and stops for good after an error; a decoded body carries the
// envelope's apiVersion and kind; a decode error is a 400 or a 415 with a message.
#include "engine/apiserver/schema/protobufdecode.h"
#include "engine/apiserver/schema/protobufreader.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QJsonDocument>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

void walk(QByteArrayView bytes, int depth)
{
    ProtobufReader r(bytes);
    ProtobufReader::Field f;
    int fields = 0;
    while (r.next(&f)) {
        ++fields;
        FUZZ_CHECK(r.error().isEmpty(), r.error());
        FUZZ_CHECK(f.wireType == ProtobufReader::Varint || f.wireType == ProtobufReader::Fixed64
                || f.wireType == ProtobufReader::LengthDelimited || f.wireType == ProtobufReader::Fixed32,
            QString::number(f.wireType));
        if (f.wireType == ProtobufReader::LengthDelimited) {
            FUZZ_CHECK(f.bytes.data() >= bytes.data() && f.bytes.data() + f.bytes.size() <= bytes.data() + bytes.size(),
                QStringLiteral("field %1 lies outside its message").arg(f.number));
            if (depth < 8)
                walk(f.bytes, depth + 1);
        }
    }
    FUZZ_CHECK(!r.error().isEmpty() || r.atEnd(), QStringLiteral("stopped before the end without an error"));
    if (!r.error().isEmpty())
        FUZZ_CHECK(!r.next(&f), QStringLiteral("read on after an error: %1").arg(r.error()));
    FUZZ_CHECK(fields <= bytes.size(), QString::number(fields));
}

void checkDecoded(const Expected<QJsonObject> &decoded)
{
    if (!decoded) {
        const int code = decoded.error().code();
        FUZZ_CHECK((code == 400 || code == 415) && !decoded.error().message().isEmpty(),
            QString::number(code) + u' ' + decoded.error().message());
        return;
    }
    // The result is plain JSON (what the handlers then validate and store).
    const QByteArray json = QJsonDocument(*decoded).toJson(QJsonDocument::Compact);
    FUZZ_CHECK(QJsonDocument::fromJson(json).object() == *decoded, QString::fromUtf8(json));
}

} // namespace

OPBENCH_FUZZ_TARGET(protobuf)(const std::uint8_t *data, std::size_t size)
{
    const QByteArray body = fuzz::bytes(data, size);
    walk(body, 0);

    const Expected<QJsonObject> decoded = decodeProtobufBody(body);
    checkDecoded(decoded);
    if (decoded) {
        FUZZ_CHECK(!decoded->value(QLatin1String("apiVersion")).toString().isEmpty()
                && !decoded->value(QLatin1String("kind")).toString().isEmpty(),
            QString::fromUtf8(QJsonDocument(*decoded).toJson(QJsonDocument::Compact)));
        FUZZ_CHECK(protobufMessageFor(decoded->value(QLatin1String("apiVersion")).toString(),
                       decoded->value(QLatin1String("kind")).toString())
                != nullptr,
            decoded->value(QLatin1String("kind")).toString());
    }

    // The bytes as one bare message of each kind (the input without magic and envelope).
    static const char *const kinds[][2]
        = {{"v1", "ConfigMap"}, {"v1", "Secret"}, {"v1", "Namespace"}, {"v1", "Pod"}, {"apps/v1", "Deployment"}};
    const int which = size ? data[0] % 5 : 0;
    if (const ProtobufMessage *m = protobufMessageFor(QLatin1String(kinds[which][0]), QLatin1String(kinds[which][1])))
        checkDecoded(decodeProtobufMessage(QByteArrayView(body).sliced(size ? 1 : 0), *m));
    return 0;
}
