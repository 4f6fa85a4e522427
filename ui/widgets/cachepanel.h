// SPDX-License-Identifier: Apache-2.0
#pragma once
// CachePanel: the cache tree with its filter box (label selector or text). Emits
// objectSelected() when the user picks an object row.

#include <QWidget>

class QLabel;
class QLineEdit;
class QTreeView;

namespace opbench::ui {

class CacheTreeModel;
class CacheFilterProxy;

class CachePanel : public QWidget
{
    Q_OBJECT
public:
    explicit CachePanel(CacheTreeModel *model, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    CacheFilterProxy *proxy() const { return m_proxy; }
    /// The selected object (kind, key), or empty strings.
    std::pair<QString, QString> selectedObject() const;
    /// Makes the object `key` of `kind` current (no-op when it is not in the tree).
    void select(const QString &kind, const QString &key);

Q_SIGNALS:
    void objectSelected(const QString &kind, const QString &key);

private:
    void onFilterChanged(const QString &text);
    void onCurrentChanged();
    void expandNew(const QModelIndex &parent, int first, int last);

    CacheTreeModel *m_model;
    CacheFilterProxy *m_proxy;
    QLineEdit *m_filter;
    QLabel *m_filterError;
    QTreeView *m_view;
};

} // namespace opbench::ui
