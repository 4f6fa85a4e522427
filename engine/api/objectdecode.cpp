// SPDX-License-Identifier: Apache-2.0
#include "engine/api/objectdecode_p.h"

#include "engine/api/objectencoding_p.h"

#include <QMutex>
#include <QSet>

namespace opbench::objectdecode {

namespace dom = simdjson::dom;
namespace enc = objectencoding;

QString qstr(std::string_view sv) { return QString::fromUtf8(sv.data(), qsizetype(sv.size())); }

// Returns the shared copy of a short string that many objects carry (bounded table: once full,
// new strings are simply not interned, so unique values cannot grow it without limit).
QString intern(const QString &s)
{
    if (s.isEmpty() || s.size() > 64)
        return s;
    static QBasicMutex mutex;
    static QSet<QString> *table = new QSet<QString>(); // never destroyed: objects may outlive statics
    const QMutexLocker lock(&mutex);
    auto it = table->constFind(s);
    if (it != table->cend())
        return *it;
    if (table->size() < 8192)
        table->insert(s);
    return s;
}

simdjson::simdjson_result<dom::element> lastMember(dom::object obj, std::string_view key)
{
    simdjson::simdjson_result<dom::element> found(simdjson::NO_SUCH_FIELD);
    for (dom::key_value_pair kv : obj)
        if (kv.key == key)
            found = simdjson::simdjson_result<dom::element>(dom::element(kv.value));
    return found;
}

QString internedField(dom::object obj, const char *key)
{
    std::string_view sv;
    if (lastMember(obj, key).get_string().get(sv) == simdjson::SUCCESS)
        return intern(qstr(sv));
    return {};
}

QString stringField(dom::object obj, const char *key)
{
    std::string_view sv;
    if (lastMember(obj, key).get_string().get(sv) == simdjson::SUCCESS)
        return qstr(sv);
    return {};
}

// The parser of whole documents and lists (its DOM stays valid while objects are built from it).
dom::parser &threadParser()
{
    thread_local dom::parser parser;
    return parser;
}

// A second parser for reading single metadata values on demand, so that an accessor called while
// a list is being decoded cannot invalidate that list's DOM.
dom::parser &valueParser()
{
    thread_local dom::parser parser;
    return parser;
}

namespace {
// Parses packed JSON text (a value taken from an object) into `el`, on the value parser.
bool parseValue(std::string_view packed, dom::element &el)
{
    if (packed.empty())
        return false;
    const std::string json = enc::unpack(packed);
    return valueParser().parse(json).get(el) == simdjson::SUCCESS;
}
} // namespace

// A JSON string value (its packed text, quotes included) as a QString; not a string → "".
QString decodeString(std::string_view text)
{
    if (enc::isToken(text))
        return qstr(enc::unpack(text)).mid(1).chopped(1); // a tokenized value: never escaped
    if (text.size() < 2 || text.front() != '"')
        return {};
    const std::string_view inner = text.substr(1, text.size() - 2);
    if (inner.find('\\') == std::string_view::npos)
        return qstr(inner);
    dom::element el;
    std::string_view sv;
    if (!parseValue(text, el) || el.get_string().get(sv) != simdjson::SUCCESS)
        return {};
    return qstr(sv);
}

// A {string: string} object; entries whose value is not a string are skipped.
Labels decodeStringMap(std::string_view text, bool internStrings)
{
    Labels out;
    dom::element el;
    dom::object obj;
    if (!parseValue(text, el) || el.get_object().get(obj) != simdjson::SUCCESS)
        return out;
    for (dom::key_value_pair kv : obj) {
        std::string_view v;
        if (kv.value.get_string().get(v) != simdjson::SUCCESS)
            continue;
        if (internStrings)
            out.insert(intern(qstr(kv.key)), intern(qstr(v)));
        else
            out.insert(qstr(kv.key), qstr(v));
    }
    return out;
}

QList<OwnerReference> decodeOwnerReferences(std::string_view text)
{
    QList<OwnerReference> out;
    dom::element el;
    dom::array refs;
    if (!parseValue(text, el) || el.get_array().get(refs) != simdjson::SUCCESS)
        return out;
    for (dom::element r : refs) {
        dom::object ro;
        if (r.get_object().get(ro) != simdjson::SUCCESS)
            continue;
        OwnerReference ref;
        ref.apiVersion = internedField(ro, "apiVersion");
        ref.kind = internedField(ro, "kind");
        ref.name = stringField(ro, "name");
        ref.uid = stringField(ro, "uid");
        bool b = false;
        if (ro["controller"].get_bool().get(b) == simdjson::SUCCESS)
            ref.controller = b;
        b = false;
        if (ro["blockOwnerDeletion"].get_bool().get(b) == simdjson::SUCCESS)
            ref.blockOwnerDeletion = b;
        out.append(ref);
    }
    return out;
}

QStringList decodeStringArray(std::string_view text)
{
    QStringList out;
    dom::element el;
    dom::array arr;
    if (!parseValue(text, el) || el.get_array().get(arr) != simdjson::SUCCESS)
        return out;
    for (dom::element f : arr) {
        std::string_view v;
        if (f.get_string().get(v) == simdjson::SUCCESS)
            out.append(intern(qstr(v)));
    }
    return out;
}

} // namespace opbench::objectdecode
