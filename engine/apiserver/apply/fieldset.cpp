// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/apply/fieldset.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace opbench::apiserver {

namespace {

const QString kDot = QStringLiteral(".");

/// Compact JSON of a scalar or container value.
QString compactJson(const QJsonValue &v)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

} // namespace

void FieldSet::insert(const QStringList &path)
{
    FieldSet *node = this;
    for (const QString &pe : path)
        node = &node->children[pe];
    node->member = true;
}

bool FieldSet::contains(const QStringList &path) const
{
    const FieldSet *node = this;
    for (const QString &pe : path) {
        const auto it = node->children.find(pe);
        if (it == node->children.end())
            return false;
        node = &it->second;
    }
    return node->member;
}

FieldSet FieldSet::fromFieldsV1(const QJsonObject &fields)
{
    FieldSet s;
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        if (it.key() == kDot) {
            s.member = true;
            continue;
        }
        FieldSet child = fromFieldsV1(it.value().toObject());
        if (child.children.empty())
            child.member = true; // `{}`: a leaf member
        s.children.emplace(it.key(), std::move(child));
    }
    return s;
}

QJsonObject FieldSet::toFieldsV1() const
{
    QJsonObject o;
    if (member && !children.empty())
        o.insert(kDot, QJsonObject());
    for (const auto &[pe, child] : children)
        o.insert(pe, child.toFieldsV1());
    return o;
}

void FieldSet::unite(const FieldSet &other)
{
    member = member || other.member;
    for (const auto &[pe, child] : other.children)
        children[pe].unite(child);
}

void FieldSet::dropEmptyNodes()
{
    for (auto it = children.begin(); it != children.end();) {
        it->second.dropEmptyNodes();
        if (it->second.isEmpty())
            it = children.erase(it);
        else
            ++it;
    }
}

void FieldSet::subtract(const FieldSet &other)
{
    if (other.member)
        member = false;
    for (const auto &[pe, child] : other.children) {
        const auto it = children.find(pe);
        if (it == children.end())
            continue;
        it->second.subtract(child);
        if (it->second.isEmpty())
            children.erase(it);
    }
}

FieldSet FieldSet::intersected(const FieldSet &other) const
{
    FieldSet out;
    out.member = member && other.member;
    for (const auto &[pe, child] : children) {
        const auto it = other.children.find(pe);
        if (it == other.children.end())
            continue;
        FieldSet sub = child.intersected(it->second);
        if (!sub.isEmpty())
            out.children.emplace(pe, std::move(sub));
    }
    return out;
}

bool FieldSet::intersects(const FieldSet &other) const
{
    if (member && other.member)
        return true;
    const FieldSet &small = children.size() <= other.children.size() ? *this : other;
    const FieldSet &large = &small == this ? other : *this;
    for (const auto &[pe, child] : small.children) {
        const auto it = large.children.find(pe);
        if (it != large.children.end() && child.intersects(it->second))
            return true;
    }
    return false;
}

FieldSet FieldSet::withAncestors() const
{
    FieldSet out;
    out.member = member || !children.empty();
    for (const auto &[pe, child] : children)
        out.children.emplace(pe, child.withAncestors());
    return out;
}

void FieldSet::collect(const QString &prefix, QStringList &out) const
{
    if (member && !prefix.isEmpty())
        out.append(prefix);
    for (const auto &[pe, child] : children)
        child.collect(prefix + pathElementText(pe), out);
}

QStringList FieldSet::paths() const
{
    QStringList out;
    collect(QString(), out);
    return out;
}

namespace {
bool isMemberNode(const QJsonObject &node) { return node.isEmpty() || node.contains(kDot); }
} // namespace

bool fieldsV1Intersects(const QJsonObject &fields, const FieldSet &s)
{
    for (const auto &[pe, child] : s.children) {
        const QJsonValue v = fields.value(pe);
        if (v.isUndefined())
            continue;
        const QJsonObject node = v.toObject();
        if (child.member && isMemberNode(node))
            return true;
        if (!child.children.empty() && fieldsV1Intersects(node, child))
            return true;
    }
    return false;
}

bool fieldsV1ContainsAll(const QJsonObject &fields, const FieldSet &s)
{
    for (const auto &[pe, child] : s.children) {
        const QJsonValue v = fields.value(pe);
        if (v.isUndefined())
            return false;
        const QJsonObject node = v.toObject();
        if (child.member && !isMemberNode(node))
            return false;
        if (!child.children.empty() && !fieldsV1ContainsAll(node, child))
            return false;
    }
    return true;
}

QString pathElementText(const QString &element)
{
    if (element.size() < 2 || element.at(1) != u':')
        return element;
    const QString body = element.mid(2);
    switch (element.at(0).unicode()) {
    case 'f':
        return u'.' + body;
    case 'i':
        return u'[' + body + u']';
    case 'v':
        return QStringLiteral("[=") + body + u']';
    case 'k': {
        const QJsonObject key = QJsonDocument::fromJson(body.toUtf8()).object();
        QStringList parts;
        for (auto it = key.begin(); it != key.end(); ++it)
            parts.append(it.key() + u'=' + compactJson(it.value()));
        return u'[' + parts.join(u',') + u']';
    }
    default:
        break;
    }
    return element;
}

} // namespace opbench::apiserver
