#pragma once

#include <atomic>
#include <functional>
#include <memory>

namespace cudnnsetup {

// One request to stop, shared by whoever asks (a Cancel button, a job being destroyed) and the work
// that checks it. Copies share the request.
class CancelToken
{
public:
    CancelToken()
        : m_requested(std::make_shared<std::atomic<bool>>(false))
    {
    }

    void request() const { m_requested->store(true); }
    bool requested() const { return m_requested->load(); }

    // For the options that take a flag (DetectOptions, VerifyOptions): valid while a copy of this
    // token lives.
    const std::atomic<bool> *flag() const { return m_requested.get(); }
    // For the options that ask (InspectOptions, ChangeOptions).
    std::function<bool()> asked() const
    {
        return [requested = m_requested] { return requested->load(); };
    }

private:
    std::shared_ptr<std::atomic<bool>> m_requested;
};

} // namespace cudnnsetup
