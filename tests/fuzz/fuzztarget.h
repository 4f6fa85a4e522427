// SPDX-License-Identifier: Apache-2.0
#pragma once
// OPBENCH_FUZZ_TARGET(name)(const uint8_t *data, size_t size) { … return 0; }
//
// In a libFuzzer build (fuzz_<name>) this is LLVMFuzzerTestOneInput. In tst_fuzz_corpus
// (OPBENCH_FUZZ_REPLAY) every target is compiled into one executable: the macro names the
// function after the target and registers it with the replay driver (replaymain.cpp).

#include <cstddef>
#include <cstdint>

namespace opbench::fuzz {
using TargetFn = int (*)(const std::uint8_t *, std::size_t);
/// Called by the registrations (replay build only).
bool registerTarget(const char *name, TargetFn fn);
} // namespace opbench::fuzz

#ifdef OPBENCH_FUZZ_REPLAY
#define OPBENCH_FUZZ_TARGET(name)                                                                                      \
    static int opbench_fuzz_##name(const std::uint8_t *, std::size_t);                                                 \
    [[maybe_unused]] static const bool opbench_fuzz_registered_##name                                                  \
        = opbench::fuzz::registerTarget(#name, &opbench_fuzz_##name);                                                  \
    static int opbench_fuzz_##name
#else
#define OPBENCH_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput
#endif
