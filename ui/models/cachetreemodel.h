// SPDX-License-Identifier: Apache-2.0
#pragma once
// CacheTreeModel: the informer cache as a tree kind -> namespace -> object, with counts, each
// informer's sync state and resourceVersions. Applies CacheBatch deltas with the proper
// insert/remove/dataChanged signals, so views keep their selection and expansion.

#include "ui/session/snapshots.h"

#include <QAbstractItemModel>
#include <QMap>

#include <memory>
#include <vector>

namespace opbench::ui {

class CacheTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Columns { NameColumn, InfoColumn, ColumnCount };
    enum Roles {
        NodeTypeRole = Qt::UserRole + 1, ///< NodeType as int
        KindRole,                        ///< the kind of the row (every level)
        KeyRole,                         ///< objects: "ns/name" (or "name")
        LabelsRole,                      ///< objects: QVariantMap of labels
        ResourceVersionRole,             ///< objects: metadata.resourceVersion
        ObjectRole,                      ///< objects: the opbench::Object
        // InfoColumn of objects: BadgeTextRole / BadgeColourRole (ui/models/objectbadge.h), the
        // phase or available/desired pill.
    };
    enum class NodeType { Kind, Namespace, Object };

    explicit CacheTreeModel(QObject *parent = nullptr);
    ~CacheTreeModel() override;

    /// Applies one batch (upserts, removals, informer states).
    void apply(const opbench::workbench::CacheBatch &batch);
    /// Objects currently in the tree.
    int objectCount() const { return m_objectCount; }
    /// Objects of `kind` in the tree (0 for an unknown kind).
    int objectCount(const QString &kind) const;
    /// Informers synced / informers known.
    int syncedCount() const;
    int informerCount() const;
    /// The index of an object row (invalid when absent).
    QModelIndex indexOf(const QString &kind, const QString &key) const;
    /// Time travel: the oldest resourceVersion the informers' histories can rebuild and the
    /// newest one seen (0 when unknown).
    qint64 oldestRv() const { return m_oldestRv; }
    qint64 latestRv() const;

Q_SIGNALS:
    /// oldestRv() or latestRv() changed.
    void historyRangeChanged(qint64 oldest, qint64 latest);

public:
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node;
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOfNode(const Node *node, int column = 0) const;
    Node *kindNode(const QString &kind, bool create);
    Node *childNode(Node *parent, const QString &name, NodeType type, bool create);
    void applyGroup(const QString &kind, const QString &ns, const QMap<QString, const CacheEntry *> &entries);
    void emitRowRanges(Node *parent, QList<int> rows);
    void removeRowRanges(Node *parent, QList<int> rows);
    Node *insertObjects(Node *k, Node *n, const QString &ns, std::vector<std::unique_ptr<Node>> added);
    void removeNamespace(Node *k, Node *n);
    void setState(const InformerState &state);
    void countsChanged(Node *node);
    QVariant kindData(const Node &node, int column, int role) const;
    QVariant objectData(const Node &node, int column, int role) const;

    std::unique_ptr<Node> m_root;
    int m_objectCount = 0;
    qint64 m_oldestRv = 0;
    qint64 m_lastLatestRv = 0;
};

/// Namespace row name for cluster-scoped objects.
QString clusterScopeName();

} // namespace opbench::ui
