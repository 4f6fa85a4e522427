// SPDX-License-Identifier: Apache-2.0
#pragma once
// ChildrenPanel: the ownership tree of the operator's For kind (MyApplication -> Deployment ->
// ReplicaSet -> Pod, Guestbook -> ConfigMap, …) with replicas, availability, phases and
// conditions, and the actions a learner uses to poke the controller: delete the selected object
// (a child comes back), create an object of the For kind from the form its CRD describes
// (CreateFormWidget).

#include "engine/api/object.h"
#include "engine/workbench/createform.h"

#include <QWidget>

class QTreeView;

namespace opbench::ui {

class ChildrenTreeModel;
class CreateFormWidget;

class ChildrenPanel : public QWidget
{
    Q_OBJECT
public:
    ChildrenPanel(ChildrenTreeModel *model, workbench::CreateForm form, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    CreateFormWidget *createForm() const { return m_form; }
    /// Shows a server error under the create form, on the field it names (e.g. a 422 naming
    /// spec.replicas).
    void showCreateError(const QString &field, const QString &message);

Q_SIGNALS:
    void deleteRequested(const QString &kind, const QString &key);
    /// "Delete selected" with nothing selected (after a delete the selection is cleared, never
    /// moved to the owner): what to tell the user.
    void deleteRejected(const QString &message);
    void createRequested(const opbench::Object &object);

private:
    void onDelete();

    QTreeView *m_view;
    CreateFormWidget *m_form;
};

} // namespace opbench::ui
