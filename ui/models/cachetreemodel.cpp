// SPDX-License-Identifier: Apache-2.0
#include "ui/models/cachetreemodel.h"

#include "ui/models/objectbadge.h"

#include <QColor>
#include <QMap>
#include <QVariantMap>

#include <algorithm>

namespace opbench::ui {

struct CacheTreeModel::Node
{
    NodeType type = NodeType::Kind;
    QString name;
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children; // namespaces and objects: sorted by name
    Object object;                               // objects
    InformerState state;                         // kinds
    int objects = 0;                             // kinds and namespaces: objects below

    /// Namespaces and objects: binary search (siblings sorted by name); kinds: a short scan.
    int row() const
    {
        if (!parent)
            return 0;
        const auto &sib = parent->children;
        if (type != NodeType::Kind) {
            const auto it = std::lower_bound(
                sib.begin(), sib.end(), name, [](const auto &n, const QString &v) { return n->name < v; });
            return int(it - sib.begin());
        }
        const auto it = std::find_if(sib.begin(), sib.end(), [this](const auto &n) { return n.get() == this; });
        return int(it - sib.begin());
    }
};

QString clusterScopeName() { return QStringLiteral("(cluster)"); }

namespace {
QString namespaceOf(const Object &o) { return o.namespaceName().isEmpty() ? clusterScopeName() : o.namespaceName(); }
} // namespace

CacheTreeModel::CacheTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{ }

CacheTreeModel::~CacheTreeModel() = default;

void CacheTreeModel::apply(const CacheBatch &batch)
{
    for (const InformerState &s : batch.informers)
        setState(s);
    const qint64 oldest = batch.oldestRv.toLongLong();
    const qint64 latest = latestRv();
    if (oldest != m_oldestRv || latest != m_lastLatestRv) {
        m_oldestRv = oldest;
        m_lastLatestRv = latest;
        Q_EMIT historyRangeChanged(oldest, latest);
    }
    // One pass per (kind, namespace): the last entry for an object wins, names come sorted, so
    // new rows go in as a few contiguous ranges instead of one insert each.
    QMap<std::pair<QString, QString>, QMap<QString, const CacheEntry *>> groups;
    for (const CacheEntry &e : batch.entries)
        groups[{e.kind, namespaceOf(e.object)}].insert(e.object.name(), &e);
    for (auto it = groups.cbegin(); it != groups.cend(); ++it)
        applyGroup(it.key().first, it.key().second, it.value());
}

int CacheTreeModel::syncedCount() const
{
    return int(
        std::count_if(m_root->children.begin(), m_root->children.end(), [](const auto &k) { return k->state.synced; }));
}

int CacheTreeModel::informerCount() const { return int(m_root->children.size()); }

CacheTreeModel::Node *CacheTreeModel::kindNode(const QString &kind, bool create)
{
    for (const auto &k : m_root->children) {
        if (k->name == kind)
            return k.get();
    }
    if (!create)
        return nullptr;
    const int row = int(m_root->children.size());
    beginInsertRows({}, row, row);
    auto node = std::make_unique<Node>();
    node->type = NodeType::Kind;
    node->name = kind;
    node->parent = m_root.get();
    node->state.kind = kind;
    m_root->children.push_back(std::move(node));
    endInsertRows();
    return m_root->children.back().get();
}

CacheTreeModel::Node *CacheTreeModel::childNode(Node *parent, const QString &name, NodeType type, bool create)
{
    auto &c = parent->children;
    auto it = std::lower_bound(c.begin(), c.end(), name, [](const auto &n, const QString &v) { return n->name < v; });
    if (it != c.end() && (*it)->name == name)
        return it->get();
    if (!create)
        return nullptr;
    const int row = int(it - c.begin());
    beginInsertRows(indexOfNode(parent), row, row);
    auto node = std::make_unique<Node>();
    node->type = type;
    node->name = name;
    node->parent = parent;
    Node *raw = node.get();
    c.insert(c.begin() + row, std::move(node));
    endInsertRows();
    return raw;
}

void CacheTreeModel::applyGroup(
    const QString &kind, const QString &ns, const QMap<QString, const CacheEntry *> &entries)
{
    const bool anyUpsert = std::any_of(
        entries.cbegin(), entries.cend(), [](const CacheEntry *e) { return e->op == CacheEntry::Op::Upsert; });
    Node *k = kindNode(kind, anyUpsert);
    if (!k)
        return;
    Node *n = childNode(k, ns, NodeType::Namespace, false);
    std::vector<std::unique_ptr<Node>> added; // sorted by name (the map's order)
    QList<int> updated;
    QList<int> removed;
    for (auto it = entries.cbegin(); it != entries.cend(); ++it) {
        Node *existing = n ? childNode(n, it.key(), NodeType::Object, false) : nullptr;
        if (it.value()->op == CacheEntry::Op::Remove) {
            if (existing)
                removed.append(existing->row());
        } else if (existing) {
            existing->object = it.value()->object;
            updated.append(existing->row());
        } else {
            auto node = std::make_unique<Node>();
            node->type = NodeType::Object;
            node->name = it.key();
            node->object = it.value()->object;
            added.push_back(std::move(node));
        }
    }
    if (n) {
        emitRowRanges(n, updated);
        removeRowRanges(n, removed);
    }
    const int delta = int(added.size()) - int(removed.size());
    if (!added.empty())
        n = insertObjects(k, n, ns, std::move(added));
    k->objects += delta;
    m_objectCount += delta;
    if (n && n->children.empty())
        removeNamespace(k, n);
    else if (n && delta != 0)
        countsChanged(n);
    if (delta != 0)
        countsChanged(k);
}

void CacheTreeModel::emitRowRanges(Node *parent, QList<int> rows)
{
    std::sort(rows.begin(), rows.end());
    for (qsizetype i = 0; i < rows.size();) {
        qsizetype j = i;
        while (j + 1 < rows.size() && rows[j + 1] == rows[j] + 1)
            ++j;
        const QModelIndex p = indexOfNode(parent);
        Q_EMIT dataChanged(index(rows[i], 0, p), index(rows[j], ColumnCount - 1, p));
        i = j + 1;
    }
}

void CacheTreeModel::removeRowRanges(Node *parent, QList<int> rows)
{
    std::sort(rows.begin(), rows.end());
    auto &c = parent->children;
    for (qsizetype j = rows.size() - 1; j >= 0;) {
        qsizetype i = j;
        while (i > 0 && rows[i - 1] == rows[i] - 1)
            --i;
        beginRemoveRows(indexOfNode(parent), rows[i], rows[j]);
        c.erase(c.begin() + rows[i], c.begin() + rows[j] + 1);
        endRemoveRows();
        j = i - 1;
    }
    parent->objects = int(c.size());
}

CacheTreeModel::Node *CacheTreeModel::insertObjects(
    Node *k, Node *n, const QString &ns, std::vector<std::unique_ptr<Node>> added)
{
    if (!n) {
        // A new namespace arrives with all its objects in one row insert.
        auto node = std::make_unique<Node>();
        node->type = NodeType::Namespace;
        node->name = ns;
        node->parent = k;
        for (auto &o : added)
            o->parent = node.get();
        node->children = std::move(added);
        node->objects = int(node->children.size());
        Node *raw = node.get();
        auto &kc = k->children;
        const auto pos
            = std::lower_bound(kc.begin(), kc.end(), ns, [](const auto &x, const QString &v) { return x->name < v; });
        const int row = int(pos - kc.begin());
        beginInsertRows(indexOfNode(k), row, row);
        kc.insert(kc.begin() + row, std::move(node));
        endInsertRows();
        return raw;
    }
    for (auto &o : added)
        o->parent = n;
    auto &c = n->children;
    // Back to front: each run of new names that falls between the same two existing rows is
    // one beginInsertRows; earlier positions stay valid.
    for (size_t end = added.size(); end > 0;) {
        const auto pos = std::lower_bound(
            c.begin(), c.end(), added[end - 1]->name, [](const auto &x, const QString &v) { return x->name < v; });
        const int row = int(pos - c.begin());
        size_t start = end - 1;
        while (start > 0 && (row == 0 || c[size_t(row) - 1]->name < added[start - 1]->name))
            --start;
        beginInsertRows(indexOfNode(n), row, row + int(end - start) - 1);
        c.insert(c.begin() + row, std::make_move_iterator(added.begin() + qsizetype(start)),
            std::make_move_iterator(added.begin() + qsizetype(end)));
        endInsertRows();
        end = start;
    }
    n->objects = int(c.size());
    return n;
}

void CacheTreeModel::removeNamespace(Node *k, Node *n)
{
    const int row = n->row();
    beginRemoveRows(indexOfNode(k), row, row);
    k->children.erase(k->children.begin() + row);
    endRemoveRows();
}

qint64 CacheTreeModel::latestRv() const
{
    qint64 latest = 0;
    for (const auto &k : m_root->children)
        latest = std::max({latest, k->state.latestRv.toLongLong(), k->state.lastSyncRv.toLongLong()});
    return latest;
}

int CacheTreeModel::objectCount(const QString &kind) const
{
    for (const auto &k : m_root->children) {
        if (k->name == kind)
            return k->objects;
    }
    return 0;
}

void CacheTreeModel::setState(const InformerState &state)
{
    Node *k = kindNode(state.kind, true);
    const InformerState &old = k->state;
    if (old.synced == state.synced && old.lastSyncRv == state.lastSyncRv && old.latestRv == state.latestRv)
        return;
    k->state = state;
    countsChanged(k);
}

void CacheTreeModel::countsChanged(Node *node)
{
    Q_EMIT dataChanged(indexOfNode(node, 0), indexOfNode(node, ColumnCount - 1));
}

QModelIndex CacheTreeModel::indexOf(const QString &kind, const QString &key) const
{
    auto *self = const_cast<CacheTreeModel *>(this);
    Node *k = self->kindNode(kind, false);
    if (!k)
        return {};
    const qsizetype slash = key.indexOf(u'/');
    const QString ns = slash < 0 ? clusterScopeName() : key.left(slash);
    Node *n = self->childNode(k, ns, NodeType::Namespace, false);
    Node *o = n ? self->childNode(n, key.mid(slash + 1), NodeType::Object, false) : nullptr;
    return o ? indexOfNode(o) : QModelIndex();
}

CacheTreeModel::Node *CacheTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex CacheTreeModel::indexOfNode(const Node *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row(), column, const_cast<Node *>(node));
}

QModelIndex CacheTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Node *p = nodeOf(parent);
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex CacheTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOfNode(nodeOf(child)->parent);
}

int CacheTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int CacheTreeModel::columnCount(const QModelIndex &) const { return ColumnCount; }

QVariant CacheTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? tr("Object") : tr("State / resourceVersion");
}

QVariant CacheTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &node = *nodeOf(index);
    if (role == NodeTypeRole)
        return int(node.type);
    if (role == KindRole) {
        const Node *k = &node;
        while (k->parent && k->parent->parent)
            k = k->parent;
        return k->name;
    }
    if (node.type == NodeType::Object)
        return objectData(node, index.column(), role);
    if (node.type == NodeType::Kind)
        return kindData(node, index.column(), role);
    if (role == Qt::DisplayRole && index.column() == NameColumn)
        return QStringLiteral("%1 (%2)").arg(node.name).arg(node.objects);
    return {};
}

QVariant CacheTreeModel::kindData(const Node &node, int column, int role) const
{
    const InformerState &s = node.state;
    if (role == Qt::DisplayRole) {
        if (column == NameColumn)
            return QStringLiteral("%1 (%2)").arg(node.name).arg(node.objects);
        const QString rv = s.latestRv.isEmpty() ? QStringLiteral("–") : s.latestRv;
        return s.synced ? tr("synced ✓ · rv %1").arg(rv) : tr("syncing… · rv %1").arg(rv);
    }
    if (role == Qt::ForegroundRole && column == InfoColumn)
        return s.synced ? QColor(0x2e, 0x7d, 0x32) : QColor(0x75, 0x75, 0x75);
    if (role == Qt::ToolTipRole) {
        return tr("Informer for %1: %2. Last LIST at resourceVersion %3; newest event %4.")
            .arg(node.name, s.synced ? tr("synced") : tr("not synced yet"),
                s.lastSyncRv.isEmpty() ? tr("(none)") : s.lastSyncRv, s.latestRv.isEmpty() ? tr("(none)") : s.latestRv);
    }
    return {};
}

QVariant CacheTreeModel::objectData(const Node &node, int column, int role) const
{
    const Object &o = node.object;
    switch (role) {
    case Qt::DisplayRole:
        return column == NameColumn ? node.name : tr("rv %1").arg(o.resourceVersion());
    case Qt::ForegroundRole:
        return o.isBeingDeleted() ? QVariant(QColor(0x9e, 0x9e, 0x9e)) : QVariant();
    case Qt::ToolTipRole: {
        const QString what = o.isBeingDeleted() ? tr("%1 is being deleted").arg(o.key()) : o.key();
        const ObjectBadge badge = objectBadge(node.parent->parent->name, o);
        return badge.isEmpty() ? what : what + u'\n' + badge.toolTip;
    }
    case BadgeTextRole:
        return column == InfoColumn ? QVariant(objectBadge(node.parent->parent->name, o).text) : QVariant();
    case BadgeColourRole:
        return column == InfoColumn ? QVariant(objectBadge(node.parent->parent->name, o).colour) : QVariant();
    case KeyRole:
        return o.key();
    case ResourceVersionRole:
        return o.resourceVersion();
    case LabelsRole: {
        QVariantMap m;
        for (auto it = o.labels().cbegin(); it != o.labels().cend(); ++it)
            m.insert(it.key(), it.value());
        return m;
    }
    case ObjectRole:
        return QVariant::fromValue(o);
    default:
        return {};
    }
}

} // namespace opbench::ui
