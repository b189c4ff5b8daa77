#pragma once

#include "common/Finding.h"

#include <optional>
#include <utility>

namespace cudnnsetup {

// A value, or the finding that says why there is none. No exceptions cross layers; a result that
// can carry an error cannot be dropped unread.
template <typename T>
class [[nodiscard]] Expected
{
public:
    Expected(T value)
        : m_value(std::move(value))
    {
    }
    Expected(Finding error)
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

    const Finding &error() const { return m_error; }

private:
    std::optional<T> m_value;
    Finding m_error;
};

// Done, or the finding that says why not: what a step that yields nothing answers (an operation,
// a journal line). The same polarity as a value: true is success.
template <>
class [[nodiscard]] Expected<void>
{
public:
    Expected() = default;
    Expected(Finding error)
        : m_error(std::move(error))
    {
    }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Finding &error() const { return *m_error; }

private:
    std::optional<Finding> m_error;
};

} // namespace cudnnsetup
