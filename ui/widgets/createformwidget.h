// SPDX-License-Identifier: Apache-2.0
#pragma once
// CreateFormWidget: the Children panel's create form for the operator's For kind, built from a
// CreateForm (engine/workbench/createform.h): a name and one editor per spec field — a line edit
// for strings, a spin box for integers and numbers (the schema's minimum/maximum), a check box for
// booleans, a combo box for enums, a comma-separated line edit for lists of strings; required
// fields are marked "*"; the editors start at the definition's sample — or, when the schema has a field no editor
// expresses, a YAML editor prefilled from the definition's sample. "YAML" switches to the YAML editor at any time.
// Create emits createRequested(object); showError() marks the field a server error names.

#include "engine/workbench/createform.h"

#include <QHash>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;

namespace opbench::ui {

class CreateFormWidget : public QWidget
{
    Q_OBJECT
public:
    explicit CreateFormWidget(workbench::CreateForm form, QWidget *parent = nullptr);

    const workbench::CreateForm &form() const { return m_form; }
    /// The editor of spec field `name` (objectName "field_<name>"), null when there is none.
    QWidget *editor(const QString &name) const { return m_editors.value(name); }
    QLineEdit *nameEdit() const { return m_name; }
    QPlainTextEdit *yamlEdit() const { return m_yaml; }
    QPushButton *createButton() const { return m_create; }
    bool showsYaml() const;
    void setShowsYaml(bool yaml);
    /// The object the form (or the YAML editor) describes now; errors say what is wrong.
    Expected<Object> object() const;
    /// Marks the editor of the field a server error names (e.g. "spec.replicas"), else the name
    /// (or the YAML editor), and shows `message` under the form.
    void showError(const QString &field, const QString &message);
    void clearError();

Q_SIGNALS:
    void createRequested(const opbench::Object &object);

private:
    QWidget *buildFields();
    QWidget *makeEditor(const workbench::FormField &f);
    QJsonValue valueOf(const workbench::FormField &f) const;
    void setValue(const workbench::FormField &f, const QJsonValue &value);
    void onCreate();

    workbench::CreateForm m_form;
    QLineEdit *m_name;
    QHash<QString, QWidget *> m_editors; // field name -> editor
    QPlainTextEdit *m_yaml;
    QStackedWidget *m_stack;
    QPushButton *m_toggle;
    QPushButton *m_create;
    QLabel *m_error;
};

} // namespace opbench::ui
