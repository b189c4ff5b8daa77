#pragma once

#include "archive/ArchiveInspector.h"
#include "install/InstallTarget.h"
#include "install/Installer.h"
#include "platform/SystemContext.h"
#include "session/BackgroundJob.h"

namespace cudnnsetup {

// checkTarget() on a worker thread (it writes and removes a probe file in the target's folder, and
// a network share may keep it waiting), with the administrator rights it needs offered as an
// elevated run, and the free space on the target's volume (as the context's volumes() tell it):
// checked(findings, freeBytes) at the end, freeBytes -1 when it cannot be read.
class TargetCheckJob final : public BackgroundJob
{
    Q_OBJECT

public:
    TargetCheckJob(InstallTarget target, ArchiveReport archive, SystemContext context, ChangeOptions planned,
                   QObject *parent = nullptr);

    void start();

Q_SIGNALS:
    void checked(const cudnnsetup::Findings &findings, qint64 freeBytes);

private:
    InstallTarget m_target;
    ArchiveReport m_archive;
    SystemContext m_context;
    ChangeOptions m_planned;
};

} // namespace cudnnsetup
