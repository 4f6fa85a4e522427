// SPDX-License-Identifier: Apache-2.0
#include "ui/models/cachetreemodel.h"

#include <QColor>
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

    int row() const
    {
        if (!parent)
            return 0;
        const auto &sib = parent->children;
        for (size_t i = 0; i < sib.size(); ++i) {
            if (sib[i].get() == this)
                return int(i);
        }
        return -1;
    }
};

QString clusterScopeName()
{
    return QStringLiteral("(cluster)");
}

CacheTreeModel::CacheTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{
}

CacheTreeModel::~CacheTreeModel() = default;

void CacheTreeModel::apply(const CacheBatch &batch)
{
    for (const InformerState &s : batch.informers)
        setState(s);
    for (const CacheEntry &e : batch.entries) {
        if (e.op == CacheEntry::Op::Upsert)
            upsert(e.kind, e.object);
        else
            remove(e.kind, e.object);
    }
}

int CacheTreeModel::syncedCount() const
{
    return int(std::count_if(m_root->children.begin(), m_root->children.end(),
                             [](const auto &k) { return k->state.synced; }));
}

int CacheTreeModel::informerCount() const
{
    return int(m_root->children.size());
}

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

void CacheTreeModel::upsert(const QString &kind, const Object &object)
{
    Node *k = kindNode(kind, true);
    const QString ns = object.namespaceName().isEmpty() ? clusterScopeName() : object.namespaceName();
    Node *n = childNode(k, ns, NodeType::Namespace, true);
    Node *existing = childNode(n, object.name(), NodeType::Object, false);
    if (existing) {
        existing->object = object;
        Q_EMIT dataChanged(indexOfNode(existing, 0), indexOfNode(existing, ColumnCount - 1));
        return;
    }
    Node *o = childNode(n, object.name(), NodeType::Object, true);
    o->object = object;
    ++n->objects;
    ++k->objects;
    ++m_objectCount;
    Q_EMIT dataChanged(indexOfNode(o, 0), indexOfNode(o, ColumnCount - 1));
    countsChanged(n);
    countsChanged(k);
}

void CacheTreeModel::remove(const QString &kind, const Object &object)
{
    Node *k = kindNode(kind, false);
    const QString ns = object.namespaceName().isEmpty() ? clusterScopeName() : object.namespaceName();
    Node *n = k ? childNode(k, ns, NodeType::Namespace, false) : nullptr;
    Node *o = n ? childNode(n, object.name(), NodeType::Object, false) : nullptr;
    if (!o)
        return;
    const int row = o->row();
    beginRemoveRows(indexOfNode(n), row, row);
    n->children.erase(n->children.begin() + row);
    endRemoveRows();
    --n->objects;
    --k->objects;
    --m_objectCount;
    if (n->children.empty()) {
        const int nrow = n->row();
        beginRemoveRows(indexOfNode(k), nrow, nrow);
        k->children.erase(k->children.begin() + nrow);
        endRemoveRows();
    } else {
        countsChanged(n);
    }
    countsChanged(k);
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

int CacheTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

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
    case Qt::ToolTipRole:
        return o.isBeingDeleted() ? tr("%1 is being deleted").arg(o.key()) : o.key();
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
