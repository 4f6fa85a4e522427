// SPDX-License-Identifier: Apache-2.0
#include "ui/models/childrentreemodel.h"

#include "ui/models/objectbadge.h"
#include "ui/widgets/palette.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace opbench::ui {

struct ChildrenTreeModel::Node
{
    QString kind;
    Object object;
    Node *parent = nullptr;
    QString waitingFor;                          // owner uid while unattached
    std::vector<std::unique_ptr<Node>> children; // sorted by kind, then name

    int row() const
    {
        const auto &sib = parent->children;
        return int(
            std::find_if(sib.begin(), sib.end(), [this](const auto &n) { return n.get() == this; }) - sib.begin());
    }
};

namespace {

QString podReason(const Object &pod)
{
    for (const auto &cs : pod.value({QLatin1String("status"), QLatin1String("containerStatuses")}).toArray()) {
        const QString reason = cs.toObject()
                                   .value(QStringLiteral("state"))
                                   .toObject()
                                   .value(QStringLiteral("waiting"))
                                   .toObject()
                                   .value(QStringLiteral("reason"))
                                   .toString();
        if (!reason.isEmpty())
            return reason;
    }
    return {};
}

int intAt(const Object &o, QLatin1String a, QLatin1String b) { return o.value({a, b}).toInt(); }

} // namespace

QString childStatusText(const QString &kind, const Object &o)
{
    const QLatin1String status("status"), spec("spec"), replicas("replicas");
    if (kind == u"Deployment")
        return QObject::tr("%1/%2 available")
            .arg(intAt(o, status, QLatin1String("availableReplicas")))
            .arg(intAt(o, spec, replicas));
    if (kind == u"ReplicaSet")
        return QObject::tr("%1/%2 ready")
            .arg(intAt(o, status, QLatin1String("readyReplicas")))
            .arg(intAt(o, spec, replicas));
    const QString phase = o.value({status, QLatin1String("phase")}).toString();
    if (kind == u"Pod") {
        const QString reason = podReason(o);
        return reason.isEmpty() ? phase : QStringLiteral("%1 (%2)").arg(phase, reason);
    }
    // Custom resources: "Running 2/3" when they report a phase and available replicas (the
    // MyApplication convention), else the phase, else its Ready/Available condition.
    const bool counts = o.value({spec, replicas}).isDouble();
    if (phase.isEmpty() && !counts)
        return objectBadge(kind, o).text;
    if (!counts)
        return phase;
    return QStringLiteral("%1 %2/%3")
        .arg(phase.isEmpty() ? QStringLiteral("–") : phase)
        .arg(intAt(o, status, QLatin1String("availableReplicas")))
        .arg(intAt(o, spec, replicas));
}

ChildrenTreeModel::ChildrenTreeModel(QObject *parent)
    : ChildrenTreeModel(QStringLiteral("MyApplication"), parent)
{ }

ChildrenTreeModel::ChildrenTreeModel(QString rootKind, QObject *parent)
    : QAbstractItemModel(parent)
    , m_rootKind(std::move(rootKind))
    , m_root(std::make_unique<Node>())
{ }

ChildrenTreeModel::~ChildrenTreeModel() = default;

void ChildrenTreeModel::apply(const CacheBatch &batch)
{
    for (const CacheEntry &e : batch.entries) {
        if (e.kind.isEmpty())
            continue;
        if (e.op == CacheEntry::Op::Upsert)
            upsert(e.kind, e.object);
        else
            remove(e.object);
    }
}

bool ChildrenTreeModel::isAttached(const Node *node) const
{
    while (node && node != m_root.get())
        node = node->parent;
    return node == m_root.get();
}

void ChildrenTreeModel::attach(Node *node, Node *parent)
{
    auto it = m_unattached.find(node);
    if (it == m_unattached.end())
        return;
    std::unique_ptr<Node> owned = std::move(it->second);
    m_unattached.erase(it);
    auto &c = parent->children;
    const auto pos = std::lower_bound(c.begin(), c.end(), node, [](const auto &a, const Node *b) {
        return a->kind != b->kind ? a->kind < b->kind : a->object.name() < b->object.name();
    });
    const int row = int(pos - c.begin());
    const bool visible = isAttached(parent);
    if (visible)
        beginInsertRows(indexOfNode(parent), row, row);
    node->parent = parent;
    node->waitingFor.clear();
    c.insert(c.begin() + row, std::move(owned));
    if (visible)
        endInsertRows();
}

void ChildrenTreeModel::detach(Node *node)
{
    Node *parent = node->parent;
    if (!parent)
        return;
    const int row = node->row();
    const bool visible = isAttached(parent);
    if (visible)
        beginRemoveRows(indexOfNode(parent), row, row);
    m_unattached.emplace(node, std::move(parent->children[size_t(row)]));
    parent->children.erase(parent->children.begin() + row);
    node->parent = nullptr;
    if (visible)
        endRemoveRows();
}

void ChildrenTreeModel::upsert(const QString &kind, const Object &object)
{
    const QString uid = object.uid();
    if (Node *n = m_byUid.value(uid)) {
        n->object = object;
        if (isAttached(n))
            Q_EMIT dataChanged(indexOfNode(n, 0), indexOfNode(n, ColumnCount - 1));
        return;
    }
    auto owned = std::make_unique<Node>();
    Node *node = owned.get();
    node->kind = kind;
    node->object = object;
    m_byUid.insert(uid, node);
    m_unattached.emplace(node, std::move(owned));
    Node *parent = nullptr;
    if (kind == m_rootKind) {
        parent = m_root.get();
    } else if (const auto ref = object.controllerReference()) {
        parent = m_byUid.value(ref->uid);
        if (!parent) {
            node->waitingFor = ref->uid;
            m_waitingFor[ref->uid].append(node);
        }
    }
    if (parent)
        attach(node, parent);
    for (Node *child : m_waitingFor.take(uid))
        attach(child, node);
}

void ChildrenTreeModel::remove(const Object &object)
{
    Node *node = m_byUid.take(object.uid());
    if (!node)
        return;
    if (!node->waitingFor.isEmpty())
        m_waitingFor[node->waitingFor].removeAll(node);
    detach(node); // now owned by m_unattached
    // Its children wait for an owner that will not come back (a re-created object has a new uid).
    while (!node->children.empty())
        detach(node->children.back().get());
    for (const auto &entry : m_unattached) {
        const auto &n = entry.second;
        if (n->parent == nullptr && n.get() != node && n->waitingFor.isEmpty() && n->kind != m_rootKind
            && n->object.controllerReference() && n->object.controllerReference()->uid == object.uid()) {
            n->waitingFor = object.uid();
            m_waitingFor[object.uid()].append(n.get());
        }
    }
    m_unattached.erase(node);
}

QModelIndex ChildrenTreeModel::indexOfUid(const QString &uid) const
{
    const Node *n = m_byUid.value(uid);
    return n && isAttached(n) ? indexOfNode(n) : QModelIndex();
}

QModelIndex ChildrenTreeModel::indexOfNode(const Node *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row(), column, const_cast<Node *>(node));
}

QModelIndex ChildrenTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Node *p = parent.isValid() ? static_cast<Node *>(parent.internalPointer()) : m_root.get();
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex ChildrenTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOfNode(static_cast<Node *>(child.internalPointer())->parent);
}

int ChildrenTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const Node *p = parent.isValid() ? static_cast<Node *>(parent.internalPointer()) : m_root.get();
    return int(p->children.size());
}

int ChildrenTreeModel::columnCount(const QModelIndex &) const { return ColumnCount; }

QVariant ChildrenTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? tr("Object") : tr("Status");
}

QVariant ChildrenTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &n = *static_cast<Node *>(index.internalPointer());
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == NameColumn ? QStringLiteral("%1 %2").arg(n.kind, n.object.name())
                                            : childStatusText(n.kind, n.object);
    case Qt::ForegroundRole: {
        if (index.column() != StatusColumn)
            return {};
        const QString text = childStatusText(n.kind, n.object);
        if (text.startsWith(QStringLiteral("Failed")) || text.contains(QStringLiteral("BackOff")))
            return resultColour(ResultColour::Error);
        if (text.startsWith(QStringLiteral("Running")))
            return resultColour(ResultColour::Success);
        return {};
    }
    case Qt::ToolTipRole:
        return index.column() == StatusColumn ? QVariant(objectBadge(n.kind, n.object).toolTip)
                                              : QVariant(n.object.key());
    case BadgeTextRole:
        return index.column() == StatusColumn ? QVariant(objectBadge(n.kind, n.object).text) : QVariant();
    case BadgeColourRole:
        return index.column() == StatusColumn ? QVariant(objectBadge(n.kind, n.object).colour) : QVariant();
    case KindRole:
        return n.kind;
    case KeyRole:
        return n.object.key();
    case UidRole:
        return n.object.uid();
    default:
        return {};
    }
}

} // namespace opbench::ui
