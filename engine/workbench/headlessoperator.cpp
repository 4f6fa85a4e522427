// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/headlessoperator.h"

#include "engine/api/status.h"

#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTimer>

namespace opbench::workbench {

namespace {

constexpr int KillAfterMs = 15000;
constexpr int DestructorWaitMs = 5000;
constexpr int MaxBufferedLines = 2000;

Expected<void> writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Status::badRequest(QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (file.write(data) != data.size())
        return Status::badRequest(QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

} // namespace

HeadlessOperator::HeadlessOperator(QObject *parent)
    : QObject(parent)
{ }

HeadlessOperator::~HeadlessOperator()
{
    if (!isRunning())
        return;
    m_process->disconnect(this);
    m_process->terminate();
    if (!m_process->waitForFinished(DestructorWaitMs)) {
        m_process->kill();
        m_process->waitForFinished(DestructorWaitMs);
    }
}

Expected<void> HeadlessOperator::prepareServiceAccount(const HeadlessLaunch &launch)
{
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid())
        return Status::badRequest(
            tr("Cannot create a temporary folder for the service account: %1").arg(m_dir->errorString()));
    for (const auto &[name, data] :
        {std::pair{QStringLiteral("token"), launch.token}, std::pair{QStringLiteral("ca.crt"), launch.caPem},
            std::pair{QStringLiteral("namespace"), launch.namespaceName.toUtf8()}}) {
        if (auto ok = writeFile(m_dir->filePath(name), data); !ok)
            return ok;
    }
    return {};
}

Expected<void> HeadlessOperator::start(const HeadlessLaunch &launch)
{
    if (isRunning())
        return Status::badRequest(tr("The headless operator is already running."));
    if (!QFileInfo(launch.program).isExecutable())
        return Status::badRequest(
            tr("opbench-operator was not found at %1 (it is built next to opbench).").arg(launch.program));
    if (auto ok = prepareServiceAccount(launch); !ok)
        return ok;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("KUBECONFIG")); // as in a pod: in-cluster configuration only
    env.insert(QStringLiteral("KUBERNETES_SERVICE_HOST"), launch.server.host());
    env.insert(QStringLiteral("KUBERNETES_SERVICE_PORT"), QString::number(launch.server.port(443)));
    env.insert(QStringLiteral("OPBENCH_SERVICEACCOUNT_DIR"), m_dir->path());

    delete m_process;
    m_process = new QProcess(this);
    m_process->setProcessEnvironment(env);
    m_process->setProgram(launch.program);
    m_process->setArguments({QStringLiteral("--leader-elect"), QStringLiteral("--leader-election-id"), launch.leaseName,
        QStringLiteral("--identity"), launch.identity, QStringLiteral("--health-probe-bind-address"),
        QStringLiteral("0"), QStringLiteral("--metrics-bind-address"), QStringLiteral("0"),
        QStringLiteral("--zap-encoder"), QStringLiteral("console")});
    if (!launch.recordPath.isEmpty())
        m_process->setArguments(m_process->arguments() << QStringLiteral("--record") << launch.recordPath);
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] { readChannel(QProcess::StandardOutput); });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] { readChannel(QProcess::StandardError); });
    connect(m_process, &QProcess::started, this, &HeadlessOperator::started);
    connect(m_process, &QProcess::finished, this, &HeadlessOperator::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &HeadlessOperator::onError);
    m_identity = launch.identity;
    m_stopping = m_reported = false;
    m_partial[0].clear();
    m_partial[1].clear();
    m_process->start();
    return {};
}

void HeadlessOperator::stop()
{
    if (!isRunning() || m_stopping)
        return;
    m_stopping = true;
    m_process->terminate();
    QPointer<QProcess> process(m_process);
    QTimer::singleShot(KillAfterMs, this, [process] {
        if (process && process->state() != QProcess::NotRunning)
            process->kill();
    });
}

bool HeadlessOperator::isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }

qint64 HeadlessOperator::pid() const { return m_process ? m_process->processId() : 0; }

QStringList HeadlessOperator::takeLogLines() { return std::exchange(m_lines, {}); }

void HeadlessOperator::readChannel(QProcess::ProcessChannel channel)
{
    m_process->setReadChannel(channel);
    QByteArray &partial = m_partial[channel == QProcess::StandardOutput ? 0 : 1];
    partial += m_process->readAll();
    qsizetype nl;
    while ((nl = partial.indexOf('\n')) >= 0) {
        m_lines.append(QString::fromUtf8(partial.left(nl)).trimmed());
        partial.remove(0, nl + 1);
    }
    if (m_lines.size() > MaxBufferedLines)
        m_lines.remove(0, m_lines.size() - MaxBufferedLines);
}

void HeadlessOperator::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readChannel(QProcess::StandardOutput);
    readChannel(QProcess::StandardError);
    for (QByteArray &rest : m_partial) {
        if (!rest.trimmed().isEmpty())
            m_lines.append(QString::fromUtf8(rest).trimmed());
        rest.clear();
    }
    m_stopping = false;
    if (m_reported)
        return;
    m_reported = true;
    const bool crashed = status == QProcess::CrashExit;
    const QString message = crashed ? tr("opbench-operator was killed (%1)").arg(m_process->errorString())
                                    : tr("opbench-operator exited with code %1").arg(exitCode);
    Q_EMIT finished(crashed ? -1 : exitCode, crashed, message);
}

void HeadlessOperator::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || m_reported)
        return;
    m_reported = true;
    Q_EMIT finished(-1, true, tr("opbench-operator could not be started: %1").arg(m_process->errorString()));
}

} // namespace opbench::workbench
