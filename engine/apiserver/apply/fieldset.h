// SPDX-License-Identifier: Apache-2.0
#pragma once
// FieldSet: a set of field paths in an object, stored as a trie whose edges are path elements
// written as in metadata.managedFields[].fieldsV1 (structured-merge-diff's wire form):
//   "f:<name>"           a field of a map or struct
//   "k:{"name":"web"}"   a list-map item, by its key fields (sorted by name, compact JSON values)
//   "v:"a""              a set item, by its value (compact JSON)
//   "i:<n>"              an item of a list that has no keys, by index
// A node is a *member* when its path itself is in the set; in fieldsV1 a member with children
// carries a "." entry, a member without children is `{}`.

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>

namespace opbench::apiserver {

class FieldSet
{
public:
    bool member = false;
    std::map<QString, FieldSet> children;

    bool isEmpty() const { return !member && children.empty(); }
    /// Inserts one path (a list of path elements, e.g. {"f:spec", "f:replicas"}).
    void insert(const QStringList &path);
    bool contains(const QStringList &path) const;

    /// fieldsV1 JSON ↔ set. Unknown keys are kept as path elements.
    static FieldSet fromFieldsV1(const QJsonObject &fields);
    QJsonObject toFieldsV1() const;

    /// Set algebra on member paths (the results hold no empty nodes).
    void unite(const FieldSet &other);
    void subtract(const FieldSet &other);
    FieldSet intersected(const FieldSet &other) const;
    bool intersects(const FieldSet &other) const;
    /// The set plus every ancestor of a member (what "owns something under here" means).
    FieldSet withAncestors() const;

    /// Member paths in kube-apiserver's text form (".spec.replicas",
    /// ".spec.containers[name=\"web\"].image", ".metadata.finalizers[=\"x\"]"), in set order.
    QStringList paths() const;
    /// Drops nodes that are neither members nor lead to one.
    void dropEmptyNodes();

    friend bool operator==(const FieldSet &a, const FieldSet &b)
    {
        return a.member == b.member && a.children == b.children;
    }

private:
    void collect(const QString &prefix, QStringList &out) const;
};

/// Set tests straight on a fieldsV1 document, without decoding it: whether it shares a member
/// with `s`, and whether it holds every member of `s`.
bool fieldsV1Intersects(const QJsonObject &fields, const FieldSet &s);
bool fieldsV1ContainsAll(const QJsonObject &fields, const FieldSet &s);

/// One path element in text form: "f:spec" → ".spec", `k:{"name":"a"}` → `[name="a"]`,
/// `v:"x"` → `[="x"]`, "i:2" → "[2]".
QString pathElementText(const QString &element);

} // namespace opbench::apiserver
