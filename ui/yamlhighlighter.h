// SPDX-License-Identifier: Apache-2.0
#pragma once
// YamlHighlighter: the built-in highlighter for the YAML and JSON the workbench shows (used when
// the build has no KF6 SyntaxHighlighting). Colours keys, strings, numbers, booleans/null and
// comments; one line at a time (block scalars are left plain).

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace opbench::ui {

class YamlHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    enum class Token { Key, String, Number, Literal, Comment };

    explicit YamlHighlighter(QTextDocument *document);

    /// The format used for `token` (same palette in every view).
    static QTextCharFormat tokenFormat(Token token);

protected:
    void highlightBlock(const QString &text) override;

private:
    void highlightValue(const QString &text, qsizetype start);
};

/// YamlDiffHighlighter: the same colours for a lineDiff() of YAML ("  same", "- removed",
/// "+ added"), with added lines on green and removed lines on red.
class YamlDiffHighlighter : public YamlHighlighter
{
    Q_OBJECT
public:
    using YamlHighlighter::YamlHighlighter;

protected:
    void highlightBlock(const QString &text) override;
};

} // namespace opbench::ui
