// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/fielddiff_p.h"

#include <QJsonArray>
#include <QSet>

namespace opbench::apiserver::ssa {

namespace {

class Comparer
{
public:
    Comparer(const Scope &scope, Diff &diff)
        : m_scope(scope)
        , m_diff(diff)
    { }

    void compareRoot(const QJsonObject &a, const QJsonObject &b, const Cursor &root)
    {
        compareMapChildren(a, b, root, true, 0);
    }

private:
    void compareMapChildren(const QJsonObject &a, const QJsonObject &b, const Cursor &c, bool aPresent, int depth)
    {
        auto visit = [&](const QString &key) {
            if (depth == 0 && m_scope.skipRootKey(key))
                return;
            if (depth == 1 && m_metaLevel && Scope::skipMetadataKey(key))
                return;
            const QJsonValue av = a.value(key);
            const QJsonValue bv = b.value(key);
            if (!av.isUndefined() && av == bv)
                return;
            const bool meta = depth == 0 && key == kMetadata;
            const bool savedMeta = m_metaLevel;
            m_metaLevel = meta;
            push(QStringLiteral("f:") + key);
            const bool zero = meta || (!c.custom && aPresent && !c.freeMap && zeroPresentStruct(key));
            compare(av, bv, fieldCursor(c, key), zero, depth + 1);
            pop();
            m_metaLevel = savedMeta;
        };
        for (auto it = a.begin(); it != a.end(); ++it)
            visit(it.key());
        for (auto it = b.begin(); it != b.end(); ++it) {
            if (!a.contains(it.key()))
                visit(it.key());
        }
    }

    void leaf(const QJsonValue &a, const QJsonValue &b)
    {
        if (!a.isUndefined() && b.isUndefined())
            mark(m_removed, m_diff.removed);
        else if (a.isUndefined() || a != b)
            mark(m_changed, m_diff.changed);
    }

    void compare(const QJsonValue &a, const QJsonValue &b, const Cursor &c, bool noMember, int depth)
    {
        const bool aU = a.isUndefined(), bU = b.isUndefined();
        const QJsonValue &probe = bU ? a : b;
        if (probe.isObject() && !c.atomic && (aU || a.isObject()) && (bU || b.isObject())) {
            const QJsonObject ao = a.toObject(), bo = b.toObject();
            if (ao.isEmpty() && bo.isEmpty())
                return leaf(a, b);
            compareMapChildren(ao, bo, c, !aU || noMember, depth); // noMember: exists in a zero object
        } else if (probe.isArray() && (aU || a.isArray()) && (bU || b.isArray())) {
            const ListInfo li = listInfo(c);
            const QJsonArray aa = a.toArray(), ba = b.toArray();
            if (li.type == ListType::Atomic || (aa.isEmpty() && ba.isEmpty()))
                return leaf(a, b);
            QHash<QString, QJsonValue> before;
            for (qsizetype i = 0; i < aa.size(); ++i)
                before.insert(itemElement(aa.at(i), li, i), aa.at(i));
            const Cursor ic = itemCursor(c);
            QSet<QString> seen;
            for (qsizetype i = 0; i < ba.size(); ++i) {
                const QString pe = itemElement(ba.at(i), li, i);
                seen.insert(pe);
                const QJsonValue old = before.value(pe, QJsonValue(QJsonValue::Undefined));
                if (!old.isUndefined() && old == ba.at(i))
                    continue;
                push(pe);
                compare(old, ba.at(i), ic, false, depth + 1);
                pop();
            }
            for (auto it = before.cbegin(); it != before.cend(); ++it) {
                if (seen.contains(it.key()))
                    continue;
                push(it.key());
                compare(it.value(), QJsonValue(QJsonValue::Undefined), ic, false, depth + 1);
                pop();
            }
        } else {
            return leaf(a, b);
        }
        if (aU && !noMember)
            mark(m_changed, m_diff.changed);
        else if (bU && !noMember)
            mark(m_removed, m_diff.removed);
    }

    void push(const QString &pe)
    {
        m_path.push_back(pe);
        m_changed.push_back(nullptr);
        m_removed.push_back(nullptr);
    }
    void pop()
    {
        m_path.pop_back();
        m_changed.pop_back();
        m_removed.pop_back();
    }
    /// Makes the current path a member of `root`, creating only the nodes still missing
    /// (`nodes` caches the nodes of the current path; index 0 is the root).
    void mark(std::vector<FieldSet *> &nodes, FieldSet &root)
    {
        if (nodes.empty())
            return;
        nodes[0] = &root;
        std::size_t i = nodes.size() - 1;
        while (!nodes[i])
            --i;
        for (; i + 1 < nodes.size(); ++i)
            nodes[i + 1] = &nodes[i]->children[m_path[i]];
        if (nodes.size() > 1)
            nodes.back()->member = true;
    }

    const Scope &m_scope;
    Diff &m_diff;
    std::vector<QString> m_path;
    std::vector<FieldSet *> m_changed{nullptr}; // one more than m_path: the root first
    std::vector<FieldSet *> m_removed{nullptr};
    bool m_metaLevel = false;
};

} // namespace

std::optional<QJsonObject> addedFields(
    const QJsonValue &v, const Cursor &c, bool present, int depth, const Scope &scope)
{
    static const QString kDotKey = QStringLiteral(".");
    QJsonObject node;
    if (v.isObject() && !c.atomic && !v.toObject().isEmpty()) {
        const QJsonObject o = v.toObject();
        const bool metaLevel = depth == 1 && c.path == kMetadata;
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString key = it.key();
            if (depth == 0 && scope.skipRootKey(key))
                continue;
            if (metaLevel && Scope::skipMetadataKey(key))
                continue;
            const bool meta = depth == 0 && key == kMetadata;
            const bool zero = meta || (!c.custom && present && !c.freeMap && zeroPresentStruct(key));
            if (auto child = addedFields(it.value(), fieldCursor(c, key), zero, depth + 1, scope))
                node.insert(QStringLiteral("f:") + key, *child);
        }
    } else if (v.isArray() && !v.toArray().isEmpty() && listInfo(c).type != ListType::Atomic) {
        const QJsonArray a = v.toArray();
        const ListInfo li = listInfo(c);
        const Cursor ic = itemCursor(c);
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (auto child = addedFields(a.at(i), ic, false, depth + 1, scope))
                node.insert(itemElement(a.at(i), li, i), *child);
        }
    } else {
        return node; // a leaf: a member without children
    }
    if (depth == 0 || present)
        return node.isEmpty() ? std::nullopt : std::optional<QJsonObject>(node);
    if (!node.isEmpty())
        node.insert(kDotKey, QJsonObject());
    return node;
}

Diff compareObjects(const QJsonObject &a, const QJsonObject &b, const ResourceType &type, const Scope &scope)
{
    Diff d;
    Comparer(scope, d).compareRoot(a, b, rootCursor(type));
    return d;
}

} // namespace opbench::apiserver::ssa
