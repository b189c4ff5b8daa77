#include "common/Question.h"

#include "common/Logging.h"

namespace cudnnsetup {

namespace {
struct AnswerName
{
    Answer answer;
    const char *name;
};
constexpr AnswerName kAnswerNames[] = {
    {Answer::Ok, "ok"},       {Answer::Yes, "yes"},       {Answer::No, "no"},
    {Answer::Retry, "retry"}, {Answer::Ignore, "ignore"}, {Answer::Cancel, "cancel"},
};
} // namespace

QString answerName(Answer answer)
{
    for (const AnswerName &entry : kAnswerNames) {
        if (entry.answer == answer)
            return QString::fromLatin1(entry.name);
    }
    return QStringLiteral("cancel");
}

bool answerFromName(const QString &name, Answer *answer)
{
    for (const AnswerName &entry : kAnswerNames) {
        if (name.compare(QLatin1String(entry.name), Qt::CaseInsensitive) == 0) {
            *answer = entry.answer;
            return true;
        }
    }
    return false;
}

TableQuestionHandler::TableQuestionHandler(const QHash<QString, Answer> &answers)
    : m_answers(answers)
{
}

Answer TableQuestionHandler::ask(const Question &question)
{
    m_asked.append(question.id);
    Answer answer = m_answers.value(question.id, question.defaultAnswer);
    if (!question.answers.contains(answer)) {
        qCWarning(lcCore) << "answer" << answerName(answer) << "is not offered by question" << question.id
                          << "- taking its default";
        answer = question.defaultAnswer;
    }
    qCInfo(lcCore) << "question" << question.id << "answered" << answerName(answer)
                   << (m_answers.contains(question.id) ? "from the table" : "by default");
    return answer;
}

} // namespace cudnnsetup
