// SPDX-License-Identifier: Apache-2.0
// opbench-apiserver: the embedded Kubernetes-compatible API server as its own process.
#include <QCommandLineParser>
#include <QCoreApplication>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("opbench-apiserver"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OPBENCH_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Embedded Kubernetes-compatible API server (not yet implemented)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);
    parser.showHelp(0);
}
