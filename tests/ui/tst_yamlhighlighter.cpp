// SPDX-License-Identifier: Apache-2.0
// The built-in YAML/JSON highlighter colours keys, strings, numbers, literals and comments; the
// line diff marks what changed.
#include "ui/highlighterinfo.h"
#include "ui/linediff.h"
#include "ui/yamlhighlighter.h"

#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace opbench::ui;

namespace {
// The foreground colour at `column` of `line`.
QColor colourAt(QTextDocument &doc, int line, int column)
{
    const QTextBlock block = doc.findBlockByNumber(line);
    for (const QTextLayout::FormatRange &r : block.layout()->formats()) {
        if (column >= r.start && column < r.start + r.length)
            return r.format.foreground().color();
    }
    return {};
}
QColor colourOf(YamlHighlighter::Token t) { return YamlHighlighter::tokenFormat(t).foreground().color(); }
} // namespace

class tst_YamlHighlighter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldColourYamlTokens_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("token");
        const QString yaml = QStringLiteral("  image: \"nginx:1.25\"");
        QTest::newRow("yaml key") << yaml << 3 << int(YamlHighlighter::Token::Key);
        QTest::newRow("yaml quoted string") << yaml << 12 << int(YamlHighlighter::Token::String);
        QTest::newRow("yaml number") << QStringLiteral("replicas: 3") << 10 << int(YamlHighlighter::Token::Number);
        QTest::newRow("yaml plain string")
            << QStringLiteral("phase: Running") << 8 << int(YamlHighlighter::Token::String);
        QTest::newRow("yaml boolean") << QStringLiteral("ready: true") << 8 << int(YamlHighlighter::Token::Literal);
        QTest::newRow("yaml null") << QStringLiteral("- name: null") << 9 << int(YamlHighlighter::Token::Literal);
        QTest::newRow("comment") << QStringLiteral("a: 1 # note") << 7 << int(YamlHighlighter::Token::Comment);
        QTest::newRow("json key") << QStringLiteral("{\"kind\": \"Pod\", \"n\": 2}") << 2
                                  << int(YamlHighlighter::Token::Key);
        QTest::newRow("json number") << QStringLiteral("  \"replicas\": 12,") << 15
                                     << int(YamlHighlighter::Token::Number);
    }

    void shouldColourYamlTokens()
    {
        QFETCH(QString, text);
        QFETCH(int, column);
        QFETCH(int, token);
        QTextDocument doc;
        YamlHighlighter highlighter(&doc);
        doc.setPlainText(text);
        highlighter.rehighlight();
        QCOMPARE(colourAt(doc, 0, column), colourOf(YamlHighlighter::Token(token)));
    }

    void shouldUseDistinctColours()
    {
        QVERIFY(colourOf(YamlHighlighter::Token::Key) != colourOf(YamlHighlighter::Token::String));
        QVERIFY(colourOf(YamlHighlighter::Token::String) != colourOf(YamlHighlighter::Token::Number));
        QVERIFY(!highlighterName().isEmpty());
    }

    void shouldDiffLines()
    {
        const QStringList before{"a: 1", "b: 2", "c: 3"};
        const QStringList after{"a: 1", "b: 5", "c: 3", "d: 4"};
        QCOMPARE(lineDiff(before, after), (QStringList{"  a: 1", "- b: 2", "+ b: 5", "  c: 3", "+ d: 4"}));
    }
};

QTEST_MAIN(tst_YamlHighlighter)
#include "tst_yamlhighlighter.moc"
