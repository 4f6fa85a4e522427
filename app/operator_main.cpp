// SPDX-License-Identifier: Apache-2.0
// opbench-operator: the MyApplication operator, headless (in-cluster or with a kubeconfig).
#include <QCommandLineParser>
#include <QCoreApplication>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("opbench-operator"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OPBENCH_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The MyApplication operator, headless (not yet implemented)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);
    parser.showHelp(0);
}
