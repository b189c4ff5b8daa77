#pragma once

#include "common/Question.h"
#include "detect/SystemSnapshot.h"
#include "platform/SystemContext.h"

#include <QObject>

#include <memory>
#include <optional>

namespace cudnnsetup {

// The one model the wizard's pages share (and unattended mode drives without pages): which system
// is worked on, what detection found, and who answers core's questions. A page reads from it when
// it is shown and commits its value into it when it is left.
class SetupSession final : public QObject
{
    Q_OBJECT

public:
    explicit SetupSession(SystemContext context, QObject *parent = nullptr);

    const SystemContext &context() const { return m_context; }

    bool hasSnapshot() const { return m_snapshot.has_value(); }
    const SystemSnapshot &snapshot() const { return *m_snapshot; }
    void setSnapshot(const SystemSnapshot &snapshot);
    void clearSnapshot();

    QuestionHandler &questions() const { return *m_questions; }
    void setQuestionHandler(std::shared_ptr<QuestionHandler> handler);

Q_SIGNALS:
    void snapshotChanged();

private:
    SystemContext m_context;
    std::optional<SystemSnapshot> m_snapshot;
    std::shared_ptr<QuestionHandler> m_questions;
};

} // namespace cudnnsetup
