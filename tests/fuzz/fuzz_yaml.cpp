// SPDX-License-Identifier: Apache-2.0
// The YAML codec (engine/api/yamlcodec): the first byte picks the direction.
//  - even: the input is YAML; every document yamlToJson() returns must survive
//    jsonToYaml() → yamlToJson() unchanged (types included: strings that look like numbers or
//    bools must come back as strings), one by one and as a multi-document stream.
//  - odd: the input is JSON (what the workbench's editor converts to YAML); any object must
//    survive jsonToYaml() → yamlToJson() unchanged.
#include "engine/api/yamlcodec.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QJsonDocument>

using namespace opbench;

namespace {

void roundTrip(const QJsonObject &object)
{
    const QByteArray yaml = jsonToYaml(object);
    const Expected<QList<QJsonObject>> back = yamlToJson(yaml);
    const QString json = QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
    FUZZ_CHECK(back.ok(), json + u'\n' + QString::fromUtf8(yaml) + u'\n' + back.error().message());
    FUZZ_CHECK(back->size() == (object.isEmpty() ? 0 : 1) || (back->size() == 1 && back->first().isEmpty()),
        json + u'\n' + QString::fromUtf8(yaml));
    if (!object.isEmpty())
        FUZZ_CHECK(back->first() == object,
            json + u'\n' + QString::fromUtf8(yaml) + u'\n'
                + QString::fromUtf8(QJsonDocument(back->first()).toJson(QJsonDocument::Compact)));
}

} // namespace

OPBENCH_FUZZ_TARGET(yaml)(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray input = fuzz::bytes(data + 1, size - 1);
    if (data[0] & 1) {
        const QJsonDocument doc = QJsonDocument::fromJson(input);
        if (doc.isObject())
            roundTrip(doc.object());
        return 0;
    }
    const Expected<QList<QJsonObject>> docs = yamlToJson(input);
    if (!docs) {
        FUZZ_CHECK(!docs.error().message().isEmpty(), QString::fromUtf8(input));
        return 0;
    }
    for (const QJsonObject &o : *docs)
        roundTrip(o);
    if (docs->size() > 1) {
        QList<QJsonObject> nonEmpty;
        for (const QJsonObject &o : *docs)
            if (!o.isEmpty())
                nonEmpty << o;
        const QByteArray stream = jsonToYaml(nonEmpty);
        const Expected<QList<QJsonObject>> back = yamlToJson(stream);
        FUZZ_CHECK(back.ok() && *back == nonEmpty, QString::fromUtf8(stream));
    }
    return 0;
}
