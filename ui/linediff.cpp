// SPDX-License-Identifier: Apache-2.0
#include "ui/linediff.h"

#include <vector>

namespace opbench::ui {

namespace {

struct Op
{
    char tag; // ' ', '-', '+'
    QString line;
};

std::vector<Op> diffOps(const QStringList &a, const QStringList &b)
{
    const size_t n = size_t(a.size()), m = size_t(b.size());
    // lcs[i][j]: LCS length of a[i..] and b[j..]
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;) {
        for (size_t j = m; j-- > 0;)
            lcs[i][j]
                = a[qsizetype(i)] == b[qsizetype(j)] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
    std::vector<Op> ops;
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[qsizetype(i)] == b[qsizetype(j)]) {
            ops.push_back({' ', a[qsizetype(i)]});
            ++i;
            ++j;
        } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
            ops.push_back({'-', a[qsizetype(i++)]});
        } else {
            ops.push_back({'+', b[qsizetype(j++)]});
        }
    }
    return ops;
}

} // namespace

QStringList lineDiff(const QStringList &before, const QStringList &after, int context)
{
    const auto ops = diffOps(before, after);
    std::vector<bool> keep(ops.size(), false);
    for (size_t k = 0; k < ops.size(); ++k) {
        if (ops[k].tag == ' ')
            continue;
        const size_t lo = k >= size_t(context) ? k - size_t(context) : 0;
        for (size_t x = lo; x < std::min(ops.size(), k + size_t(context) + 1); ++x)
            keep[x] = true;
    }
    QStringList out;
    bool folded = false;
    for (size_t k = 0; k < ops.size(); ++k) {
        if (!keep[k]) {
            if (!folded)
                out.append(QStringLiteral("  …"));
            folded = true;
            continue;
        }
        folded = false;
        out.append(QChar::fromLatin1(ops[k].tag) + u' ' + ops[k].line);
    }
    return out;
}

} // namespace opbench::ui
