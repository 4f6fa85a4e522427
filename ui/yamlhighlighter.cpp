// SPDX-License-Identifier: Apache-2.0
#include "ui/yamlhighlighter.h"

#include <QColor>
#include <QRegularExpression>

namespace opbench::ui {

namespace {

QTextCharFormat makeFormat(const QColor &colour, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(colour);
    if (bold)
        f.setFontWeight(QFont::DemiBold);
    f.setFontItalic(italic);
    return f;
}

// A key: `  - "name":` or `name:` (YAML) / `"name":` (JSON), followed by a space or the end.
const QRegularExpression &keyPattern()
{
    static const QRegularExpression re(
        QStringLiteral(R"(^(\s*(?:-\s+)*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"{}\[\],:][^#:]*?)\s*:(?=\s|$))"));
    return re;
}

const QRegularExpression &scalarPattern()
{
    static const QRegularExpression re(QStringLiteral(
        R"("(?:[^"\\]|\\.)*"?|'[^']*'?|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?=[\s,\]}]|$)|\b(?:true|false|null|True|False|Null|TRUE|FALSE|NULL|~)\b|#.*$)"));
    return re;
}

bool isFollowedByColon(const QString &text, qsizetype pos)
{
    while (pos < text.size() && text.at(pos).isSpace())
        ++pos;
    return pos < text.size() && text.at(pos) == u':';
}

} // namespace

YamlHighlighter::YamlHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{ }

QTextCharFormat YamlHighlighter::tokenFormat(Token token)
{
    switch (token) {
    case Token::Key:
        return makeFormat(QColor(0x1f, 0x4e, 0x99), true);
    case Token::String:
        return makeFormat(QColor(0x2e, 0x7d, 0x32));
    case Token::Number:
        return makeFormat(QColor(0xb3, 0x5c, 0x00));
    case Token::Literal:
        return makeFormat(QColor(0x8e, 0x24, 0xaa), true);
    case Token::Comment:
        return makeFormat(QColor(0x80, 0x80, 0x80), false, true);
    }
    return {};
}

void YamlHighlighter::highlightBlock(const QString &text)
{
    qsizetype valueStart = 0;
    const auto key = keyPattern().match(text);
    if (key.hasMatch()) {
        setFormat(int(key.capturedStart(2)), int(key.capturedLength(2)), tokenFormat(Token::Key));
        valueStart = key.capturedEnd(0);
    }
    highlightValue(text, valueStart);
}

void YamlHighlighter::highlightValue(const QString &text, qsizetype start)
{
    auto it = scalarPattern().globalMatch(text, start);
    while (it.hasNext()) {
        const auto m = it.next();
        const QString tok = m.captured(0);
        Token t = Token::Literal;
        if (tok.startsWith(u'#'))
            t = Token::Comment;
        else if (tok.startsWith(u'"') || tok.startsWith(u'\''))
            t = isFollowedByColon(text, m.capturedEnd()) ? Token::Key : Token::String; // JSON {"k": v}
        else if (tok.front().isDigit() || tok.front() == u'-')
            t = Token::Number;
        setFormat(int(m.capturedStart()), int(m.capturedLength()), tokenFormat(t));
    }
    // A plain (unquoted) YAML string value after "key: " that is not a number/literal.
    const QString rest = text.mid(start).trimmed();
    if (start > 0 && !rest.isEmpty() && format(int(start + text.mid(start).indexOf(rest))) == QTextCharFormat()) {
        const auto first = rest.front();
        if (first != u'#' && first != u'{' && first != u'[' && first != u'|' && first != u'>' && first != u'&'
            && first != u'*') {
            const qsizetype at = start + text.mid(start).indexOf(rest);
            qsizetype end = text.indexOf(QStringLiteral(" #"), at);
            if (end < 0)
                end = text.size();
            setFormat(int(at), int(end - at), tokenFormat(Token::String));
        }
    }
}

void YamlDiffHighlighter::highlightBlock(const QString &text)
{
    if (text.size() < 2) {
        YamlHighlighter::highlightBlock(text);
        return;
    }
    // The two-character diff prefix read as indentation, so keys and values colour as in YAML.
    YamlHighlighter::highlightBlock(QStringLiteral("  ") + text.mid(2));
    QColor background;
    if (text.startsWith(u'+'))
        background = QColor(0xe6, 0xf4, 0xea);
    else if (text.startsWith(u'-'))
        background = QColor(0xfd, 0xe7, 0xe9);
    else
        return;
    for (int i = 0; i < int(text.size()); ++i) {
        QTextCharFormat f = format(i);
        f.setBackground(background);
        setFormat(i, 1, f);
    }
}

} // namespace opbench::ui
