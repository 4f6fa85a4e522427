// SPDX-License-Identifier: Apache-2.0
#pragma once
// What opbench-init generates beyond plain substitution: the kinds `--owns` accepts (the built-in
// kinds with a typed view in the SDK) with the code each one adds to the reconciler, the RBAC
// role and the test, and the template language of resources/scaffold/*.in:
//
//   @NAME@                 a value (@KIND@, @LOWER@, @GROUP@, …, or a phrase such as @OWNS_PROSE@)
//   a line "@NAME@" alone  a block of lines (@CHILDREN@, @SPEC_FIELDS@, @RBAC_OWNED@, …); an
//                          empty block leaves no line
//   @if FLAG@ / @if !FLAG@ / @else@ / @endif@   lines kept or dropped (nestable); flags:
//                          finalizer, conditions, deployment (a Deployment is owned); for
//                          create webhook: defaulting, validation, conversion, admission
//                          (defaulting or validation), both (defaulting and validation)

#include "engine/api/kind.h"

#include <QList>
#include <QString>

#include <utility>

namespace opbench::init {

/// A built-in kind a scaffolded reconciler can own.
struct OwnedKind
{
    const KindInfo &(*info)();
    const char *var;    ///< the reconciler's createOrUpdate result ("dep")
    const char *param;  ///< the mutate lambda's parameter, also the test's ("d")
    const char *mutate; ///< the mutate body before setControllerReference (lines, 8-space indent)
    const char *holds;  ///< test: the child once reconciled from the spec make() writes (on `param`)
    const char *tamper; ///< test: an edit the reconcile undoes (on `child`)
    const char *prose;  ///< README: what the child is ("a ConfigMap holding `spec.data`")
    unsigned needs;     ///< the spec fields it reads (SpecField bits)

    [[nodiscard]] QString kind() const { return info().gvk.kind; }
    /// Whether the embedded API server (the generated test's and the workbench's cluster) serves
    /// the kind: its built-in REST mappings list it.
    [[nodiscard]] bool served() const;
    /// "apps/v1/Deployment", "v1/Service": how --owns names it.
    [[nodiscard]] QString flagValue() const { return info().gvk.apiVersion() + u'/' + kind(); }
};

/// The --owns values accepted (the kinds with a typed view that the embedded API server serves):
/// "v1/ConfigMap", "apps/v1/Deployment", …
QStringList supportedOwns();

/// Parses an --owns value (GROUP/VERSION/KIND; "core" or no group for the core group): the
/// kind, or nullptr with `error` naming the flag, the value and the kinds that are supported. A
/// kind with a typed view that the embedded API server does not serve (StatefulSet, Job) is
/// refused too: the generated test could not pass.
const OwnedKind *parseOwns(const QString &value, QString *error);

struct Project
{
    QString project, kind, lower, plural, group, version, ns;
    QList<const OwnedKind *> owns; ///< in the order given; never empty (default: ConfigMap)
    bool finalizer = false;
    bool conditions = false;
    // opbench-init create webhook (init_webhook.h)
    bool defaulting = false; ///< --defaulting
    bool validation = false; ///< --programmatic-validation
    bool conversion = false; ///< --conversion
    QString spoke;           ///< --spoke: the spoke version converted through `version`, the hub
};

/// The kinds scaffolded when no --owns is given (today's scaffold: a ConfigMap).
QList<const OwnedKind *> defaultOwns();

/// Renders one template for `p`.
QString render(const QByteArray &text, const Project &p);

/// The files `opbench-init` (init) writes: template name (resources/scaffold) → path in the project.
QList<std::pair<QString, QString>> scaffoldFiles(const Project &p);

/// What a flag's value must look like.
enum class Pattern {
    DnsName,    ///< example.org
    DnsLabel,   ///< webapp
    ApiVersion, ///< v1, v1alpha1, v2beta3
    KindName,   ///< Guestbook
};
/// "" when `value` (given as --`flag`) matches `pattern`, else the error naming the flag, the value
/// and what it must be ("--flag is required (…)" when empty).
QString checkFlag(const QString &value, const QString &flag, Pattern pattern);

} // namespace opbench::init
