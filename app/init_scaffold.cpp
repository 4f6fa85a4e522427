// SPDX-License-Identifier: Apache-2.0
#include "init_scaffold.h"

#include "engine/api/builtin/builtin.h"
#include "engine/api/restmapper.h"
#include "engine/api/version.h"

#include <QHash>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

namespace opbench::init {

namespace {

/// The spec fields the children read; each owned kind lists the ones it needs.
enum SpecField : unsigned {
    Data = 1,
    Image = 2,
    Replicas = 4,
    Port = 8,
};

// The mutate bodies read like examples/memcached and examples/guestbook: typed setters, the pod
// template as a struct literal; the selector and pod labels are the parent's name.
const std::array<OwnedKind, 7> kOwned = {{
    {&Deployment::kindInfo, "dep", "d",
        "        d.setReplicas(cr->spec.replicas);\n"
        "        d.setSelector({{\"app.kubernetes.io/name\", req.name}});\n"
        "        d.setTemplate(PodTemplate{.labels = {{\"app.kubernetes.io/name\", req.name}},\n"
        "            .containers = {Container{.name = \"@LOWER@\", .image = cr->spec.image}}});",
        R"(d.replicas() == 2 && d.podTemplate().containers.value(0).image == "nginx:1.25")", "child.setReplicas(5)",
        "a Deployment of `spec.replicas` pods running `spec.image`", Image | Replicas},
    {&Service::kindInfo, "svc", "s",
        "        s.setSelector({{\"app.kubernetes.io/name\", req.name}});\n"
        "        s.setPorts({ServicePort{.name = \"http\", .port = cr->spec.port}});",
        "s.ports().value(0).port == 8080", R"(child.setPorts({ServicePort{.name = "http", .port = 81}}))",
        "a Service on `spec.port` in front of the pods labelled with its name", Port},
    {&ConfigMap::kindInfo, "cm", "c", "        c.setData(cr->spec.data);", R"(c.value("greeting") == "hello")",
        R"(child.setData({{"greeting", "tampered"}}))", "a ConfigMap holding `spec.data`", Data},
    {&Secret::kindInfo, "secret", "s", "        s.setStringData(cr->spec.data);", R"(s.value("greeting") == "hello")",
        R"(child.setStringData({{"greeting", "tampered"}}))", "a Secret holding `spec.data`", Data},
    {&ServiceAccount::kindInfo, "sa", "a", "        a.setAutomountServiceAccountToken(false);",
        "a.automountServiceAccountToken() == false", "child.setAutomountServiceAccountToken(true)",
        "a ServiceAccount (no token mounted)", 0},
    {&StatefulSet::kindInfo, "sts", "s",
        "        s.setReplicas(cr->spec.replicas);\n"
        "        s.setServiceName(req.name);\n"
        "        s.setSelector({{\"app.kubernetes.io/name\", req.name}});\n"
        "        s.setTemplate(PodTemplate{.labels = {{\"app.kubernetes.io/name\", req.name}},\n"
        "            .containers = {Container{.name = \"@LOWER@\", .image = cr->spec.image}}});",
        "s.replicas() == 2", "child.setReplicas(5)", "a StatefulSet of `spec.replicas` pods running `spec.image`",
        Image | Replicas},
    {&Job::kindInfo, "job", "j",
        "        j.setBackoffLimit(2);\n"
        "        j.setTemplate(PodTemplate{\n"
        "            .containers = {Container{.name = \"@LOWER@\", .image = cr->spec.image}}, .restartPolicy = "
        "\"Never\"});",
        R"(j.backoffLimit() == 2 && j.podTemplate().containers.value(0).image == "nginx:1.25")",
        "child.setBackoffLimit(6)", "a Job running `spec.image` once", Image},
}};

/// One spec field: its declaration, its describe() line, its sample and test values.
struct FieldText
{
    SpecField field;
    const char *decl;     // %1: the kinds that read it
    const char *describe; // a Fields<Spec> call
    const char *sample;   // YAML under spec:
    const char *test;     // make()'s assignment
};

const std::array<FieldText, 4> kFields = {{
    {Data, "    opbench::Labels data; // what the owned %1 must hold", R"(f.field("data", &@KIND@Spec::data);)",
        "  data:\n    greeting: hello", R"(cr.spec.data = {{"greeting", "hello"}};)"},
    {Image, "    QString image; // the container image of the %1",
        R"(f.field("image", &@KIND@Spec::image).required().minLength(1);)", "  image: nginx:1.25",
        R"(cr.spec.image = "nginx:1.25";)"},
    {Replicas, "    int replicas = 1; // the pods of the %1",
        R"(f.field("replicas", &@KIND@Spec::replicas).minimum(0).defaultValue(1);)", "  replicas: 2",
        "cr.spec.replicas = 2;"},
    {Port, "    int port = 80; // the port of the %1",
        R"(f.field("port", &@KIND@Spec::port).minimum(1).maximum(65535);)", "  port: 80", "cr.spec.port = 8080;"},
}};

/// "A", "A and B", "A, B and C".
QString joined(const QStringList &items)
{
    if (items.size() <= 1)
        return items.value(0);
    return QStringList(items.mid(0, items.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" and ")
        + items.last();
}

bool owns(const Project &p, const KindInfo &(*info)())
{
    return std::any_of(p.owns.begin(), p.owns.end(), [&](const OwnedKind *k) { return k->info == info; });
}

QStringList specBlocks(const Project &p, QStringList *describe, QStringList *sample, QStringList *test)
{
    QStringList decls;
    for (const FieldText &f : kFields) {
        QStringList readers;
        for (const OwnedKind *k : p.owns)
            if (k->needs & f.field)
                readers << k->kind();
        if (readers.isEmpty())
            continue;
        decls << QString::fromUtf8(f.decl).arg(joined(readers));
        *describe << QString::fromUtf8(f.describe);
        sample->append(QString::fromUtf8(f.sample).split(u'\n'));
        *test << QStringLiteral("        ") + QString::fromUtf8(f.test);
    }
    if (describe->size() == 1) {
        *describe = QStringList{
            QStringLiteral("    static void describe(opbench::Fields<@KIND@Spec> &f) { %1 }").arg(describe->first())};
    } else if (!describe->isEmpty()) {
        for (QString &line : *describe)
            line.prepend(QStringLiteral("        "));
        describe->prepend(QStringLiteral("    {"));
        describe->prepend(QStringLiteral("    static void describe(opbench::Fields<@KIND@Spec> &f)"));
        describe->append(QStringLiteral("    }"));
    } else {
        // The owned kinds read nothing from the spec (a ServiceAccount): one field to start from.
        decls << QStringLiteral("    QString foo; // TODO(user): what a @KIND@ asks for");
        *describe = QStringList{QStringLiteral(
            "    static void describe(opbench::Fields<@KIND@Spec> &f) { f.field(\"foo\", &@KIND@Spec::foo); }")};
        *sample << QStringLiteral("  foo: bar");
    }
    return decls;
}

/// The reconciler's createOrUpdate of each child.
QStringList childBlocks(const Project &p)
{
    QStringList out;
    for (const OwnedKind *k : p.owns) {
        const QString var = QString::fromUtf8(k->var), param = QString::fromUtf8(k->param), kind = k->kind();
        const QString call
            = QStringLiteral("co_await client().createOrUpdate(req.ctx, %1(req.namespaceName, req.name), "
                             "[&](%1 &%2) {")
                  .arg(kind, param);
        QStringList lambda = QString::fromUtf8(k->mutate).split(u'\n');
        lambda << QStringLiteral("        return setControllerReference(*cr, %1);").arg(param)
               << QStringLiteral("    });");
        if (call.size() + var.size() + 12 <= 120) {
            out << QStringLiteral("    auto %1 = %2").arg(var, call) << lambda;
        } else { // as clang-format breaks it
            out << QStringLiteral("    auto ") + var << QStringLiteral("        = ") + call;
            for (const QString &line : std::as_const(lambda))
                out << QStringLiteral("      ") + line;
        }
        out << QStringLiteral("    if (!%1)").arg(var)
            << (p.conditions ? QStringLiteral("        co_return co_await degraded(req, *cr, %1.error());").arg(var)
                             : QStringLiteral("        co_return requeueOnConflict(%1.error());").arg(var));
    }
    return out;
}

QStringList rbacBlocks(const Project &p)
{
    QStringList out;
    for (const OwnedKind *k : p.owns) {
        const KindInfo &info = k->info();
        out << QStringLiteral("- apiGroups: [\"%1\"]").arg(info.gvk.group)
            << QStringLiteral("  resources: [\"%1\"]").arg(info.resource)
            << QStringLiteral("  verbs: [\"get\", \"list\", \"watch\", \"create\", \"update\", \"patch\", \"delete\"]");
    }
    return out;
}

QHash<QString, QStringList> blocksFor(const Project &p)
{
    QStringList describe, sample, test, owned, holds, ownsCalls;
    const QStringList decls = specBlocks(p, &describe, &sample, &test);
    for (const OwnedKind *k : p.owns) {
        owned << QStringLiteral("        QVERIFY(owned<%1>(\"first\"));").arg(k->kind());
        holds << QStringLiteral("    static bool holds(const %1 &%2) { return %3; }")
                     .arg(k->kind(), QString::fromUtf8(k->param), QString::fromUtf8(k->holds));
        ownsCalls << QStringLiteral("        .owns<%1>()").arg(k->kind());
    }
    return {
        {QStringLiteral("CHILDREN"), childBlocks(p)},
        {QStringLiteral("OWNS"), ownsCalls},
        {QStringLiteral("SPEC_FIELDS"), decls},
        {QStringLiteral("SPEC_DESCRIBE"), describe},
        {QStringLiteral("SAMPLE_SPEC"), sample},
        {QStringLiteral("TEST_SPEC"), test},
        {QStringLiteral("TEST_OWNED"), owned},
        {QStringLiteral("TEST_HOLDS"), holds},
        {QStringLiteral("RBAC_OWNED"), rbacBlocks(p)},
    };
}

QList<std::pair<QString, QString>> varsFor(const Project &p)
{
    QStringList ownsProse, kinds, plurals, prose;
    for (const OwnedKind *k : p.owns) {
        ownsProse << QStringLiteral("Owns(%1)").arg(k->kind());
        kinds << k->kind();
        plurals << k->kind() + u's';
        prose << QString::fromUtf8(k->prose);
    }
    const OwnedKind *first = p.owns.value(0);
    return {
        {QStringLiteral("@OWNS_PROSE@"), ownsProse.join(QStringLiteral(", "))},
        {QStringLiteral("@OWNED_KINDS@"), joined(kinds)},
        {QStringLiteral("@OWNED_PLURALS@"), joined(plurals)},
        {QStringLiteral("@CHILDREN_PROSE@"), joined(prose)},
        {QStringLiteral("@FIRST_KIND@"), first ? first->kind() : QString()},
        {QStringLiteral("@FIRST_TAMPER@"), first ? QString::fromUtf8(first->tamper) : QString()},
        {QStringLiteral("@PROJECT@"), p.project},
        {QStringLiteral("@KIND@"), p.kind},
        {QStringLiteral("@LOWER@"), p.lower},
        {QStringLiteral("@PLURAL@"), p.plural},
        {QStringLiteral("@GROUP@"), p.group},
        {QStringLiteral("@VERSION@"), p.version},
        {QStringLiteral("@NS@"), p.ns},
        {QStringLiteral("@GROUP_DASHES@"), QString(p.group).replace(u'.', u'-')},
        {QStringLiteral("@SPOKE@"), p.spoke},
        {QStringLiteral("@SPOKE_KIND@"),
            p.spoke.isEmpty() ? QString() : p.kind + p.spoke.front().toUpper() + p.spoke.mid(1)},
        {QStringLiteral("@OPBENCH_VERSION@"), opbench::version()},
        {QStringLiteral("@OPBENCH_MINOR@"), opbench::version().section(u'.', 0, 1)},
    };
}

[[noreturn]] void templateError(const QString &what, const QString &line)
{
    // The templates are compiled in: a mistake in one is this build's bug, not the user's.
    std::fprintf(stderr, "opbench-init: broken template (%s): %s\n", qPrintable(what), qPrintable(line));
    std::abort();
}

} // namespace

bool OwnedKind::served() const
{
    static const RestMapper builtins = RestMapper::withBuiltins();
    return builtins.forKind(info().gvk).has_value();
}

QStringList supportedOwns()
{
    QStringList out;
    for (const OwnedKind &k : kOwned)
        if (k.served())
            out << k.flagValue();
    return out;
}

const OwnedKind *parseOwns(const QString &value, QString *error)
{
    QStringList parts = value.split(u'/');
    if (parts.size() == 2)
        parts.prepend(QString());
    else if (parts.size() == 3 && parts.first() == QLatin1String("core"))
        parts.first().clear();
    if (parts.size() != 3 || parts[1].isEmpty() || parts[2].isEmpty()) {
        *error = QStringLiteral("--owns \"%1\" is not GROUP/VERSION/KIND (apps/v1/Deployment; v1/Service or "
                                "core/v1/Service for the core group)")
                     .arg(value);
        return nullptr;
    }
    for (const OwnedKind &k : kOwned) {
        const GroupVersionKind &gvk = k.info().gvk;
        if (gvk.kind != parts[2])
            continue;
        if (gvk.group == parts[0] && gvk.version == parts[1] && k.served())
            return &k;
        if (gvk.group == parts[0] && gvk.version == parts[1])
            *error = QStringLiteral("--owns \"%1\": the SDK has a typed %2, but the embedded API server (the "
                                    "cluster of the generated test and workbench) does not serve %3 yet; the kinds "
                                    "it can own are %4")
                         .arg(value, gvk.kind, k.info().resource, supportedOwns().join(QStringLiteral(", ")));
        else
            *error = QStringLiteral("--owns \"%1\": %2 is %3 (--owns %3)").arg(value, gvk.kind, k.flagValue());
        return nullptr;
    }
    *error = QStringLiteral("--owns \"%1\": the SDK has no typed view for %2; the kinds it can own are %3")
                 .arg(value, parts[2], supportedOwns().join(QStringLiteral(", ")));
    return nullptr;
}

QList<const OwnedKind *> defaultOwns()
{
    QString unused;
    return {parseOwns(QStringLiteral("v1/ConfigMap"), &unused)};
}

QList<std::pair<QString, QString>> scaffoldFiles(const Project &p)
{
    return {
        {QStringLiteral("CMakeLists.txt.in"), QStringLiteral("CMakeLists.txt")},
        {QStringLiteral("README.md.in"), QStringLiteral("README.md")},
        {QStringLiteral("Containerfile.in"), QStringLiteral("Containerfile")},
        {QStringLiteral("sample.yaml.in"), QStringLiteral("config/samples/%1.yaml").arg(p.lower)},
        {QStringLiteral("rbac.yaml.in"), QStringLiteral("config/rbac/role.yaml")},
        {QStringLiteral("manager.yaml.in"), QStringLiteral("config/manager/manager.yaml")},
        {QStringLiteral("type.h.in"), QStringLiteral("src/%1.h").arg(p.lower)},
        {QStringLiteral("controller.h.in"), QStringLiteral("src/%1_controller.h").arg(p.lower)},
        {QStringLiteral("controller.cpp.in"), QStringLiteral("src/%1_controller.cpp").arg(p.lower)},
        {QStringLiteral("operator.h.in"), QStringLiteral("src/operator.h")},
        {QStringLiteral("operator.cpp.in"), QStringLiteral("src/operator.cpp")},
        {QStringLiteral("main.cpp.in"), QStringLiteral("src/main.cpp")},
        {QStringLiteral("workbench_main.cpp.in"), QStringLiteral("src/workbench_main.cpp")},
        {QStringLiteral("test.cpp.in"), QStringLiteral("tests/tst_%1_controller.cpp").arg(p.lower)},
    };
}

QString checkFlag(const QString &value, const QString &flag, Pattern pattern)
{
    struct Rule
    {
        QRegularExpression re;
        QString what;
    };
    static const std::array<Rule, 4> rules = {{
        {QRegularExpression(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")),
            QStringLiteral("a DNS name such as example.org")},
        {QRegularExpression(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")),
            QStringLiteral("a DNS label such as webapp")},
        {QRegularExpression(QStringLiteral("^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$")),
            QStringLiteral("v1, v1alpha1, v2beta3, …")},
        {QRegularExpression(QStringLiteral("^[A-Z][A-Za-z0-9]*$")), QStringLiteral("UpperCamelCase such as Guestbook")},
    }};
    const Rule &rule = rules.at(std::size_t(pattern));
    if (value.isEmpty())
        return QStringLiteral("--%1 is required (%2)").arg(flag, rule.what);
    if (!rule.re.match(value).hasMatch())
        return QStringLiteral("--%1 \"%2\" is not valid: %3").arg(flag, value, rule.what);
    return {};
}

QString render(const QByteArray &text, const Project &p)
{
    const QHash<QString, bool> flags = {
        {QStringLiteral("finalizer"), p.finalizer},
        {QStringLiteral("conditions"), p.conditions},
        {QStringLiteral("deployment"), owns(p, &Deployment::kindInfo)},
        {QStringLiteral("defaulting"), p.defaulting},
        {QStringLiteral("validation"), p.validation},
        {QStringLiteral("conversion"), p.conversion},
        {QStringLiteral("admission"), p.defaulting || p.validation},
        {QStringLiteral("both"), p.defaulting && p.validation},
    };
    const QHash<QString, QStringList> blocks = blocksFor(p);
    QStringList out;
    QList<bool> kept; // per open @if@: whether its current branch is kept
    const auto keeping = [&] { return std::all_of(kept.begin(), kept.end(), [](bool b) { return b; }); };
    for (const QString &line : QString::fromUtf8(text).split(u'\n')) {
        const QString t = line.trimmed();
        if (t.startsWith(QLatin1String("@if ")) && t.endsWith(u'@')) {
            QString flag = t.mid(4, t.size() - 5);
            const bool negated = flag.startsWith(u'!');
            if (negated)
                flag.remove(0, 1);
            if (!flags.contains(flag))
                templateError(QStringLiteral("unknown flag"), line);
            kept.append(flags.value(flag) != negated);
        } else if (t == QLatin1String("@else@") || t == QLatin1String("@endif@")) {
            if (kept.isEmpty())
                templateError(QStringLiteral("no @if@ open"), line);
            if (t == QLatin1String("@else@"))
                kept.last() = !kept.last();
            else
                kept.removeLast();
        } else if (keeping()) {
            const auto block = blocks.constFind(t.mid(1, t.size() - 2));
            if (t.size() > 2 && t.startsWith(u'@') && t.endsWith(u'@') && block != blocks.constEnd())
                out << *block;
            else
                out << line;
        }
    }
    if (!kept.isEmpty())
        templateError(QStringLiteral("@if@ not closed"), QString());
    QString s = out.join(u'\n');
    for (const auto &[key, value] : varsFor(p))
        s.replace(key, value);
    return s;
}

} // namespace opbench::init
