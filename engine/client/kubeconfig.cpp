// SPDX-License-Identifier: Apache-2.0
// Kubeconfig parsing and merging (yaml-cpp stays private to this file).
#include "engine/client/kubeconfig.h"

#include "engine/api/yamlcodec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <yaml-cpp/yaml.h>

namespace opbench {

namespace {

struct ParseError
{
    int line; // 1-based, 0 = unknown
    QString message;
};

class Parser
{
public:
    Parser(QString file, QString baseDir)
        : m_file(std::move(file))
        , m_baseDir(std::move(baseDir))
    { }

    void document(const YAML::Node &root, Kubeconfig &out) const
    {
        if (!root || root.IsNull())
            return; // an empty file is a valid, empty kubeconfig
        if (!root.IsMap())
            throw ParseError{line(root), QStringLiteral("the document must be a mapping")};
        out.currentContext = str(root, "current-context");
        for (const YAML::Node &n : seq(root, "clusters"))
            out.clusters.append(cluster(n));
        for (const YAML::Node &n : seq(root, "users"))
            out.users.append(user(n));
        for (const YAML::Node &n : seq(root, "contexts"))
            out.contexts.append(context(n));
    }

private:
    static int line(const YAML::Node &n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 0; }

    QString str(const YAML::Node &map, const char *key) const
    {
        const YAML::Node n = map[key];
        if (!n || n.IsNull())
            return {};
        if (!n.IsScalar())
            throw ParseError{line(n), QStringLiteral("\"%1\" must be a string").arg(QLatin1String(key))};
        return QString::fromStdString(n.Scalar());
    }

    bool boolean(const YAML::Node &map, const char *key) const
    {
        // YAML 1.1 booleans, as go-yaml reads kubeconfigs.
        const QString v = str(map, key).toLower();
        if (v.isEmpty() || v == QLatin1String("false") || v == QLatin1String("no") || v == QLatin1String("off"))
            return false;
        if (v == QLatin1String("true") || v == QLatin1String("yes") || v == QLatin1String("on"))
            return true;
        throw ParseError{line(map[key]), QStringLiteral("\"%1\" must be true or false").arg(QLatin1String(key))};
    }

    std::vector<YAML::Node> seq(const YAML::Node &map, const char *key) const
    {
        const YAML::Node n = map[key];
        if (!n || n.IsNull())
            return {};
        if (!n.IsSequence())
            throw ParseError{line(n), QStringLiteral("\"%1\" must be a list").arg(QLatin1String(key))};
        return std::vector<YAML::Node>(n.begin(), n.end());
    }

    YAML::Node body(const YAML::Node &entry, const char *key, QString &name) const
    {
        if (!entry.IsMap())
            throw ParseError{line(entry), QStringLiteral("each %1 entry must be a mapping").arg(QLatin1String(key))};
        name = str(entry, "name");
        if (name.isEmpty())
            throw ParseError{line(entry), QStringLiteral("a %1 entry has no name").arg(QLatin1String(key))};
        const YAML::Node b = entry[key];
        if (b && !b.IsNull() && !b.IsMap())
            throw ParseError{
                line(b), QStringLiteral("%1 \"%2\": \"%1\" must be a mapping").arg(QLatin1String(key), name)};
        return b ? b : YAML::Node(YAML::NodeType::Map);
    }

    QString path(const QString &p) const
    {
        if (p.isEmpty() || QDir::isAbsolutePath(p))
            return p;
        return QDir::cleanPath(QDir(m_baseDir).absoluteFilePath(p));
    }

    QByteArray data(const YAML::Node &map, const char *key, const QString &what) const
    {
        const QString v = str(map, key);
        if (v.isEmpty())
            return {};
        auto r = QByteArray::fromBase64Encoding(v.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!r)
            throw ParseError{
                line(map[key]), QStringLiteral("%1: \"%2\" is not valid base64").arg(what, QLatin1String(key))};
        return *r;
    }

    KubeconfigCluster cluster(const YAML::Node &entry) const
    {
        KubeconfigCluster c;
        const YAML::Node b = body(entry, "cluster", c.name);
        c.file = m_file;
        c.server = str(b, "server");
        c.certificateAuthority = path(str(b, "certificate-authority"));
        c.certificateAuthorityData
            = data(b, "certificate-authority-data", QStringLiteral("cluster \"%1\"").arg(c.name));
        c.insecureSkipTlsVerify = boolean(b, "insecure-skip-tls-verify");
        c.tlsServerName = str(b, "tls-server-name");
        c.proxyUrl = str(b, "proxy-url");
        return c;
    }

    KubeconfigUser user(const YAML::Node &entry) const
    {
        KubeconfigUser u;
        const YAML::Node b = body(entry, "user", u.name);
        const QString what = QStringLiteral("user \"%1\"").arg(u.name);
        u.file = m_file;
        u.token = str(b, "token");
        u.tokenFile = path(str(b, "tokenFile"));
        u.clientCertificate = path(str(b, "client-certificate"));
        u.clientCertificateData = data(b, "client-certificate-data", what);
        u.clientKey = path(str(b, "client-key"));
        u.clientKeyData = data(b, "client-key-data", what);
        u.username = str(b, "username");
        u.password = str(b, "password");
        if (const YAML::Node ap = b["auth-provider"]; ap && ap.IsMap())
            u.authProvider = str(ap, "name").isEmpty() ? QStringLiteral("(unnamed)") : str(ap, "name");
        if (const YAML::Node ex = b["exec"]; ex && !ex.IsNull())
            u.exec = exec(ex, what);
        return u;
    }

    ExecConfig exec(const YAML::Node &ex, const QString &what) const
    {
        if (!ex.IsMap())
            throw ParseError{line(ex), QStringLiteral("%1: \"exec\" must be a mapping").arg(what)};
        ExecConfig e;
        e.apiVersion = str(ex, "apiVersion");
        e.command = str(ex, "command");
        if (e.command.isEmpty())
            throw ParseError{line(ex), QStringLiteral("%1: exec has no command").arg(what)};
        if (e.command.contains(u'/'))
            e.command = path(e.command);
        for (const YAML::Node &a : seq(ex, "args"))
            e.args << QString::fromStdString(a.as<std::string>(""));
        for (const YAML::Node &v : seq(ex, "env")) {
            if (!v.IsMap())
                throw ParseError{line(v), QStringLiteral("%1: exec env entries need name and value").arg(what)};
            e.env.append({str(v, "name"), str(v, "value")});
        }
        e.installHint = str(ex, "installHint");
        e.interactiveMode = str(ex, "interactiveMode");
        e.provideClusterInfo = boolean(ex, "provideClusterInfo");
        return e;
    }

    KubeconfigContext context(const YAML::Node &entry) const
    {
        KubeconfigContext c;
        const YAML::Node b = body(entry, "context", c.name);
        c.file = m_file;
        c.cluster = str(b, "cluster");
        c.user = str(b, "user");
        c.namespaceName = str(b, "namespace");
        return c;
    }

    QString m_file;
    QString m_baseDir;
};

Status configError(const QString &msg) { return Status::transport(StatusReason::ConfigError, msg); }

template<typename T> const T *findNamed(const QList<T> &list, const QString &name)
{
    for (const T &e : list)
        if (e.name == name)
            return &e;
    return nullptr;
}

template<typename T> void mergeNamed(QList<T> &into, const QList<T> &from)
{
    for (const T &e : from)
        if (!findNamed(into, e.name))
            into.append(e);
}

} // namespace

Expected<Kubeconfig> Kubeconfig::parse(const QByteArray &yaml, const QString &file, const QString &baseDir)
{
    Kubeconfig kc;
    kc.files << file;
    // An alias bomb is refused before yaml-cpp builds its nodes (yamlcodec.h).
    if (auto ok = checkYamlAliasing(yaml); !ok)
        return configError(QStringLiteral("kubeconfig %1: %2").arg(file, ok.error().message()));
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        Parser(file, baseDir).document(root, kc);
    } catch (const YAML::Exception &e) {
        // e.msg is yaml-cpp's text without the position; the mark is 0-based.
        return configError(QStringLiteral("kubeconfig %1 line %2: %3")
                               .arg(file)
                               .arg(e.mark.line + 1)
                               .arg(QString::fromStdString(e.msg)));
    } catch (const ParseError &e) {
        return configError(QStringLiteral("kubeconfig %1 line %2: %3").arg(file).arg(e.line).arg(e.message));
    }
    return kc;
}

Expected<Kubeconfig> Kubeconfig::loadFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return configError(QStringLiteral("cannot read kubeconfig %1: %2").arg(path, f.errorString()));
    const QFileInfo info(path);
    return parse(f.readAll(), info.absoluteFilePath(), info.absolutePath());
}

Expected<Kubeconfig> Kubeconfig::loadFiles(const QStringList &paths)
{
    Kubeconfig merged;
    merged.files.clear();
    for (const QString &p : paths) {
        if (p.isEmpty() || !QFileInfo::exists(p))
            continue;
        Expected<Kubeconfig> one = loadFile(p);
        if (!one)
            return one.error();
        merged.mergeFrom(*one);
    }
    return merged;
}

Expected<Kubeconfig> Kubeconfig::load(const QString &explicitPath)
{
    if (!explicitPath.isEmpty())
        return loadFile(explicitPath);
    const QString env = qEnvironmentVariable("KUBECONFIG");
    if (!env.isEmpty())
        return loadFiles(env.split(QDir::listSeparator(), Qt::SkipEmptyParts));
    const QString home = QDir::home().filePath(QStringLiteral(".kube/config"));
    if (!QFileInfo::exists(home))
        return configError(QStringLiteral("no configuration: --kubeconfig not given, KUBECONFIG is empty, not running "
                                          "in a cluster (KUBERNETES_SERVICE_HOST unset), and %1 does not exist")
                               .arg(home));
    return loadFile(home);
}

void Kubeconfig::mergeFrom(const Kubeconfig &later)
{
    if (currentContext.isEmpty())
        currentContext = later.currentContext;
    mergeNamed(clusters, later.clusters);
    mergeNamed(users, later.users);
    mergeNamed(contexts, later.contexts);
    files << later.files;
}

const KubeconfigContext *Kubeconfig::context(const QString &name) const { return findNamed(contexts, name); }
const KubeconfigCluster *Kubeconfig::cluster(const QString &name) const { return findNamed(clusters, name); }
const KubeconfigUser *Kubeconfig::user(const QString &name) const { return findNamed(users, name); }

QStringList Kubeconfig::contextNames() const
{
    QStringList names;
    for (const KubeconfigContext &c : contexts)
        names << c.name;
    return names;
}

} // namespace opbench
