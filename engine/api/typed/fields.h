// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fields<T>: a C++ struct's description for JSON and for its CustomResourceDefinition, written
// once beside the struct (what controller-gen reads from Go struct tags and markers):
//
//     struct GuestbookSpec {
//         QString title;
//         QStringList entries;
//         int port = 80;
//         static void describe(opbench::Fields<GuestbookSpec> &f) {
//             f.field("title", &GuestbookSpec::title).required().minLength(1);
//             f.field("entries", &GuestbookSpec::entries);
//             f.field("port", &GuestbookSpec::port).minimum(1).maximum(65535);
//         }
//         friend bool operator==(const GuestbookSpec &, const GuestbookSpec &) = default;
//     };
//
//     QJsonObject j = opbench::toJson(spec);                      // {"title": …, "port": 80, …}
//     Expected<void> ok = opbench::fromJson(j, spec);             // errors name the field path
//     QJsonObject s = opbench::describedFields<GuestbookSpec>().schema();   // OpenAPI v3
//
// Member types and omitempty rules: fieldcodec.h; markers: fieldmarkers.h.
//
// Decoding is lenient but not silent: every field that can be read is read, a field that has
// the wrong JSON type keeps its C++ value, and the result is an error listing each such field
// with its path ("spec.port: expected an integer, got \"80\""). A field absent from the JSON (or
// null) keeps its C++ value, or takes its defaultValue() marker when it has one.
//
// Encoding over a base (encode(value, base)) keeps the base's keys the description does not
// list, in nested described structs too: unknown fields survive a read-modify-write.

#include "engine/api/expected.h"
#include "engine/api/typed/fieldcodec.h"

#include <QAnyStringView>

#include <functional>
#include <memory>
#include <vector>

namespace opbench {

template<class T> class Fields
{
public:
    Fields() = default;

    /// Describes `member` as the JSON field `name`; chain markers on the result.
    template<class M> FieldBuilder field(QAnyStringView name, M T::*member)
    {
        using Codec = FieldCodec<M>;
        auto e = std::make_unique<Entry>();
        e->name = name.toString();
        Q_ASSERT_X(!e->name.isEmpty() && !has(e->name), "opbench::Fields::field", "empty or repeated field name");
        e->schema = &Codec::schema;
        e->omit = [member](const T &v, bool keepZero) { return Codec::omit(v.*member, keepZero); };
        e->encode = [member](const T &v, const QJsonValue &base) { return Codec::encode(v.*member, base); };
        e->decode = [member](const QJsonValue &j, T &out, const QString &path, DecodeErrors &errors) {
            Codec::decode(j, out.*member, path, errors);
        };
        m_entries.push_back(std::move(e));
        return FieldBuilder(m_entries.back()->markers);
    }
    /// The struct's own description (the schema node's "description").
    void description(const QString &text) { m_description = text; }

    qsizetype size() const { return qsizetype(m_entries.size()); }
    bool has(const QString &name) const
    {
        for (const auto &e : m_entries)
            if (e->name == name)
                return true;
        return false;
    }
    /// True when a field is marked required().
    bool hasRequired() const
    {
        for (const auto &e : m_entries)
            if (e->markers.required)
                return true;
        return false;
    }

    /// The struct's OpenAPI v3 schema: type object, properties (by name), required (in description order).
    QJsonObject schema() const
    {
        QJsonObject properties;
        QJsonArray required;
        for (const auto &e : m_entries) {
            QJsonObject s = e->schema();
            applyMarkers(s, e->markers);
            properties.insert(e->name, s);
            if (e->markers.required)
                required.append(e->name);
        }
        QJsonObject out = typed::typeSchema("object");
        if (!m_description.isEmpty())
            out.insert(QLatin1String("description"), m_description);
        if (!properties.isEmpty())
            out.insert(QLatin1String("properties"), properties);
        if (!required.isEmpty())
            out.insert(QLatin1String("required"), required);
        return out;
    }

    /// `value` written over `base`: described fields set or (omitempty) removed, others kept.
    QJsonObject encode(const T &value, QJsonObject base = {}) const
    {
        for (const auto &e : m_entries) {
            const bool keepZero = e->markers.required || e->markers.hasDefault();
            if (e->omit(value, keepZero))
                base.remove(e->name);
            else
                base.insert(e->name, e->encode(value, base.value(e->name)));
        }
        return base;
    }

    /// Reads the described fields of `json` into `out`; `path` prefixes error paths ("spec").
    void decode(const QJsonObject &json, T &out, const QString &path, DecodeErrors &errors) const
    {
        for (const auto &e : m_entries) {
            QJsonValue v = json.value(e->name);
            if (v.isUndefined() || v.isNull()) {
                if (!e->markers.hasDefault())
                    continue;
                v = e->markers.defaultValue;
            }
            e->decode(v, out, typed::childPath(path, e->name), errors);
        }
    }

private:
    struct Entry
    {
        QString name;
        FieldMarkers markers;
        QJsonObject (*schema)() = nullptr;
        std::function<bool(const T &, bool)> omit;
        std::function<QJsonValue(const T &, const QJsonValue &)> encode;
        std::function<void(const QJsonValue &, T &, const QString &, DecodeErrors &)> decode;
    };
    std::vector<std::unique_ptr<Entry>> m_entries;
    QString m_description;
};

template<Described T> const Fields<T> &describedFields()
{
    static const Fields<T> fields = [] {
        Fields<T> f;
        T::describe(f);
        return f;
    }();
    return fields;
}

/// `value` as JSON (omitempty rules in fieldcodec.h).
template<Described T> QJsonObject toJson(const T &value) { return describedFields<T>().encode(value); }

/// Reads `json` into `out` (see the top of this file); the error lists every field it could
/// not read, with `path` ("spec") in front of each field's path.
template<Described T> Expected<void> fromJson(const QJsonObject &json, T &out, const QString &path = {})
{
    DecodeErrors errors;
    describedFields<T>().decode(json, out, path, errors);
    if (errors.isEmpty())
        return {};
    return errors.toStatus(QStringLiteral("cannot decode %1").arg(path.isEmpty() ? QStringLiteral("object") : path));
}

/// The OpenAPI v3 schema of a described struct.
template<Described T> QJsonObject schemaOf() { return describedFields<T>().schema(); }

} // namespace opbench
