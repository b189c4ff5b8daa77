#pragma once

#include "common/Text.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

enum class Answer
{
    Ok,
    Yes,
    No,
    Retry,
    Ignore,
    Cancel,
};

QString answerName(Answer answer);
bool answerFromName(const QString &name, Answer *answer);

// A question core asks the user. `id` is stable across versions and languages: the wizard shows a
// dialog, while tests and unattended mode answer from a table keyed by it.
struct Question
{
    QString id;
    Text title;
    Text text;
    QString details;
    QList<Answer> answers{Answer::Ok};
    Answer defaultAnswer = Answer::Ok; // the safe choice, taken when nobody can be asked
};

class QuestionHandler
{
public:
    virtual ~QuestionHandler() = default;
    // Blocks until answered; may be called from any thread.
    virtual Answer ask(const Question &question) = 0;
};

// Answers from a table (an answer file, a test); a question missing from the table gets its
// default answer. Every question asked is kept, so a log or a test can show what was asked.
class TableQuestionHandler final : public QuestionHandler
{
public:
    TableQuestionHandler() = default;
    explicit TableQuestionHandler(const QHash<QString, Answer> &answers);

    void setAnswer(const QString &id, Answer answer) { m_answers.insert(id, answer); }
    Answer ask(const Question &question) override;
    QStringList askedIds() const { return m_asked; }

private:
    QHash<QString, Answer> m_answers;
    QStringList m_asked;
};

} // namespace cudnnsetup
