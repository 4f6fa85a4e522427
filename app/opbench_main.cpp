// SPDX-License-Identifier: Apache-2.0
// opbench: the desktop workbench.
#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("opbench"));
    QApplication::setApplicationVersion(QStringLiteral(OPBENCH_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("opbench, the operator workbench (window not yet implemented)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);
    parser.showHelp(0);
}
