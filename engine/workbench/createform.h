// SPDX-License-Identifier: Apache-2.0
#pragma once
// CreateForm: what the Children panel's create form offers for the operator's For kind, read
// from the definition alone (no widget): one field per property of the kind's spec in its CRD's
// openAPIV3Schema (string, integer, number, boolean, enum, list of strings; required and
// minimum/maximum kept), or — when the schema has a property no field can express (an object, a
// list of objects) or the kind has no CRD — a YAML text prefilled from the definition's first
// sample of that kind (else a skeleton). The result is an Object the engine creates
// (WorkbenchEngine::createObject), as every other create.
//
//   auto form = createFormFor(def);                    // Expected<CreateForm>
//   Object o = form->objectFrom("web", "default", {{"image", "nginx:1.25"}, {"replicas", 2}});
//   auto parsed = objectFromYaml(editedText);          // the YAML editor's text

#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/sdk/operatordefinition.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace opbench::workbench {

/// One editable property of the kind's spec.
struct FormField
{
    enum class Type { String, Integer, Number, Boolean, Enum, StringList };
    QString name; ///< the property under spec ("replicas")
    Type type = Type::String;
    bool required = false;
    std::optional<double> minimum; ///< integer/number: the schema's minimum
    std::optional<double> maximum;
    QStringList enumValues; ///< Enum: the allowed values
    QJsonValue defaultValue;
    QString description;

    /// "spec.replicas", as the server names the field in its errors.
    QString path() const { return QStringLiteral("spec.") + name; }
};

struct CreateForm
{
    GroupVersionKind gvk;
    bool namespaced = true;
    /// The spec's properties, required ones first, each group by name.
    QList<FormField> fields;
    /// False: some property has no field (unsupportedReason says which); offer the YAML text.
    bool formExpressible = false;
    QString unsupportedReason;
    /// The YAML editor's starting text: the definition's first sample of the kind, else a skeleton.
    QByteArray sampleYaml;
    /// The spec of that sample (the form's starting values; empty without a sample).
    QJsonObject sampleSpec;

    /// The object the form describes: `values` by field name; absent, null or empty-string values
    /// are left out (so the server's own defaulting and required checks apply).
    Object objectFrom(const QString &name, const QString &namespaceName, const QJsonObject &values) const;
};

/// The form for `def`'s For kind (def.kinds' first, else the first CRD's kind). Errors: the
/// definition has no kind at all, or its CRD does not parse.
Expected<CreateForm> createFormFor(const OperatorDefinition &def);
/// The For kind of `def`: its first kind, else the kind of its first CRD (invalid when neither).
GroupVersionKind forKindOf(const OperatorDefinition &def);
/// The single object of `yaml` (the YAML editor's text). Errors: not YAML, no object or more
/// than one, no apiVersion/kind.
Expected<Object> objectFromYaml(const QByteArray &yaml);

} // namespace opbench::workbench
