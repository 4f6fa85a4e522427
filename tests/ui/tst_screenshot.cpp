// SPDX-License-Identifier: Apache-2.0
// `opbench --screenshot PATH --exit-after S` writes a non-empty PNG of the main window and exits
// 0; `--help` lists the documented options.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {
QString opbenchBinary() { return QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench"); }
} // namespace

class tst_Screenshot : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldListTheOptionsInHelp()
    {
        QProcess p;
        p.start(opbenchBinary(), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(30000));
        const QString help = QString::fromUtf8(p.readAllStandardOutput());
        for (const char *opt : {"--kubeconfig", "--context", "--screenshot", "--exit-after"})
            QVERIFY2(help.contains(QLatin1String(opt)), opt);
    }

    void shouldWriteANonEmptyPng()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("window.png"));
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedChannels);
        p.start(opbenchBinary(),
            {QStringLiteral("--screenshot"), png, QStringLiteral("--exit-after"), QStringLiteral("3")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 400 && image.height() > 300);
        // Not a blank canvas: more than a handful of distinct colours
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        }
        QVERIFY(colours.size() > 10);
    }
};

QTEST_GUILESS_MAIN(tst_Screenshot)
#include "tst_screenshot.moc"
