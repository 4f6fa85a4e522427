// SPDX-License-Identifier: Apache-2.0
#include "engine/api/jsonwriter.h"

#include <charconv>
#include <cstdio>

namespace opbench::jsonwriter {

namespace dom = simdjson::dom;

namespace {

void writeStringImpl(std::string &out, std::string_view s)
{
    out.push_back('"');
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(s.data() + start, i - start);
        start = i + 1;
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        default: {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out.append(buf);
        }
        }
    }
    out.append(s.data() + start, s.size() - start);
    out.push_back('"');
}

// Strings, numbers, booleans and null.
void writeScalarImpl(std::string &out, dom::element el)
{
    switch (el.type()) {
    case dom::element_type::STRING:
        writeStringImpl(out, std::string_view(el));
        break;
    case dom::element_type::INT64: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, int64_t(el));
        out.append(buf, size_t(r.ptr - buf));
        break;
    }
    case dom::element_type::UINT64: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, uint64_t(el));
        out.append(buf, size_t(r.ptr - buf));
        break;
    }
    case dom::element_type::DOUBLE: {
        const double v = double(el);
        char buf[32];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        std::string_view text(buf, size_t(r.ptr - buf));
        // An integral double prints with neither '.' nor exponent, so it reads back as an
        // integer: -0 would read back as 0, and more than 18 digits may not fit 64 bits (then
        // the text does not parse at all). Write 0, or the exponent form, so that what is
        // written reads back as itself.
        if (text.find_first_of(".e") == std::string_view::npos) {
            if (v == 0) {
                text = "0";
            } else if (text.size() - (v < 0 ? 1 : 0) > 18) {
                r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
                text = std::string_view(buf, size_t(r.ptr - buf));
            }
        }
        out.append(text);
        break;
    }
    case dom::element_type::BOOL:
        out.append(bool(el) ? "true" : "false");
        break;
    case dom::element_type::NULL_VALUE:
        out.append("null");
        break;
    case dom::element_type::OBJECT:
    case dom::element_type::ARRAY:
        break; // not scalars
    }
}

} // namespace

void writeString(std::string &out, std::string_view s) { writeStringImpl(out, s); }

void writeScalar(std::string &out, dom::element el) { writeScalarImpl(out, el); }

} // namespace opbench::jsonwriter
