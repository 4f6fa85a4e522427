// SPDX-License-Identifier: Apache-2.0
// Watch-stream decoder (engine/client/watchdecoder): the bytes of a watch response, fed in
// chunks whose sizes come from the input's first byte, must decode to exactly the events and
// errors of the same bytes fed at once; every event's object must survive a re-encode.
#include "engine/client/watchdecoder.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

using namespace opbench;

namespace {

struct Decoded
{
    QList<WatchEvent> events;
    QStringList errors;
};

Decoded decodeAll(const QByteArray &stream, int chunk)
{
    WatchDecoder dec;
    Decoded d;
    if (chunk <= 0) {
        d.events += dec.feed(stream);
    } else {
        for (qsizetype at = 0; at < stream.size(); at += chunk)
            d.events += dec.feed(stream.mid(at, chunk));
    }
    FUZZ_CHECK(dec.pendingBytes() >= 0 && dec.pendingBytes() <= stream.size(), QString::number(dec.pendingBytes()));
    d.events += dec.finish();
    FUZZ_CHECK(dec.pendingBytes() == 0, QString::number(dec.pendingBytes()));
    d.errors = dec.takeErrors();
    return d;
}

QString describe(const WatchEvent &e)
{
    return WatchEvent::typeName(e.type) + u' ' + e.resourceVersion + u' ' + QString::fromUtf8(e.object.toJsonBytes())
        + u' ' + e.error.message();
}

} // namespace

OPBENCH_FUZZ_TARGET(watch)(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const int chunk = 1 + data[0] % 17; // 1…17 byte chunks
    const QByteArray stream = fuzz::bytes(data + 1, size - 1);

    const Decoded whole = decodeAll(stream, 0);
    const Decoded split = decodeAll(stream, chunk);
    FUZZ_CHECK(whole.events.size() == split.events.size(),
        QStringLiteral("%1 events at once, %2 in %3-byte chunks")
            .arg(whole.events.size())
            .arg(split.events.size())
            .arg(chunk));
    FUZZ_CHECK(whole.errors == split.errors, whole.errors.join(u'\n') + u'|' + split.errors.join(u'\n'));
    for (qsizetype i = 0; i < whole.events.size(); ++i) {
        const WatchEvent &a = whole.events[i];
        const WatchEvent &b = split.events[i];
        FUZZ_CHECK(describe(a) == describe(b), describe(a) + u'|' + describe(b));
        if (a.type == WatchEvent::Type::Error)
            continue;
        FUZZ_CHECK(!a.object.isNull(), describe(a));
        FUZZ_CHECK(a.resourceVersion == a.object.resourceVersion(), describe(a));
        // The decoded object re-encodes to JSON that decodes to the same object.
        const QByteArray text = a.object.toJsonBytes();
        const Expected<Object> again = Object::parse(text);
        FUZZ_CHECK(again.ok(), QString::fromUtf8(text));
        FUZZ_CHECK(*again == a.object, QString::fromUtf8(text) + u'|' + QString::fromUtf8(again->toJsonBytes()));
        // …and so does the event line the API server would write for it.
        const QByteArray line
            = "{\"type\":\"" + WatchEvent::typeName(a.type).toLatin1() + "\",\"object\":" + text + "}";
        QString err;
        const std::optional<WatchEvent> relined = WatchDecoder::decodeLine(line, &err);
        FUZZ_CHECK(relined.has_value(), err);
        FUZZ_CHECK(relined->object == a.object && relined->type == a.type, QString::fromUtf8(line));
    }
    return 0;
}
