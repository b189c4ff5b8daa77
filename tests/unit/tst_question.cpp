#include "Suite.h"
#include "common/Question.h"

#include <QTest>

using namespace cudnnsetup;

class TestQuestion : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tableAnswersByIdElseDefault()
    {
        TableQuestionHandler handler({{QStringLiteral("install.file-in-use"), Answer::Retry}});
        Question inUse;
        inUse.id = QStringLiteral("install.file-in-use");
        inUse.answers = {Answer::Retry, Answer::Ignore, Answer::Cancel};
        inUse.defaultAnswer = Answer::Cancel;
        QCOMPARE(handler.ask(inUse), Answer::Retry);

        Question other = inUse;
        other.id = QStringLiteral("install.other");
        QCOMPARE(handler.ask(other), Answer::Cancel);
        QCOMPARE(handler.askedIds(),
                 (QStringList{QStringLiteral("install.file-in-use"), QStringLiteral("install.other")}));
    }

    void answerNotOfferedFallsBackToDefault()
    {
        TableQuestionHandler handler;
        handler.setAnswer(QStringLiteral("q"), Answer::Yes);
        Question question;
        question.id = QStringLiteral("q");
        question.answers = {Answer::Ok, Answer::Cancel};
        question.defaultAnswer = Answer::Cancel;
        QCOMPARE(handler.ask(question), Answer::Cancel);
    }

    void answerNames()
    {
        Answer answer = Answer::Ok;
        QVERIFY(answerFromName(QStringLiteral("Retry"), &answer));
        QCOMPARE(answer, Answer::Retry);
        QCOMPARE(answerName(Answer::Ignore), QStringLiteral("ignore"));
        QVERIFY(!answerFromName(QStringLiteral("maybe"), &answer));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestQuestion)
#include "tst_question.moc"
