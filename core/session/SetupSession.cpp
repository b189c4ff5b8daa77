#include "session/SetupSession.h"

#include "common/Logging.h"

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
    rematch();
}

void SetupSession::clearSnapshot()
{
    m_snapshot.reset();
    Q_EMIT snapshotChanged();
    rematch();
}

void SetupSession::setDatabase(const DatabaseChoice &database)
{
    m_database = database;
    rematch();
}

void SetupSession::rematch()
{
    m_blockersOverridden = false;
    if (m_snapshot) {
        m_matchFacts = MatchFacts::fromSnapshot(*m_snapshot);
        MatchResult result = cudnnsetup::match(m_matchFacts, m_database.database);
        result.findings = m_database.findings + result.findings;
        m_match = result;
    } else {
        m_matchFacts = MatchFacts();
        m_match.reset();
    }
    Q_EMIT matchChanged();
}

void SetupSession::setBlockersOverridden(bool overridden)
{
    if (overridden == m_blockersOverridden)
        return;
    m_blockersOverridden = overridden;
    QStringList blockers;
    if (m_match) {
        for (const Finding &finding : m_match->findings) {
            if (finding.severity == Severity::Error)
                blockers.append(finding.id);
        }
    }
    if (overridden)
        qCWarning(lcWizard).noquote()
            << "the user chose to go on despite:" << blockers.join(QStringLiteral(", "));
    else
        qCInfo(lcWizard) << "the user withdrew the override of the blocking findings";
}

void SetupSession::setQuestionHandler(std::shared_ptr<QuestionHandler> handler)
{
    m_questions = std::move(handler);
}

} // namespace cudnnsetup
