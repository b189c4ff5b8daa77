#include "session/SetupSession.h"

namespace cudnnsetup {

SetupSession::SetupSession(SystemContext context, QObject *parent)
    : QObject(parent)
    , m_context(std::move(context))
    , m_questions(std::make_shared<TableQuestionHandler>())
{
}

void SetupSession::setSnapshot(const SystemSnapshot &snapshot)
{
    m_snapshot = snapshot;
    Q_EMIT snapshotChanged();
}

void SetupSession::clearSnapshot()
{
    m_snapshot.reset();
    Q_EMIT snapshotChanged();
}

void SetupSession::setQuestionHandler(std::shared_ptr<QuestionHandler> handler)
{
    m_questions = std::move(handler);
}

} // namespace cudnnsetup
