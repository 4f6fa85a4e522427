// SPDX-License-Identifier: Apache-2.0
#include "init_webhook.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstdio>

namespace opbench::init {

namespace {

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// OPBENCH_KIND("group", "version", "Kind", "plural") in a type's header.
const QRegularExpression &kindMacro()
{
    static const QRegularExpression re(
        QStringLiteral(R"re(OPBENCH_KIND\("([^"]*)", "([^"]*)", "([^"]*)", "([^"]*)"\))re"));
    return re;
}

/// The kinds the project's src/*.h declare: "Widget (shop.demo.io/v1, src/widget.h)".
QStringList kindsIn(const QDir &src)
{
    QStringList out;
    for (const QString &name : src.entryList({QStringLiteral("*.h")}, QDir::Files, QDir::Name)) {
        auto it = kindMacro().globalMatch(readText(src.filePath(name)));
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            out << QStringLiteral("%1 (%2/%3, src/%4)").arg(m.captured(3), m.captured(1), m.captured(2), name);
        }
    }
    return out;
}

/// The project's kind `r.kind` read from src/<kind>.h into `p`: "" or what is wrong.
QString readKind(const QDir &dir, const WebhookRequest &r, Project *p)
{
    const QString header = QStringLiteral("src/%1.h").arg(r.kind.toLower());
    const QString text = readText(dir.filePath(header));
    const QRegularExpressionMatch m = kindMacro().match(text);
    if (!m.hasMatch() || m.captured(3) != r.kind) {
        const QStringList kinds = kindsIn(QDir(dir.filePath(QStringLiteral("src"))));
        return QStringLiteral("the project in %1 has no kind %2 (no %3 declaring it): %4. Webhooks are for a kind "
                              "the project serves; check --kind")
            .arg(dir.absolutePath(), r.kind, header,
                kinds.isEmpty() ? QStringLiteral("it declares no kind in src/*.h")
                                : QStringLiteral("its kinds are ") + kinds.join(QStringLiteral(", ")));
    }
    const QString group = m.captured(1), version = m.captured(2);
    if (group != r.group && !group.startsWith(r.group + u'.'))
        return QStringLiteral("--group %1 does not match kind %2 of the project in %3: its group is %4 (%5)")
            .arg(r.group, r.kind, dir.absolutePath(), group, header);
    if (version != r.version)
        return QStringLiteral("--version %1 does not match kind %2 of the project in %3: it is served at %4 (%5)%6")
            .arg(r.version, r.kind, dir.absolutePath(), version, header,
                r.conversion ? QStringLiteral("; a new version is --spoke, converted through %1").arg(version)
                             : QString());
    static const QRegularExpression ns(QStringLiteral(R"(^namespace (\w+) \{)"), QRegularExpression::MultilineOption);
    static const QRegularExpression project(
        QStringLiteral(R"(^project\(([^ )]+))"), QRegularExpression::MultilineOption);
    p->kind = r.kind;
    p->lower = r.kind.toLower();
    p->group = group;
    p->version = version;
    p->plural = m.captured(4);
    p->ns = ns.match(text).captured(1);
    p->project = project.match(readText(dir.filePath(QStringLiteral("CMakeLists.txt")))).captured(1);
    p->owns = defaultOwns();
    if (p->ns.isEmpty())
        return QStringLiteral("%1 declares no namespace (a line \"namespace NAME {\")").arg(dir.filePath(header));
    return {};
}

/// `text` with `from` (found exactly once) replaced by `to`; "" and `error` set when not found.
QString replaceOnce(const QString &text, const QString &from, const QString &to, const QString &file, QString *error)
{
    if (text.count(from) == 1)
        return QString(text).replace(from, to);
    *error = QStringLiteral("cannot wire the webhooks into %1: it does not hold the line \"%2\" that opbench-init "
                            "wrote (edited by hand?); nothing was changed. Add the webhooks yourself: see "
                            "docs/webhooks.md")
                 .arg(file, from.trimmed());
    return {};
}

/// What replaces `def.setup = setup<Kind>Controller;`: the same and the webhooks.
QString webhookSetupLines(const QString &kind)
{
    return QStringLiteral("    def.setup = setup%1Controller;\n"
                          "    def.webhooks = setup%1Webhook; // served, and on an embedded cluster registered\n")
        .arg(kind);
}

/// The edits of CMakeLists.txt, src/operator.cpp and (--conversion) src/<kind>.h.
QList<PlannedFile> planEdits(const QDir &dir, const Project &p, const QString &cmakeBlock, QString *error)
{
    QList<PlannedFile> out;
    const QString cmakePath = QStringLiteral("CMakeLists.txt");
    const QString sources = QStringLiteral("src/operator.h src/operator.cpp)");
    QString webhookSources
        = QStringLiteral("src/operator.h src/operator.cpp\n  src/%1_webhook.h src/%1_webhook.cpp").arg(p.lower);
    if (p.conversion)
        webhookSources += QStringLiteral(" src/%1_%2.h").arg(p.lower, p.spoke);
    QString cmake = replaceOnce(readText(dir.filePath(cmakePath)), sources, webhookSources + u')', cmakePath, error);
    if (cmake.isEmpty())
        return {};
    out.append({cmakePath, cmake + cmakeBlock, true});

    const QString operatorPath = QStringLiteral("src/operator.cpp");
    QString op = readText(dir.filePath(operatorPath));
    const QString include = QStringLiteral("#include \"%1_controller.h\"\n").arg(p.lower);
    op = replaceOnce(
        op, include, include + QStringLiteral("#include \"%1_webhook.h\"\n").arg(p.lower), operatorPath, error);
    const QString setup = QStringLiteral("    def.setup = setup%1Controller;\n").arg(p.kind);
    if (!op.isEmpty())
        op = replaceOnce(op, setup, webhookSetupLines(p.kind), operatorPath, error);
    if (p.conversion && !op.isEmpty())
        op = replaceOnce(op, QStringLiteral("    opbench::addKind<%1>(def);\n").arg(p.kind),
            QStringLiteral("    def.crds.append(%1Crd()); // %2 and %3\n").arg(p.lower, p.version, p.spoke),
            operatorPath, error);
    if (op.isEmpty())
        return {};
    out.append({operatorPath, op, true});

    if (p.conversion) {
        const QString typePath = QStringLiteral("src/%1.h").arg(p.lower);
        const QString line
            = QStringLiteral("class %1 : public opbench::CustomResource<%1, %1Spec, %1Status>\n").arg(p.kind);
        const QString hub
            = QStringLiteral("// The hub of the %1 versions (the storage version): %2 converts through it.\n"
                             "class %1 : public opbench::CustomResource<%1, %1Spec, %1Status>, "
                             "public opbench::Hub\n")
                  .arg(p.kind, p.spoke);
        const QString type = replaceOnce(readText(dir.filePath(typePath)), line, hub, typePath, error);
        if (type.isEmpty())
            return {};
        out.append({typePath, type, true});
    }
    return out;
}

/// The new files (template → path) for `p`'s flags.
QList<std::pair<QString, QString>> newFiles(const Project &p)
{
    QList<std::pair<QString, QString>> files = {
        {QStringLiteral("webhook.h.in"), QStringLiteral("src/%1_webhook.h").arg(p.lower)},
        {QStringLiteral("webhook.cpp.in"), QStringLiteral("src/%1_webhook.cpp").arg(p.lower)},
        {QStringLiteral("test.cpp.in"), QStringLiteral("tests/tst_%1_webhook.cpp").arg(p.lower)},
        {QStringLiteral("service.yaml.in"), QStringLiteral("config/webhook/service.yaml")},
        {QStringLiteral("webhook_kustomization.yaml.in"), QStringLiteral("config/webhook/kustomization.yaml")},
        {QStringLiteral("certificate.yaml.in"), QStringLiteral("config/certmanager/certificate.yaml")},
        {QStringLiteral("certmanager_kustomization.yaml.in"), QStringLiteral("config/certmanager/kustomization.yaml")},
        {QStringLiteral("manager_webhook_patch.yaml.in"), QStringLiteral("config/manager/manager_webhook_patch.yaml")},
    };
    if (p.defaulting || p.validation)
        files.append({QStringLiteral("manifests.yaml.in"), QStringLiteral("config/webhook/manifests.yaml")});
    if (p.conversion) {
        files.append({QStringLiteral("spoke.h.in"), QStringLiteral("src/%1_%2.h").arg(p.lower, p.spoke)});
        files.append({QStringLiteral("crd_conversion_patch.yaml.in"),
            QStringLiteral("config/crd/patches/webhook_in_%1.yaml").arg(p.plural)});
    }
    return files;
}

} // namespace

QList<PlannedFile> planWebhook(const WebhookRequest &r, Project *p, const QString &templates, QString *error)
{
    const QDir dir(r.dir);
    if (!readText(dir.filePath(QStringLiteral("CMakeLists.txt"))).contains(QLatin1String("Scaffolded by opbench-init"))
        || !QFileInfo::exists(dir.filePath(QStringLiteral("src/operator.cpp")))) {
        *error = QStringLiteral("%1 is not a project scaffolded by opbench-init (no CMakeLists.txt saying \"Scaffolded "
                                "by opbench-init\" next to src/operator.cpp): scaffold one first with opbench-init "
                                "--domain DOMAIN --group %2 --version %3 --kind %4 DIR")
                     .arg(dir.absolutePath(), r.group, r.version, r.kind);
        return {};
    }
    if (*error = readKind(dir, r, p); !error->isEmpty())
        return {};
    p->defaulting = r.defaulting;
    p->validation = r.validation;
    p->conversion = r.conversion;
    p->spoke = r.spoke;
    const QList<std::pair<QString, QString>> files = newFiles(*p);
    for (const auto &[templ, path] : files) {
        if (QFileInfo::exists(dir.filePath(path))) {
            *error = QStringLiteral("%1 already exists in %2: %3; opbench-init writes a kind's webhooks in one step "
                                    "and never overwrites a file, so nothing was changed")
                         .arg(path, dir.absolutePath(),
                             path.endsWith(QLatin1String("_webhook.cpp")) || path.endsWith(QLatin1String("_webhook.h"))
                                 ? QStringLiteral("the webhooks of %1 are already there").arg(p->kind)
                                 : QStringLiteral("remove it to have it written"));
            return {};
        }
    }
    QFile cmakeTemplate(templates + QStringLiteral("cmake.in"));
    if (!cmakeTemplate.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("template %1 is missing from this build").arg(cmakeTemplate.fileName());
        return {};
    }
    QList<PlannedFile> plan = planEdits(dir, *p, render(cmakeTemplate.readAll(), *p), error);
    if (plan.isEmpty())
        return {};
    for (const auto &[templ, path] : files) {
        QFile in(templates + templ);
        if (!in.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("template %1 is missing from this build").arg(in.fileName());
            return {};
        }
        plan.append({path, render(in.readAll(), *p), false});
    }
    return plan;
}

bool writePlan(const QString &dir, const QList<PlannedFile> &plan, QString *error)
{
    for (const PlannedFile &file : plan) {
        const QString path = QDir(dir).absoluteFilePath(file.path);
        QFile f(path);
        if (!QDir().mkpath(QFileInfo(path).absolutePath())
            || !f.open(
                file.edit ? QIODevice::WriteOnly | QIODevice::Truncate : QIODevice::WriteOnly | QIODevice::NewOnly)
            || f.write(file.content.toUtf8()) < 0) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
            return false;
        }
    }
    return true;
}

} // namespace opbench::init

namespace opbench::init {

namespace {

int fail(const QString &message, int code = 2)
{
    std::fprintf(stderr, "opbench-init create webhook: %s\n", qPrintable(message));
    return code;
}

void addWebhookOptions(QCommandLineParser &p)
{
    p.setApplicationDescription(QStringLiteral(
        "opbench-init create webhook: add kubebuilder's webhooks for a kind to a project opbench-init scaffolded: "
        "the handlers (src/<kind>_webhook.*), their registration in the setup, a test, and the manifests a cluster "
        "needs (config/webhook, config/certmanager). DIR (default: the current folder) is the project."));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("group"), QStringLiteral("The kind's API group (its first label, as for opbench-init)."),
            QStringLiteral("group")},
        {QStringLiteral("version"), QStringLiteral("The kind's API version (the hub with --conversion)."),
            QStringLiteral("version")},
        {QStringLiteral("kind"), QStringLiteral("The kind (Guestbook)."), QStringLiteral("kind")},
        {QStringLiteral("defaulting"), QStringLiteral("A defaulting (mutating) webhook: <Kind>Defaulter.")},
        {QStringLiteral("programmatic-validation"),
            QStringLiteral("A validating webhook: <Kind>Validator (create, update, delete).")},
        {QStringLiteral("conversion"),
            QStringLiteral("A conversion webhook: --version becomes the hub, --spoke a new version converted "
                           "through it; the CRD serves both.")},
        {{QStringLiteral("spoke"), QStringLiteral("spoke-version")},
            QStringLiteral("With --conversion: the new (spoke) version, e.g. v2."), QStringLiteral("version")},
    });
    p.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("The project (default: the current folder)."));
}

/// The request from the parsed flags: "" or the error.
QString readRequest(const QCommandLineParser &p, WebhookRequest *r)
{
    r->group = p.value(QStringLiteral("group"));
    r->version = p.value(QStringLiteral("version"));
    r->kind = p.value(QStringLiteral("kind"));
    r->defaulting = p.isSet(QStringLiteral("defaulting"));
    r->validation = p.isSet(QStringLiteral("programmatic-validation"));
    r->conversion = p.isSet(QStringLiteral("conversion"));
    r->spoke = p.value(QStringLiteral("spoke"));
    r->dir = QDir::current().absoluteFilePath(p.positionalArguments().value(0, QStringLiteral(".")));
    for (const QString &error : {checkFlag(r->group, QStringLiteral("group"), Pattern::DnsName),
             checkFlag(r->version, QStringLiteral("version"), Pattern::ApiVersion),
             checkFlag(r->kind, QStringLiteral("kind"), Pattern::KindName)})
        if (!error.isEmpty())
            return error;
    if (p.positionalArguments().size() > 1)
        return QStringLiteral("one project folder, not %1 (%2)")
            .arg(p.positionalArguments().size())
            .arg(p.positionalArguments().join(QStringLiteral(", ")));
    if (!r->defaulting && !r->validation && !r->conversion) // kubebuilder's words
        return QStringLiteral("requires at least one of --defaulting, --programmatic-validation and "
                              "--conversion to be true");
    if (r->conversion && r->spoke.isEmpty())
        return QStringLiteral("--conversion requires --spoke VERSION: the new version converted through the hub "
                              "--version %1")
            .arg(r->version);
    if (!r->conversion && !r->spoke.isEmpty())
        return QStringLiteral("--spoke %1 is for a conversion webhook: add --conversion").arg(r->spoke);
    if (p.values(QStringLiteral("spoke")).size() > 1)
        return QStringLiteral("one --spoke, not %1 (%2)")
            .arg(p.values(QStringLiteral("spoke")).size())
            .arg(p.values(QStringLiteral("spoke")).join(QStringLiteral(", ")));
    if (r->conversion) {
        if (QString e = checkFlag(r->spoke, QStringLiteral("spoke"), Pattern::ApiVersion); !e.isEmpty())
            return e;
        if (r->spoke == r->version)
            return QStringLiteral("--spoke %1 is the hub's --version: a spoke is another version").arg(r->spoke);
    }
    return {};
}

} // namespace

int createMain(const QStringList &arguments)
{
    if (arguments.value(2) != QLatin1String("webhook"))
        return fail(QStringLiteral("opbench-init create %1: unknown; the one there is: opbench-init create webhook "
                                   "(--help for its flags)")
                        .arg(arguments.value(2)));
    QCommandLineParser p;
    addWebhookOptions(p);
    p.process(QStringList{arguments.value(0) + QStringLiteral(" create webhook")} + arguments.mid(3));
    WebhookRequest r;
    if (const QString error = readRequest(p, &r); !error.isEmpty())
        return fail(error);
    Project project;
    QString error;
    const QList<PlannedFile> plan = planWebhook(r, &project, QStringLiteral(":/opbench/scaffold/webhook/"), &error);
    if (plan.isEmpty())
        return fail(error, 1);
    if (!writePlan(r.dir, plan, &error))
        return fail(error, 1);
    for (const PlannedFile &f : plan)
        std::printf("  %s %s\n", f.edit ? "updated" : "wrote", qPrintable(f.path));
    QStringList what;
    if (r.defaulting)
        what << QStringLiteral("defaulting");
    if (r.validation)
        what << QStringLiteral("validating");
    if (r.conversion)
        what << QStringLiteral("conversion (%1 ⇄ %2)").arg(project.version, r.spoke);
    std::printf("\nAdded the %s webhooks of %s (%s/%s). Next:\n"
                "  cmake --build build && ctest --test-dir build -R tst_%s_webhook\n"
                "  ./build/%s-operator --embedded   # the SDK registers the webhooks with its cluster\n"
                "On a cluster with cert-manager: docs/webhooks.md (config/webhook, config/certmanager).\n",
        qPrintable(what.join(QStringLiteral(", "))), qPrintable(project.kind), qPrintable(project.group),
        qPrintable(project.version), qPrintable(project.lower), qPrintable(project.lower));
    return 0;
}

} // namespace opbench::init
