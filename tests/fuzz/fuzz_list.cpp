// SPDX-License-Identifier: Apache-2.0
// List decoding into packed Objects (Object::parseList: engine/api/listscanner + objectdecode).
// A list body normally takes the item-by-item path (listscanner::scan finds the parts, each item
// is parsed on its own); prefixing a duplicate metadata (or kind) member makes the scanner
// decline, so the same body then takes the whole-document path. Both paths must agree: same success, same items
// (byte for byte), same list metadata. Every item re-encodes and decodes to itself, and the
// fields the cache indexes (key, labels, owner references) read back from the packed form as
// they are in the JSON.
#include "engine/api/listscanner_p.h"
#include "engine/api/object.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace opbench;

namespace {

QString describe(const Expected<Object::List> &l)
{
    if (!l)
        return QStringLiteral("error: ") + l.error().message();
    QString s = QStringLiteral("kind=%1 rv=%2 continue=%3 remaining=%4 items=%5")
                    .arg(l->kind, l->resourceVersion, l->continueToken)
                    .arg(l->remainingItemCount)
                    .arg(l->items.size());
    for (const Object &o : l->items)
        s += u'\n' + QString::fromUtf8(o.toJsonBytes());
    return s;
}

void checkItem(const Object &o)
{
    FUZZ_CHECK(!o.isNull(), QString());
    const QByteArray text = o.toJsonBytes();
    const Expected<Object> again = Object::parse(text);
    FUZZ_CHECK(again.ok(), QString::fromUtf8(text) + u' ' + again.error().message());
    FUZZ_CHECK(*again == o, QString::fromUtf8(text) + u'|' + QString::fromUtf8(again->toJsonBytes()));
    // Packed metadata accessors agree with the JSON document.
    const QJsonObject json = QJsonDocument::fromJson(text).object();
    const QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
    const auto str = [&meta](const char *k) {
        const QJsonValue v = meta.value(QLatin1String(k));
        return v.isString() ? v.toString() : QString();
    };
    FUZZ_CHECK(o.name() == str("name"), o.name() + u'|' + QString::fromUtf8(text));
    FUZZ_CHECK(o.namespaceName() == str("namespace"), o.namespaceName() + u'|' + QString::fromUtf8(text));
    FUZZ_CHECK(o.uid() == str("uid"), o.uid() + u'|' + QString::fromUtf8(text));
    FUZZ_CHECK(o.resourceVersion() == str("resourceVersion"), o.resourceVersion() + u'|' + QString::fromUtf8(text));
    FUZZ_CHECK(o.key() == objectKey(o.namespaceName(), o.name()), o.key());
    FUZZ_CHECK(o.keyHash() == objectKeyHash(o.key()), o.key());
    FUZZ_CHECK(o.hasKey(o.key()), o.key());
    Labels labels;
    const QJsonObject lj = meta.value(QLatin1String("labels")).toObject();
    for (auto it = lj.begin(); it != lj.end(); ++it)
        if (it.value().isString())
            labels.insert(it.key(), it.value().toString());
    FUZZ_CHECK(o.labels() == labels, QString::fromUtf8(text));
    const QList<OwnerReference> &refs = o.ownerReferences();
    QStringList uids;
    for (const OwnerReference &r : refs)
        uids << r.uid;
    FUZZ_CHECK(o.ownerReferenceUids() == uids, QString::fromUtf8(text));
    (void)o.finalizers();
    (void)o.annotations();
    (void)o.generation();
    (void)o.memoryFootprint();
    const Object stripped = o.withoutManagedFields();
    FUZZ_CHECK(!QJsonDocument::fromJson(stripped.toJsonBytes())
                    .object()
                    .value(QLatin1String("metadata"))
                    .toObject()
                    .contains(QLatin1String("managedFields")),
        QString::fromUtf8(stripped.toJsonBytes()));
}

} // namespace

OPBENCH_FUZZ_TARGET(list)(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const bool strip = data[0] & 1;
    const bool defaults = data[0] & 2;
    const QByteArray body = fuzz::bytes(data + 1, size - 1);
    const QString apiVersion = defaults ? QStringLiteral("v1") : QString();
    const QString kind = defaults ? QStringLiteral("ConfigMap") : QString();

    const Expected<Object::List> list = Object::parseList(body, apiVersion, kind, strip);
    if (list)
        for (const Object &o : list->items)
            checkItem(o);

    // The same body through the whole-document path.
    const auto layout = listscanner::scan(std::string_view(body.constData(), std::size_t(body.size())));
    if (layout) {
        for (const listscanner::Part &p : layout->items)
            FUZZ_CHECK(p.offset + p.size <= std::size_t(body.size()), QString::number(p.offset));
        // A duplicate member the scanner declines and the whole-document parser ignores (it
        // reads the first of duplicate members): metadata or kind again, with the same value.
        const auto partText = [&body](listscanner::Part p) { return body.mid(qsizetype(p.offset), qsizetype(p.size)); };
        QByteArray dup;
        if (layout->metadata.size)
            dup = "\"metadata\":" + partText(layout->metadata);
        else if (layout->kind.size)
            dup = "\"kind\":" + partText(layout->kind);
        else
            dup = "\"metadata\":{},\"metadata\":{}";
        const qsizetype open = body.indexOf('{');
        QByteArray forced = body;
        const bool empty = body.mid(open + 1).trimmed().startsWith('}');
        forced.insert(open + 1, empty ? dup : dup + ',');
        FUZZ_CHECK(!listscanner::scan(std::string_view(forced.constData(), std::size_t(forced.size()))),
            QString::fromUtf8(forced));
        const Expected<Object::List> whole = Object::parseList(forced, apiVersion, kind, strip);
        FUZZ_CHECK((list.ok() && whole.ok() && describe(list) == describe(whole)) || (!list.ok() && !whole.ok()),
            QStringLiteral("item by item: %1\nwhole document: %2").arg(describe(list), describe(whole)));
    }
    return 0;
}
