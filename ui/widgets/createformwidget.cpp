// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/createformwidget.h"

#include "engine/api/status.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace opbench::ui {

using workbench::FormField;

namespace {

constexpr int PairsPerRow = 3;
constexpr double NoLowerBound = -1e6;
constexpr double NoUpperBound = 1e9;

QString toolTipOf(const FormField &f)
{
    QStringList lines;
    lines << f.path() + (f.required ? QObject::tr(" (required)") : QString());
    if (!f.description.isEmpty())
        lines << f.description;
    if (f.minimum || f.maximum)
        lines << QObject::tr("from %1 to %2")
                     .arg(f.minimum ? QString::number(*f.minimum) : QStringLiteral("–"),
                         f.maximum ? QString::number(*f.maximum) : QStringLiteral("–"));
    if (!f.defaultValue.isUndefined())
        lines << QObject::tr("default: %1").arg(f.defaultValue.toVariant().toString());
    return lines.join(u'\n');
}

/// A spin box for an integer or number field: the schema's bounds; an optional field gets an
/// "(unset)" value just below its minimum, which leaves the field out.
template<typename Spin, typename Value> Spin *makeSpin(const FormField &f, QWidget *parent)
{
    auto *spin = new Spin(parent);
    const double lower = f.minimum.value_or(NoLowerBound);
    const double upper = f.maximum.value_or(NoUpperBound);
    const double unset = f.required ? lower : lower - 1;
    spin->setRange(Value(std::max(unset, double(INT_MIN + 1))), Value(std::min(upper, double(INT_MAX))));
    if (!f.required)
        spin->setSpecialValueText(QObject::tr("(unset)"));
    const double initial
        = f.defaultValue.isDouble() ? f.defaultValue.toDouble() : (f.required ? std::max(lower, 0.0) : unset);
    spin->setValue(Value(initial));
    return spin;
}

} // namespace

CreateFormWidget::CreateFormWidget(workbench::CreateForm form, QWidget *parent)
    : QWidget(parent)
    , m_form(std::move(form))
    , m_name(new QLineEdit(this))
    , m_yaml(new QPlainTextEdit(this))
    , m_stack(new QStackedWidget(this))
    , m_toggle(new QPushButton(tr("YAML"), this))
    , m_create(new QPushButton(tr("Create"), this))
    , m_error(new QLabel(this))
{
    m_name->setObjectName(QStringLiteral("field_name"));
    m_name->setPlaceholderText(tr("name"));
    m_name->setToolTip(tr("metadata.name (required)"));
    m_yaml->setObjectName(QStringLiteral("createYaml"));
    m_yaml->setPlainText(QString::fromUtf8(m_form.sampleYaml));
    m_yaml->setToolTip(m_form.formExpressible ? tr("The %1 to create, as YAML").arg(m_form.gvk.kind)
                                              : tr("The %1 to create, as YAML (the form cannot show it: %2)")
                                                    .arg(m_form.gvk.kind, m_form.unsupportedReason));
    m_stack->addWidget(buildFields());
    m_stack->addWidget(m_yaml);
    m_toggle->setObjectName(QStringLiteral("createYamlToggle"));
    m_toggle->setCheckable(true);
    m_toggle->setToolTip(tr("Edit the new %1 as YAML instead of the form").arg(m_form.gvk.kind));
    m_toggle->setVisible(m_form.formExpressible);
    m_create->setObjectName(QStringLiteral("createButton"));
    m_create->setToolTip(tr("Create the %1 through the operator's client").arg(m_form.gvk.kind));
    m_error->setObjectName(QStringLiteral("createError"));
    m_error->setStyleSheet(QStringLiteral("color: #d32f2f"));
    m_error->setWordWrap(true);
    m_error->setVisible(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(new QLabel(tr("New %1:").arg(m_form.gvk.kind), this));
    buttons->addStretch(1);
    buttons->addWidget(m_toggle);
    buttons->addWidget(m_create);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_stack);
    layout->addWidget(m_error);
    setShowsYaml(!m_form.formExpressible);
    connect(m_toggle, &QPushButton::toggled, this, &CreateFormWidget::setShowsYaml);
    connect(m_create, &QPushButton::clicked, this, &CreateFormWidget::onCreate);
}

QWidget *CreateFormWidget::buildFields()
{
    auto *page = new QWidget(this);
    auto *grid = new QGridLayout(page);
    grid->setContentsMargins(0, 0, 0, 0);
    auto add = [grid, page](int index, const QString &label, QWidget *editor) {
        auto *l = new QLabel(label, page);
        l->setBuddy(editor);
        grid->addWidget(l, index / PairsPerRow, 2 * (index % PairsPerRow));
        grid->addWidget(editor, index / PairsPerRow, 2 * (index % PairsPerRow) + 1);
    };
    add(0, tr("name*"), m_name);
    int index = 1;
    for (const FormField &f : std::as_const(m_form.fields)) {
        QWidget *editor = makeEditor(f);
        editor->setParent(page);
        editor->setObjectName(QStringLiteral("field_") + f.name);
        editor->setToolTip(toolTipOf(f));
        m_editors.insert(f.name, editor);
        add(index++, f.required ? f.name + u'*' : f.name, editor);
        if (m_form.sampleSpec.contains(f.name))
            setValue(f, m_form.sampleSpec.value(f.name));
    }
    for (int c = 1; c < 2 * PairsPerRow; c += 2)
        grid->setColumnStretch(c, 1);
    return page;
}

QWidget *CreateFormWidget::makeEditor(const FormField &f)
{
    switch (f.type) {
    case FormField::Type::Integer:
        return makeSpin<QSpinBox, int>(f, this);
    case FormField::Type::Number:
        return makeSpin<QDoubleSpinBox, double>(f, this);
    case FormField::Type::Boolean: {
        auto *box = new QCheckBox(this);
        box->setChecked(f.defaultValue.toBool());
        return box;
    }
    case FormField::Type::Enum: {
        auto *combo = new QComboBox(this);
        if (!f.required)
            combo->addItem(QString());
        combo->addItems(f.enumValues);
        if (f.defaultValue.isString())
            combo->setCurrentText(f.defaultValue.toString());
        return combo;
    }
    case FormField::Type::StringList: {
        auto *edit = new QLineEdit(this);
        edit->setPlaceholderText(tr("one, two, …"));
        return edit;
    }
    case FormField::Type::String:
        break;
    }
    auto *edit = new QLineEdit(this);
    edit->setPlaceholderText(f.defaultValue.isString() ? f.defaultValue.toString() : QString());
    return edit;
}

QJsonValue CreateFormWidget::valueOf(const FormField &f) const
{
    QWidget *w = m_editors.value(f.name);
    if (auto *spin = qobject_cast<QSpinBox *>(w))
        return !f.required && spin->value() == spin->minimum() ? QJsonValue() : QJsonValue(spin->value());
    if (auto *dspin = qobject_cast<QDoubleSpinBox *>(w))
        return !f.required && dspin->value() == dspin->minimum() ? QJsonValue() : QJsonValue(dspin->value());
    if (auto *box = qobject_cast<QCheckBox *>(w)) {
        const bool sameAsDefault
            = f.defaultValue.isBool() ? box->isChecked() == f.defaultValue.toBool() : !box->isChecked();
        return !f.required && sameAsDefault ? QJsonValue() : QJsonValue(box->isChecked());
    }
    if (auto *combo = qobject_cast<QComboBox *>(w))
        return combo->currentText();
    if (auto *edit = qobject_cast<QLineEdit *>(w))
        return edit->text().trimmed();
    return {};
}

void CreateFormWidget::setValue(const FormField &f, const QJsonValue &value)
{
    QWidget *w = m_editors.value(f.name);
    if (auto *spin = qobject_cast<QSpinBox *>(w))
        spin->setValue(value.toInt());
    else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(w))
        dspin->setValue(value.toDouble());
    else if (auto *box = qobject_cast<QCheckBox *>(w))
        box->setChecked(value.toBool());
    else if (auto *combo = qobject_cast<QComboBox *>(w))
        combo->setCurrentText(value.toString());
    else if (auto *edit = qobject_cast<QLineEdit *>(w)) {
        QStringList items;
        for (const auto &v : value.toArray())
            items.append(v.toString());
        edit->setText(value.isArray() ? items.join(QStringLiteral(", ")) : value.toVariant().toString());
    }
}

bool CreateFormWidget::showsYaml() const { return m_stack->currentWidget() == m_yaml; }

void CreateFormWidget::setShowsYaml(bool yaml)
{
    yaml = yaml || !m_form.formExpressible;
    m_stack->setCurrentIndex(yaml ? 1 : 0);
    m_toggle->setChecked(yaml);
    m_toggle->setText(yaml ? tr("Form") : tr("YAML"));
    m_stack->setMaximumHeight(yaml ? QWIDGETSIZE_MAX : m_stack->widget(0)->sizeHint().height());
}

Expected<Object> CreateFormWidget::object() const
{
    if (showsYaml())
        return workbench::objectFromYaml(m_yaml->toPlainText().toUtf8());
    QJsonObject values;
    for (const FormField &f : m_form.fields)
        values.insert(f.name, valueOf(f));
    return m_form.objectFrom(m_name->text().trimmed(), QString(), values);
}

void CreateFormWidget::onCreate()
{
    clearError();
    auto o = object();
    if (!o) {
        showError(QString(), o.error().message());
        return;
    }
    Q_EMIT createRequested(*o);
}

void CreateFormWidget::clearError()
{
    m_error->setVisible(false);
    for (QWidget *w : m_editors)
        w->setStyleSheet(QString());
    m_name->setStyleSheet(QString());
    m_yaml->setStyleSheet(QString());
}

void CreateFormWidget::showError(const QString &field, const QString &message)
{
    QWidget *target = showsYaml() ? static_cast<QWidget *>(m_yaml) : static_cast<QWidget *>(m_name);
    if (!showsYaml()) {
        for (const FormField &f : std::as_const(m_form.fields))
            if (field == f.path() || field.startsWith(f.path() + u'.') || field.startsWith(f.path() + u'['))
                target = m_editors.value(f.name);
    }
    target->setStyleSheet(QStringLiteral("border: 1px solid #d32f2f"));
    target->setToolTip(message);
    m_error->setText(message);
    m_error->setVisible(true);
}

} // namespace opbench::ui
