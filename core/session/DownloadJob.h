#pragma once

#include "compat/KnowledgeBase.h"
#include "download/ArchiveDownload.h"
#include "session/BackgroundJob.h"

namespace cudnnsetup {

// An archive downloaded on a worker thread (downloadArchive): progress() a few times a second,
// finished(report) at the end, whatever came of it; a cancelled download ends with a report that
// says so (its .part kept for the next try).
class DownloadJob final : public BackgroundJob
{
    Q_OBJECT

public:
    DownloadJob(DownloadRequest request, KnowledgeBase database, QObject *parent = nullptr);

    void start();
    const DownloadRequest &request() const { return m_request; }

Q_SIGNALS:
    void progress(const cudnnsetup::DownloadProgress &progress);
    void finished(const cudnnsetup::DownloadReport &report);

private:
    DownloadRequest m_request;
    KnowledgeBase m_database;
};

} // namespace cudnnsetup
