#pragma once

#include "common/Finding.h"

#include <optional>
#include <utility>

namespace cudnnsetup {

// A value, or the error that says why there is none. No exceptions cross layers; a result that
// can carry an error cannot be dropped unread. Across layers the error is a Finding (translated,
// with an id); inside the platform layer it is the system's own (SystemFailure), which the caller
// turns into the Finding that fits what it was doing.
template <typename T, typename Error = Finding>
class [[nodiscard]] Expected
{
public:
    Expected(T value)
        : m_value(std::move(value))
    {
    }
    Expected(Error error)
        : m_error(std::move(error))
    {
    }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }

    const T &value() const { return *m_value; }
    T &value() { return *m_value; }
    const T &operator*() const { return *m_value; }
    const T *operator->() const { return &*m_value; }
    T valueOr(T fallback) const { return m_value ? *m_value : std::move(fallback); }

    const Error &error() const { return m_error; }

private:
    std::optional<T> m_value;
    Error m_error;
};

// Done, or the error that says why not: what a step that yields nothing answers (an operation,
// a journal line, a file renamed). The same polarity as a value: true is success.
template <typename Error>
class [[nodiscard]] Expected<void, Error>
{
public:
    Expected() = default;
    Expected(Error error)
        : m_error(std::move(error))
    {
    }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace cudnnsetup
