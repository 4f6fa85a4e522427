// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal awaitables for the client: wait for a signal with a bound, and sleep through a Clock.
// Both resume the coroutine exactly once and never touch a destroyed object.

#include "engine/base/clock.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>
#include <coroutine>
#include <memory>

namespace opbench::detail {

enum class WaitOutcome { Signalled, TimedOut, Destroyed };

/// `co_await SignalWait(obj, &Cls::signal, 30s)`: resumes when the signal fires, when `timeout`
/// passes (a negative timeout waits forever), or when `obj` is destroyed.
template<typename T, typename Signal> class SignalWait
{
public:
    SignalWait(T *obj, Signal sig, std::chrono::milliseconds timeout)
        : m_obj(obj)
        , m_sig(sig)
        , m_timeout(timeout)
    { }
    // Movable only before it is awaited (the compiler may move the temporary into place).
    SignalWait(SignalWait &&o) noexcept
        : m_obj(o.m_obj)
        , m_sig(o.m_sig)
        , m_timeout(o.m_timeout)
    { }
    SignalWait(const SignalWait &) = delete;
    SignalWait &operator=(const SignalWait &) = delete;
    SignalWait &operator=(SignalWait &&) = delete;
    ~SignalWait() { disconnectAll(); }

    bool await_ready() const noexcept { return m_obj.isNull(); }
    void await_suspend(std::coroutine_handle<> h)
    {
        m_handle = h;
        m_signalConn
            = QObject::connect(m_obj.data(), m_sig, m_obj.data(), [this]() { resume(WaitOutcome::Signalled); });
        m_destroyConn
            = QObject::connect(m_obj.data(), &QObject::destroyed, [this]() { resume(WaitOutcome::Destroyed); });
        if (m_timeout.count() >= 0) {
            m_timer = std::make_unique<QTimer>();
            m_timer->setSingleShot(true);
            QObject::connect(
                m_timer.get(), &QTimer::timeout, m_timer.get(), [this]() { resume(WaitOutcome::TimedOut); });
            m_timer->start(m_timeout);
        }
    }
    WaitOutcome await_resume() const noexcept { return m_obj.isNull() && !m_done ? WaitOutcome::Destroyed : m_outcome; }

private:
    void disconnectAll()
    {
        QObject::disconnect(m_signalConn);
        QObject::disconnect(m_destroyConn);
        if (m_timer)
            m_timer->stop();
    }
    void resume(WaitOutcome o)
    {
        if (m_done)
            return;
        m_done = true;
        m_outcome = o;
        disconnectAll();
        m_handle.resume();
    }

    QPointer<T> m_obj;
    Signal m_sig;
    std::chrono::milliseconds m_timeout;
    std::coroutine_handle<> m_handle;
    QMetaObject::Connection m_signalConn;
    QMetaObject::Connection m_destroyConn;
    std::unique_ptr<QTimer> m_timer;
    WaitOutcome m_outcome = WaitOutcome::Signalled;
    bool m_done = false;
};

/// `co_await ClockSleep(clock, d, context)`: resumes after `d` on `clock`. If `context` dies first
/// the coroutine is never resumed (its frame is abandoned), so pass the object whose members the
/// coroutine uses.
class ClockSleep
{
public:
    ClockSleep(Clock *clock, Clock::Duration d, QObject *context)
        : m_clock(clock)
        , m_d(d)
        , m_context(context)
    { }
    bool await_ready() const noexcept { return m_d.count() <= 0; }
    void await_suspend(std::coroutine_handle<> h)
    {
        m_clock->callAfter(m_d, m_context, [h]() { h.resume(); });
    }
    void await_resume() const noexcept { }

private:
    Clock *m_clock;
    Clock::Duration m_d;
    QObject *m_context;
};

} // namespace opbench::detail
