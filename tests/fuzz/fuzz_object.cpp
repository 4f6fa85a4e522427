// SPDX-License-Identifier: Apache-2.0
// The JSON codec of Object (engine/api/object + objectencoding + jsonwriter): Object::fromJson
// holds every JSON object Qt reads; any JSON text that Object::parse accepts must re-encode to
// JSON that parses back to the same object; the packed form built from a QJsonObject
// (Object::fromJson, the path of every edit) must hold the same document as the one built from
// text; nested reads (value()) agree with json().
#include "engine/api/object.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QJsonDocument>

using namespace opbench;

OPBENCH_FUZZ_TARGET(object)(const std::uint8_t *data, std::size_t size)
{
    const QByteArray text = fuzz::bytes(data, size);
    const Expected<Object> parsed = Object::parse(text);
    if (!parsed) {
        FUZZ_CHECK(!parsed.error().message().isEmpty(), QString::fromUtf8(text));
        // Qt's parser is more lenient (raw control characters, "1.", unknown escapes), but
        // whatever it reads, Object::fromJson must hold (it goes through Qt's strict output).
        QJsonParseError qtErr{};
        const QJsonDocument qt = QJsonDocument::fromJson(text, &qtErr);
        if (qtErr.error == QJsonParseError::NoError && qt.isObject()) {
            // (Unpaired surrogates become U+FFFD, as Go reads them: compare from there on.)
            const Object viaQt = Object::fromJson(qt.object());
            FUZZ_CHECK(!viaQt.isNull() && Object::fromJson(viaQt.json()) == viaQt,
                QString::fromUtf8(text) + u'|' + parsed.error().message() + u'|'
                    + QString::fromUtf8(viaQt.toJsonBytes()));
        }
        return 0;
    }
    const Object &o = *parsed;
    const QByteArray encoded = o.toJsonBytes();
    QByteArray appended = "[";
    o.appendJsonTo(appended);
    FUZZ_CHECK(appended.mid(1) == encoded, QString::fromUtf8(encoded));

    const Expected<Object> again = Object::parse(encoded);
    FUZZ_CHECK(again.ok(), QString::fromUtf8(encoded) + u' ' + again.error().message());
    FUZZ_CHECK(*again == o, QString::fromUtf8(encoded) + u'|' + QString::fromUtf8(again->toJsonBytes()));
    FUZZ_CHECK(again->toJsonBytes() == encoded, QString::fromUtf8(encoded));

    // What Qt reads from the encoded text is a JSON object, and packing it again keeps it.
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(encoded, &err);
    FUZZ_CHECK(err.error == QJsonParseError::NoError && doc.isObject(),
        QString::fromUtf8(encoded) + u' ' + err.errorString() + u' ' + QString::number(err.offset));
    const QJsonObject json = o.json();
    FUZZ_CHECK(json == doc.object(), QString::fromUtf8(encoded));
    const Object rebuilt = Object::fromJson(json);
    FUZZ_CHECK(rebuilt.json() == json, QString::fromUtf8(encoded) + u'|' + QString::fromUtf8(rebuilt.toJsonBytes()));
    FUZZ_CHECK(rebuilt.name() == o.name() && rebuilt.namespaceName() == o.namespaceName() && rebuilt.uid() == o.uid()
            && rebuilt.resourceVersion() == o.resourceVersion() && rebuilt.generation() == o.generation()
            && rebuilt.labels() == o.labels() && rebuilt.annotations() == o.annotations()
            && rebuilt.ownerReferences() == o.ownerReferences() && rebuilt.finalizers() == o.finalizers()
            && rebuilt.apiVersion() == o.apiVersion() && rebuilt.kind() == o.kind()
            && rebuilt.creationTimestamp() == o.creationTimestamp()
            && rebuilt.deletionTimestamp() == o.deletionTimestamp(),
        QString::fromUtf8(encoded) + u'|' + QString::fromUtf8(rebuilt.toJsonBytes()));

    // Nested reads agree with the document.
    FUZZ_CHECK(o.value({QLatin1String("spec")}) == json.value(QLatin1String("spec")), QString::fromUtf8(encoded));
    FUZZ_CHECK(o.value({QLatin1String("spec"), QLatin1String("replicas")})
            == json.value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")),
        QString::fromUtf8(encoded));
    (void)o.controllerReference();
    (void)o.memoryFootprint();
    return 0;
}
