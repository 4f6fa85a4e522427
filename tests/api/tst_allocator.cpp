// SPDX-License-Identifier: Apache-2.0
// The allocator the build chose (cmake/OpbenchAllocator.cmake) is the one that runs: malloc and
// operator new of this process (linked like every opbench executable, through opbench_base)
// resolve into the library allocatorName() names, so a link that silently dropped tcmalloc
// fails here instead of making every figure in bench/README.md wrong.
#include "engine/base/allocator.h"

#include <QTest>

#include <dlfcn.h>

#include <cstdlib>
#include <new>

namespace {

/// The shared object that defines the function at `address` ("" when unknown).
QString definingObject(const void *address)
{
    Dl_info info{};
    if (dladdr(address, &info) == 0 || info.dli_fname == nullptr)
        return {};
    return QString::fromLocal8Bit(info.dli_fname);
}

} // namespace

class TestAllocator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldRunOnTheAllocatorTheBuildNames()
    {
        const QString name = QString::fromLatin1(opbench::allocatorName());
        const QString mallocFrom = definingObject(reinterpret_cast<const void *>(&std::malloc));
        void *(*newFn)(std::size_t) = &::operator new;
        const QString newFrom = definingObject(reinterpret_cast<const void *>(newFn));
        qInfo("allocator: %s; malloc from %s, operator new from %s", qPrintable(name), qPrintable(mallocFrom),
            qPrintable(newFrom));
        if (name.startsWith(QLatin1String("tcmalloc"))) {
            QVERIFY2(mallocFrom.contains(QLatin1String("tcmalloc")), qPrintable(mallocFrom));
            QVERIFY2(newFrom.contains(QLatin1String("tcmalloc")), qPrintable(newFrom));
        } else {
            QCOMPARE(name, QStringLiteral("glibc malloc"));
            QVERIFY2(mallocFrom.contains(QLatin1String("libc.so")) || mallocFrom.contains(QLatin1String("asan")),
                qPrintable(mallocFrom));
        }
    }
};

QTEST_GUILESS_MAIN(TestAllocator)
#include "tst_allocator.moc"
