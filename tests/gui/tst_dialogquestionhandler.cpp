#include "DialogQuestionHandler.h"
#include "Suite.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTest>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;

namespace {

Question fileInUse()
{
    Question question;
    question.id = QStringLiteral("install.file-in-use");
    question.title = Text::verbatim(QStringLiteral("File in use"));
    question.text = Text::verbatim(QStringLiteral("cudnn64_9.dll is in use."));
    question.answers = {Answer::Retry, Answer::Ignore, Answer::Cancel};
    question.defaultAnswer = Answer::Cancel;
    return question;
}

// Presses `button` on the message box for `id` as soon as it shows.
void pressWhenShown(const QString &id, QMessageBox::StandardButton button)
{
    auto timer = new QTimer;
    QObject::connect(timer, &QTimer::timeout, timer, [timer, id, button] {
        auto box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || box->objectName() != id)
            return;
        box->button(button)->click();
        timer->deleteLater();
    });
    timer->start(10);
}

} // namespace

class TestDialogQuestionHandler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void answersOnTheGuiThread()
    {
        QWidget parent;
        DialogQuestionHandler handler(&parent);
        pressWhenShown(QStringLiteral("install.file-in-use"), QMessageBox::Retry);
        QCOMPARE(handler.ask(fileInUse()), Answer::Retry);
    }

    void workerThreadsWaitForTheDialog()
    {
        QWidget parent;
        DialogQuestionHandler handler(&parent);
        pressWhenShown(QStringLiteral("install.file-in-use"), QMessageBox::Ignore);
        QFuture<Answer> answer = QtConcurrent::run([&handler] { return handler.ask(fileInUse()); });
        QTRY_VERIFY_WITH_TIMEOUT(answer.isFinished(), 10000);
        QCOMPARE(answer.result(), Answer::Ignore);
    }

    void escapeTakesTheDefault()
    {
        QWidget parent;
        DialogQuestionHandler handler(&parent);
        auto timer = new QTimer;
        connect(timer, &QTimer::timeout, timer, [timer] {
            if (auto box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                QTest::keyClick(box, Qt::Key_Escape);
                timer->deleteLater();
            }
        });
        timer->start(10);
        QCOMPARE(handler.ask(fileInUse()), Answer::Cancel);
    }
};

CUDNNSETUP_TEST_MAIN(TestDialogQuestionHandler)
#include "tst_dialogquestionhandler.moc"
