// SPDX-License-Identifier: Apache-2.0
// Object::parse and Object::parseList: JSON text to Objects through simdjson, a list item by
// item when its shape allows.
#include "engine/api/listscanner_p.h"
#include "engine/api/object.h"
#include "engine/api/objectdata_p.h"
#include "engine/api/objectdecode_p.h"

#include <simdjson.h>

#include <optional>
#include <string>

namespace opbench {

namespace enc = objectencoding;

namespace dom = simdjson::dom;

using namespace objectdecode;

ObjectData *objectdata::buildData(
    dom::object obj, const QString &apiVersion, const QString &kind, bool stripManagedFields)
{
    // Pack into a reused scratch buffer, then copy once into the exactly sized block (no
    // growth reallocations, no slack: less time and less heap fragmentation).
    thread_local std::string scratch;
    scratch.clear();
    const std::string apiVersionUtf8 = apiVersion.toStdString();
    const std::string kindUtf8 = kind.toStdString();
    const enc::PackResult packed = enc::pack(scratch, obj, {stripManagedFields, apiVersionUtf8, kindUtf8});
    auto *d = ObjectData::create(scratch);
    d->jsonSize = quint32(packed.unpackedSize);
    d->meta = packed.meta;
    d->hasManagedFields = packed.hasManagedFields;
    const QString ownApiVersion = stringField(obj, "apiVersion");
    const QString ownKind = stringField(obj, "kind");
    d->type
        = typeOf(ownApiVersion.isEmpty() ? apiVersion : ownApiVersion, ownKind.isEmpty() ? kind : ownKind, d->ownsType);
    dom::object meta;
    if (lastMember(obj, "metadata").get_object().get(meta) == simdjson::SUCCESS) { // the packer's metadata
        d->ns = internedField(meta, "namespace");
        int64_t gen = 0;
        if (lastMember(meta, "generation").get_int64().get(gen) == simdjson::SUCCESS)
            d->generation = gen;
    }
    if (scratch.capacity() > (size_t(1) << 20))
        std::string().swap(scratch); // do not keep a huge buffer after an unusually large object
    return d;
}

namespace {

using objectdata::buildData;

Status decodeError(simdjson::error_code code, const QByteArray &json)
{
    return Status::transport(QString::fromLatin1(StatusReason::DecodeError),
        QStringLiteral("invalid JSON (%1) in %2 bytes starting %3")
            .arg(QString::fromUtf8(simdjson::error_message(code)))
            .arg(json.size())
            .arg(QString::fromUtf8(json.left(60).toPercentEncoding(" {}[]\":,.-_/"))));
}

// What simdjson refuses and other JSON readers accept: integer literals outside the 64-bit range
// (JSON allows them; Go's float64 fields and Qt write them for large numbers, e.g.
// 18446744073709552000) and \u escapes of unpaired UTF-16 surrogates (the JSON grammar allows
// them; Go reads them as U+FFFD; Qt keeps them and writes them back as escapes). Returns `json`
// with ".0" after each such literal (a double then) and \ufffd for each such escape, or nullopt
// when there is none.
std::optional<QByteArray> repairedForSimdjson(const QByteArray &json)
{
    const auto digit = [&json](qsizetype i) { return i < json.size() && json[i] >= '0' && json[i] <= '9'; };
    // The code unit of a \uXXXX escape at `i` (the backslash), or -1.
    const auto escapeAt = [&json](qsizetype i) -> int {
        if (i + 5 >= json.size() || json[i] != '\\' || json[i + 1] != 'u')
            return -1;
        bool ok = false;
        const int v = QByteArrayView(json).sliced(i + 2, 4).toInt(&ok, 16);
        return ok ? v : -1;
    };
    QByteArray out;
    qsizetype copied = 0;
    const auto replace = [&](qsizetype from, qsizetype to, const char *with) {
        out += QByteArrayView(json).sliced(copied, from - copied);
        out += with;
        copied = to;
    };
    qsizetype i = 0;
    while (i < json.size()) {
        const char c = json[i];
        if (c == '"') { // a string: skip it, mending unpaired surrogate escapes
            for (++i; i < json.size() && json[i] != '"';) {
                if (json[i] != '\\') {
                    ++i;
                    continue;
                }
                const int unit = escapeAt(i);
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    const int low = escapeAt(i + 6);
                    if (low >= 0xDC00 && low <= 0xDFFF) {
                        i += 12;
                        continue;
                    }
                }
                if (unit >= 0xD800 && unit <= 0xDFFF)
                    replace(i, i + 6, "\\ufffd");
                i += unit >= 0 ? 6 : 2;
            }
            ++i;
            continue;
        }
        if (c != '-' && !digit(i)) {
            ++i;
            continue;
        }
        const bool negative = c == '-';
        const qsizetype digitsStart = negative ? i + 1 : i;
        for (i = digitsStart; digit(i);)
            ++i;
        const std::string_view digits(json.constData() + digitsStart, std::size_t(i - digitsStart));
        if (i < json.size() && (json[i] == '.' || json[i] == 'e' || json[i] == 'E')) { // not an integer
            while (i < json.size()
                && (digit(i) || json[i] == '.' || json[i] == 'e' || json[i] == 'E' || json[i] == '+' || json[i] == '-'))
                ++i;
            continue;
        }
        const std::string_view limit = negative ? "9223372036854775808" : "18446744073709551615";
        if (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit))
            replace(i, i, ".0");
    }
    if (copied == 0)
        return std::nullopt;
    out += QByteArrayView(json).sliced(copied);
    return out;
}

} // namespace

Expected<Object> Object::parse(const QByteArray &json)
{
    dom::element el;
    auto err = threadParser().parse(json.constData(), size_t(json.size())).get(el);
    if (err == simdjson::NUMBER_ERROR || err == simdjson::STRING_ERROR)
        if (const std::optional<QByteArray> repaired = repairedForSimdjson(json))
            return parse(*repaired);
    if (err)
        return decodeError(err, json);
    if (!el.is_object())
        return Status::transport(QString::fromLatin1(StatusReason::DecodeError),
            QStringLiteral("expected a JSON object, got %1").arg(QString::fromUtf8(json.left(40))));
    return Object(buildData(dom::object(el), {}, {}, false));
}

namespace {

Status listError(const QString &message)
{
    return Status::transport(QString::fromLatin1(StatusReason::DecodeError), message);
}

void readListMetadata(dom::object meta, Object::List &list)
{
    list.resourceVersion = stringField(meta, "resourceVersion");
    list.continueToken = stringField(meta, "continue");
    int64_t remaining = -1;
    if (meta["remainingItemCount"].get_int64().get(remaining) == simdjson::SUCCESS)
        list.remainingItemCount = remaining;
}

// Item by item (listscanner_p.h): the parser holds one item at a time, not the whole page.
// nullopt when the body's shape needs the whole-document parser (and its exact errors).
// `wrap` makes an Object of a built block (Object's constructor from one is private).
template<typename Wrap>
std::optional<Expected<Object::List>> parseListByItems(
    const QByteArray &json, const QString &itemApiVersion, const QString &itemKind, bool stripManagedFields, Wrap wrap)
{
    const std::string_view body(json.constData(), size_t(json.size()));
    const auto layout = listscanner::scan(body);
    if (!layout)
        return std::nullopt;
    // As strict as the whole-document parser: valid UTF-8 throughout, every other member valid.
    if (!simdjson::validate_utf8(body.data(), body.size()))
        return std::nullopt;
    const auto part = [body](listscanner::Part p) { return body.substr(p.offset, p.size); };
    dom::parser parser; // freed on return: it grows to the largest item only
    dom::element el;
    for (const listscanner::Part &p : layout->others)
        if (parser.parse(part(p)).error())
            return std::nullopt;
    Object::List list;
    if (layout->kind.size != 0) {
        std::string_view kind;
        if (parser.parse(part(layout->kind)).get(el) || el.get_string().get(kind))
            return std::nullopt;
        list.kind = qstr(kind);
    }
    if (layout->metadata.size != 0) {
        if (parser.parse(part(layout->metadata)).get(el))
            return std::nullopt;
        if (dom::object meta; el.get_object().get(meta) == simdjson::SUCCESS)
            readListMetadata(meta, list);
    }
    if (layout->itemsValue.size != 0) {
        if (part(layout->itemsValue) != "null") // "items": null is tolerated as empty
            return Expected<Object::List>(listError(QStringLiteral("list \"items\" is not an array")));
        return Expected<Object::List>(std::move(list));
    }
    list.items.reserve(qsizetype(layout->items.size()));
    for (std::size_t i = 0; i < layout->items.size(); ++i) {
        const listscanner::Part p = layout->items[i];
        if (auto err = parser.parse(part(p)).get(el))
            return Expected<Object::List>(
                listError(QStringLiteral("invalid JSON (%1) in list item %2 (bytes %3 to %4 of %5)")
                              .arg(QString::fromUtf8(simdjson::error_message(err)))
                              .arg(i)
                              .arg(p.offset)
                              .arg(p.offset + p.size)
                              .arg(json.size())));
        if (!el.is_object())
            return Expected<Object::List>(listError(QStringLiteral("a list item is not an object")));
        list.items.append(wrap(buildData(dom::object(el), itemApiVersion, itemKind, stripManagedFields)));
    }
    return Expected<Object::List>(std::move(list));
}

} // namespace

namespace {

// parseList() on the text as it is; `wrap` makes an Object of a built block.
template<typename Wrap>
Expected<Object::List> parseListAsIs(
    const QByteArray &json, const QString &itemApiVersion, const QString &itemKind, bool stripManagedFields, Wrap wrap)
{
    if (auto byItems = parseListByItems(json, itemApiVersion, itemKind, stripManagedFields, wrap))
        return std::move(*byItems);
    // The whole document at once, with a parser of its own freed on return (its padded copy,
    // tape and string buffer are several times the body): for bodies the item scan declined,
    // so that errors say exactly what is wrong.
    dom::parser parser;
    dom::element el;
    auto err = parser.parse(json.constData(), size_t(json.size())).get(el);
    if (err)
        return decodeError(err, json);
    dom::object obj;
    if (el.get_object().get(obj))
        return listError(QStringLiteral("a list must be a JSON object"));
    Object::List list;
    list.kind = stringField(obj, "kind");
    if (dom::object meta; obj["metadata"].get_object().get(meta) == simdjson::SUCCESS)
        readListMetadata(meta, list);
    dom::array items;
    auto itemsErr = obj["items"].get_array().get(items);
    if (itemsErr && itemsErr != simdjson::NO_SUCH_FIELD) {
        // "items": null is tolerated as empty; anything else is an error.
        if (!obj["items"].is_null())
            return listError(QStringLiteral("list \"items\" is not an array"));
    }
    if (!itemsErr) {
        list.items.reserve(qsizetype(items.size()));
        for (dom::element item : items) {
            if (!item.is_object())
                return listError(QStringLiteral("a list item is not an object"));
            list.items.append(wrap(buildData(dom::object(item), itemApiVersion, itemKind, stripManagedFields)));
        }
    }
    return list;
}

} // namespace

Expected<Object::List> Object::parseList(
    const QByteArray &json, const QString &itemApiVersion, const QString &itemKind, bool stripManagedFields)
{
    const auto wrap = [](ObjectData *d) { return Object(d); };
    Expected<List> list = parseListAsIs(json, itemApiVersion, itemKind, stripManagedFields, wrap);
    if (!list)
        if (const std::optional<QByteArray> repaired = repairedForSimdjson(json)) // see Object::parse
            return parseListAsIs(*repaired, itemApiVersion, itemKind, stripManagedFields, wrap);
    return list;
}

} // namespace opbench
