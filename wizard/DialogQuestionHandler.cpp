#include "DialogQuestionHandler.h"

#include <QApplication>
#include <QMessageBox>
#include <QThread>

namespace cudnnsetup::wizard {

namespace {
QMessageBox::StandardButton buttonFor(Answer answer)
{
    switch (answer) {
    case Answer::Ok:
        return QMessageBox::Ok;
    case Answer::Yes:
        return QMessageBox::Yes;
    case Answer::No:
        return QMessageBox::No;
    case Answer::Retry:
        return QMessageBox::Retry;
    case Answer::Ignore:
        return QMessageBox::Ignore;
    case Answer::Cancel:
        return QMessageBox::Cancel;
    }
    return QMessageBox::Cancel;
}
} // namespace

DialogQuestionHandler::DialogQuestionHandler(QWidget *dialogParent)
    : QObject(nullptr)
    , m_parent(dialogParent)
{
    moveToThread(QApplication::instance()->thread());
}

Answer DialogQuestionHandler::ask(const Question &question)
{
    if (QThread::currentThread() == thread())
        return askOnGuiThread(question);
    Answer answer = question.defaultAnswer;
    QMetaObject::invokeMethod(
        this, [this, &question, &answer] { answer = askOnGuiThread(question); },
        Qt::BlockingQueuedConnection);
    return answer;
}

Answer DialogQuestionHandler::askOnGuiThread(const Question &question)
{
    QMessageBox box(m_parent);
    box.setObjectName(question.id);
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(question.title.toString());
    box.setText(question.text.toString());
    box.setDetailedText(question.details);
    QMessageBox::StandardButtons buttons;
    for (Answer answer : question.answers)
        buttons |= buttonFor(answer);
    box.setStandardButtons(buttons);
    box.setDefaultButton(buttonFor(question.defaultAnswer));
    const int pressed = box.exec();
    for (Answer answer : question.answers) {
        if (buttonFor(answer) == pressed)
            return answer;
    }
    return question.defaultAnswer; // closed with Esc or the window's close button
}

} // namespace cudnnsetup::wizard
