// SPDX-License-Identifier: Apache-2.0
#include "engine/api/listscanner_p.h"

namespace opbench::listscanner {

namespace {

class Cursor
{
public:
    explicit Cursor(std::string_view s)
        : m_s(s)
    { }

    std::size_t pos() const { return m_i; }
    bool atEnd() const { return m_i >= m_s.size(); }
    char peek() const { return atEnd() ? '\0' : m_s[m_i]; }

    void skipSpace()
    {
        while (!atEnd() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\n' || m_s[m_i] == '\r'))
            ++m_i;
    }

    bool consume(char c)
    {
        skipSpace();
        if (peek() != c)
            return false;
        ++m_i;
        return true;
    }

    // A string starting at the cursor; `raw` gets its text between the quotes (escapes kept).
    bool string(std::string_view *raw = nullptr)
    {
        if (peek() != '"')
            return false;
        const std::size_t start = ++m_i;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == '\\') {
                m_i += 2;
            } else if (c == '"') {
                if (raw)
                    *raw = m_s.substr(start, m_i - start);
                ++m_i;
                return true;
            } else {
                ++m_i;
            }
        }
        return false;
    }

    // One value starting at the cursor (after spaces): its bounds.
    bool value(Part &part)
    {
        skipSpace();
        const std::size_t start = m_i;
        const char c = peek();
        bool ok = false;
        if (c == '"')
            ok = string();
        else if (c == '{' || c == '[')
            ok = nested();
        else
            ok = scalar();
        part = {start, m_i - start};
        return ok && part.size > 0;
    }

private:
    // An object or array: balanced brackets, strings skipped whole.
    bool nested()
    {
        int depth = 0;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == '"') {
                if (!string())
                    return false;
                continue;
            }
            ++m_i;
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return true;
            }
        }
        return false;
    }

    // A number or literal: up to the next delimiter.
    bool scalar()
    {
        const std::size_t start = m_i;
        while (!atEnd()) {
            const char c = m_s[m_i];
            if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r')
                break;
            ++m_i;
        }
        return m_i > start;
    }

    std::string_view m_s;
    std::size_t m_i = 0;
};

bool scanItems(Cursor &cur, std::vector<Part> &items)
{
    if (!cur.consume('['))
        return false;
    if (cur.consume(']'))
        return true;
    for (;;) {
        Part item;
        if (!cur.value(item))
            return false;
        items.push_back(item);
        if (cur.consume(','))
            continue;
        return cur.consume(']');
    }
}

} // namespace

std::optional<Layout> scan(std::string_view json)
{
    Cursor cur(json);
    Layout layout;
    if (!cur.consume('{'))
        return std::nullopt;
    bool seenItems = false;
    if (!cur.consume('}')) {
        for (;;) {
            cur.skipSpace();
            std::string_view key;
            if (!cur.string(&key) || !cur.consume(':'))
                return std::nullopt;
            // An escaped key may spell "items" (or hold what JSON forbids): the full parser decides.
            for (const char c : key)
                if (c == '\\' || static_cast<unsigned char>(c) < 0x20)
                    return std::nullopt;
            if (key == "items") {
                if (seenItems)
                    return std::nullopt;
                seenItems = true;
                cur.skipSpace();
                if (cur.peek() == '[') {
                    layout.hasItems = true;
                    if (!scanItems(cur, layout.items))
                        return std::nullopt;
                } else if (!cur.value(layout.itemsValue)) {
                    return std::nullopt;
                }
            } else {
                Part part;
                if (!cur.value(part))
                    return std::nullopt;
                Part *slot = key == "kind" ? &layout.kind : key == "metadata" ? &layout.metadata : nullptr;
                if (slot) {
                    if (slot->size != 0)
                        return std::nullopt; // a duplicate: let the full parser decide
                    *slot = part;
                } else {
                    layout.others.push_back(part);
                }
            }
            if (cur.consume(','))
                continue;
            if (!cur.consume('}'))
                return std::nullopt;
            break;
        }
    }
    cur.skipSpace();
    if (!cur.atEnd())
        return std::nullopt;
    return layout;
}

} // namespace opbench::listscanner
