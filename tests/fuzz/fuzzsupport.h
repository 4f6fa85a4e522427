// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small helpers shared by the fuzz targets: the input as Qt types, and FUZZ_CHECK, which
// aborts (a crash libFuzzer records, a failure in tst_fuzz_corpus) when an invariant breaks.

#include <QByteArray>
#include <QString>

#include <cstdio>
#include <cstdlib>

namespace opbench::fuzz {

inline QByteArray bytes(const std::uint8_t *data, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

[[noreturn]] inline void fail(const char *file, int line, const char *what, const QString &detail)
{
    std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n%s\n", file, line, what, qPrintable(detail));
    std::fflush(stderr);
    std::abort();
}

} // namespace opbench::fuzz

#define FUZZ_CHECK(cond, detail)                                                                                       \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            ::opbench::fuzz::fail(__FILE__, __LINE__, #cond, (detail));                                                \
    } while (false)
