// SPDX-License-Identifier: Apache-2.0
#pragma once
// ChildrenTreeModel: the ownership tree below the operator's own kind (MyApplication ->
// Deployment -> ReplicaSet -> Pod for the sample; any owner chain for another operator), built
// from the same CacheBatch deltas as the cache tree by following each object's controller
// owner reference (uid). A child whose owner is not known yet waits, hidden, until it arrives.

#include "ui/session/snapshots.h"

#include <QAbstractItemModel>
#include <QHash>

#include <memory>
#include <unordered_map>

namespace opbench::ui {

class ChildrenTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Columns { NameColumn, StatusColumn, ColumnCount };
    enum Roles { KindRole = Qt::UserRole + 1, KeyRole, UidRole };

    /// Roots are objects of `rootKind` (the operator's For kind); the default is MyApplication.
    explicit ChildrenTreeModel(QObject *parent = nullptr);
    ChildrenTreeModel(QString rootKind, QObject *parent);
    const QString &rootKind() const { return m_rootKind; }
    ~ChildrenTreeModel() override;

    void apply(const opbench::workbench::CacheBatch &batch);
    /// The row of the object with `uid` (invalid when absent or not attached to an app yet).
    QModelIndex indexOfUid(const QString &uid) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node;
    bool isAttached(const Node *node) const;
    QModelIndex indexOfNode(const Node *node, int column = 0) const;
    void upsert(const QString &kind, const Object &object);
    void remove(const Object &object);
    void attach(Node *node, Node *parent);
    void detach(Node *node);

    QString m_rootKind;
    std::unique_ptr<Node> m_root;
    QHash<QString, Node *> m_byUid;             // every known node (owned by its parent's children or m_waiting)
    QHash<QString, QList<Node *>> m_waitingFor; // owner uid -> nodes waiting for it
    std::unordered_map<const Node *, std::unique_ptr<Node>> m_unattached; // owner not known (owned here)
};

/// "2/3", the status text the tree shows for an object of `kind`.
QString childStatusText(const QString &kind, const Object &object);

} // namespace opbench::ui
