// SPDX-License-Identifier: Apache-2.0
#pragma once
// Expected<T>: a value or a Status (std::expected is C++23; g++ 12 lacks it).

#include "engine/api/status.h"

#include <utility>
#include <variant>

namespace opbench {

template<typename T> class [[nodiscard]] Expected
{
public:
    /// An error with an empty Status; exists only because containers and QCoro::waitFor need a
    /// default-constructible type. Never return it.
    Expected()
        : m_v(std::in_place_index<1>, Status())
    { }
    Expected(T value)
        : m_v(std::in_place_index<0>, std::move(value))
    { }
    Expected(Status error)
        : m_v(std::in_place_index<1>, std::move(error))
    { }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_v); }
    const T &value() const & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const Status &error() const { return std::get<1>(m_v); }

private:
    std::variant<T, Status> m_v;
};

/// Expected<void>: success or a Status.
template<> class [[nodiscard]] Expected<void>
{
public:
    Expected() = default;
    Expected(Status error)
        : m_error(std::move(error))
        , m_ok(false)
    { }
    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Status &error() const { return m_error; }

private:
    Status m_error;
    bool m_ok = true;
};

} // namespace opbench
