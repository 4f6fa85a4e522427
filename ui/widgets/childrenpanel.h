// SPDX-License-Identifier: Apache-2.0
#pragma once
// ChildrenPanel: the ownership tree MyApplication -> Deployment -> ReplicaSet -> Pod with
// replicas, availability and phases, and the actions a learner uses to poke the controller:
// delete the selected object (a child comes back), create an app.

#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;
class QTreeView;

namespace opbench::ui {

class ChildrenTreeModel;

class ChildrenPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChildrenPanel(ChildrenTreeModel *model, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    /// Shows a server error under the create form (e.g. a 422 naming spec.replicas).
    void showCreateError(const QString &field, const QString &message);

Q_SIGNALS:
    void deleteRequested(const QString &kind, const QString &key);
    void createRequested(const QString &name, const QString &image, int replicas);

private:
    void onDelete();
    void onCreate();

    QTreeView *m_view;
    QLineEdit *m_name;
    QLineEdit *m_image;
    QSpinBox *m_replicas;
    QLabel *m_error;
};

} // namespace opbench::ui
