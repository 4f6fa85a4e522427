// SPDX-License-Identifier: Apache-2.0
// opbench-init: scaffolds a standalone operator project on the installed opbench SDK, the way
// `kubebuilder init` + `kubebuilder create api` do:
//
//   opbench-init --domain example.org --group webapp --version v1 --kind Guestbook [DIR]
//       [--owns apps/v1/Deployment --owns v1/Service] [--finalizer] [--conditions]
//
// writes CMakeLists.txt (find_package(opbench)), the CRD, a sample, the typed view, a reconciler
// with the idempotent get → ensure children → status pattern (a child per --owns kind, a
// ConfigMap by default; a finalizer with a cleanup step; status conditions), RBAC rules for
// what it owns, the OperatorDefinition, main.cpp
// (runOperator: kubebuilder flags), workbench_main.cpp (runWorkbench), a Qt Test that runs the
// reconciler against the embedded API server over loopback, a Containerfile, RBAC and manager
// manifests. It configures, builds and passes its test with no edit. DIR (default: the current
// folder) must be empty or absent: an existing project is never overwritten.
//
//   opbench-init create webhook --group G --version V --kind K [--defaulting]
//       [--programmatic-validation] [--conversion --spoke V2] [DIR]
//
// adds the kind's webhooks to a project it scaffolded (init_webhook.h, docs/webhooks.md).
#include "engine/api/version.h"
#include "init_scaffold.h"
#include "init_webhook.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstdio>

namespace {

int fail(const QString &message, int code = 2)
{
    std::fprintf(stderr, "opbench-init: %s\n", qPrintable(message));
    return code;
}

void addOptions(QCommandLineParser &p)
{
    // --version is the API version (kubebuilder's flag), so there is no "print the version" option:
    // the description names it.
    p.setApplicationDescription(
        QStringLiteral("opbench-init %1: scaffold a standalone operator project on the installed "
                       "opbench SDK. Then `opbench-init create webhook --help`: add a kind's defaulting, "
                       "validating and conversion webhooks to it.")
            .arg(opbench::version()));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("domain"), QStringLiteral("The API domain (example.org)."), QStringLiteral("domain")},
        {QStringLiteral("group"), QStringLiteral("The API group's first label (webapp → webapp.<domain>)."),
            QStringLiteral("group")},
        {QStringLiteral("version"), QStringLiteral("The API version (v1, v1alpha1, v2beta3)."),
            QStringLiteral("version")},
        {QStringLiteral("kind"), QStringLiteral("The kind, UpperCamelCase (Guestbook)."), QStringLiteral("kind")},
        {QStringLiteral("plural"), QStringLiteral("The resource name (default: the kind in lower case + \"s\")."),
            QStringLiteral("plural")},
        {QStringLiteral("project"), QStringLiteral("The project name (default: the folder's name)."),
            QStringLiteral("name")},
        {QStringLiteral("owns"),
            QStringLiteral("A kind the reconciler owns, as GROUP/VERSION/KIND (apps/v1/Deployment; v1/Service or "
                           "core/v1/Service for the core group); repeatable. Each gets a child named after the "
                           "object (createOrUpdate + setControllerReference), .owns<Kind>() on the controller, an "
                           "RBAC rule and a test assertion. Kinds: %1. Default: v1/ConfigMap.")
                .arg(opbench::init::supportedOwns().join(QStringLiteral(", "))),
            QStringLiteral("kind")},
        {QStringLiteral("finalizer"),
            QStringLiteral("Add the finalizer <group>/finalizer on the first reconcile; on deletion run a cleanup "
                           "step (your code, an Event recorded), then remove it.")},
        {QStringLiteral("conditions"),
            QStringLiteral("Give the status conditions (Available, Progressing, Degraded, set with "
                           "setStatusCondition) instead of a phase.")},
    });
    p.addPositionalArgument(
        QStringLiteral("dir"), QStringLiteral("Where to write the project (default: the current folder)."));
}

/// 0 when `dir` may be scaffolded into (absent or empty), else fail()'s code.
int refuseTarget(const QDir &dir)
{
    if (QFileInfo(dir.absolutePath()).isFile())
        return fail(QStringLiteral("%1 is a file, not a folder").arg(dir.absolutePath()));
    if (dir.exists()) {
        const QStringList entries
            = dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        if (!entries.isEmpty())
            return fail(
                QStringLiteral("refusing to scaffold into %1: it is not empty (%2 entries, e.g. %3); an existing "
                               "project is never overwritten. Pick an empty or new folder.")
                    .arg(dir.absolutePath())
                    .arg(entries.size())
                    .arg(entries.first()),
                1);
    }
    return 0;
}

/// Writes every template, rendered for `n`, under `dir`: 0, else fail()'s code.
int writeFiles(const QDir &dir, const opbench::init::Project &n)
{
    for (const auto &[templ, out] : opbench::init::scaffoldFiles(n)) {
        QFile in(QStringLiteral(":/opbench/scaffold/") + templ);
        if (!in.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("template %1 is missing from this build").arg(templ), 1);
        const QString path = dir.absoluteFilePath(out);
        if (!QDir().mkpath(QFileInfo(path).absolutePath()))
            return fail(QStringLiteral("cannot create the folder of %1").arg(path), 1);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly))
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()), 1);
        f.write(opbench::init::render(in.readAll(), n).toUtf8());
        std::printf("  wrote %s\n", qPrintable(out));
    }
    return 0;
}

/// Reads --owns, --finalizer and --conditions into `n`: 0, else fail()'s code.
int readFeatures(const QCommandLineParser &p, opbench::init::Project &n)
{
    for (const QString &value : p.values(QStringLiteral("owns"))) {
        QString error;
        const opbench::init::OwnedKind *owned = opbench::init::parseOwns(value, &error);
        if (!owned)
            return fail(error);
        if (!n.owns.contains(owned))
            n.owns.append(owned);
    }
    if (n.owns.isEmpty())
        n.owns = opbench::init::defaultOwns();
    for (const opbench::init::OwnedKind *owned : std::as_const(n.owns))
        if (owned->kind() == n.kind)
            return fail(
                QStringLiteral("--kind %1 is also a kind the reconciler owns (%2%3): the generated code "
                               "could not tell them apart; choose another --kind")
                    .arg(n.kind, owned->flagValue(),
                        p.isSet(QStringLiteral("owns")) ? QString() : QStringLiteral(", the default of --owns")));
    n.finalizer = p.isSet(QStringLiteral("finalizer"));
    n.conditions = p.isSet(QStringLiteral("conditions"));
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("opbench-init"));
    QCoreApplication::setApplicationVersion(opbench::version());
    // `opbench-init create webhook …`: kubebuilder's second step, on a scaffolded project.
    const QStringList args = QCoreApplication::arguments();
    if (args.value(1) == QLatin1String("create"))
        return opbench::init::createMain(args);
    QCommandLineParser p;
    addOptions(p);
    p.process(app);

    using namespace opbench::init;
    const QString domain = p.value(QStringLiteral("domain"));
    const QString group = p.value(QStringLiteral("group"));
    const QString version = p.value(QStringLiteral("version"));
    const QString kind = p.value(QStringLiteral("kind"));
    for (const QString &error : {checkFlag(domain, QStringLiteral("domain"), Pattern::DnsName),
             checkFlag(group, QStringLiteral("group"), Pattern::DnsLabel),
             checkFlag(version, QStringLiteral("version"), Pattern::ApiVersion),
             checkFlag(kind, QStringLiteral("kind"), Pattern::KindName)})
        if (!error.isEmpty())
            return fail(error);

    opbench::init::Project n;
    n.kind = kind;
    if (const int invalid = readFeatures(p, n))
        return invalid;
    const QString dirArg = p.positionalArguments().value(0, QStringLiteral("."));
    const QDir dir(QDir::current().absoluteFilePath(dirArg));
    if (const int refused = refuseTarget(dir))
        return refused;

    n.lower = kind.toLower();
    n.plural = p.isSet(QStringLiteral("plural")) ? p.value(QStringLiteral("plural")) : n.lower + u's';
    if (!checkFlag(n.plural, QStringLiteral("plural"), Pattern::DnsLabel).isEmpty())
        return fail(QStringLiteral("--plural \"%1\" is not a DNS label").arg(n.plural));
    n.group = group + u'.' + domain;
    n.version = version;
    n.project = p.isSet(QStringLiteral("project")) ? p.value(QStringLiteral("project")) : dir.dirName();
    n.ns = n.project;
    n.ns.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_]")), QStringLiteral("_"));
    if (n.ns.isEmpty() || n.ns.front().isDigit())
        n.ns.prepend(u'p');

    if (const int failed = writeFiles(dir, n))
        return failed;
    QStringList owned;
    for (const opbench::init::OwnedKind *k : std::as_const(n.owns))
        owned << k->kind();
    std::printf("\nScaffolded %s: kind %s, group %s, version %s, resource %s; owns %s%s%s.\nNext:\n"
                "  cd %s\n  cmake -S . -B build -G Ninja -DCMAKE_PREFIX_PATH=<opbench install prefix>\n"
                "  cmake --build build && ctest --test-dir build\n  ./build/%s-workbench\n",
        qPrintable(n.project), qPrintable(n.kind), qPrintable(n.group), qPrintable(n.version), qPrintable(n.plural),
        qPrintable(owned.join(QStringLiteral(", "))), n.finalizer ? "; a finalizer" : "",
        n.conditions ? "; status conditions" : "", qPrintable(QDir::current().relativeFilePath(dir.absolutePath())),
        qPrintable(n.lower));
    return 0;
}
