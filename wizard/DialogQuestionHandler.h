#pragma once

#include "common/Question.h"

#include <QObject>
#include <QPointer>

class QWidget;

namespace cudnnsetup::wizard {

// Answers core's questions with a message box on the GUI thread, whichever thread asks.
class DialogQuestionHandler final : public QObject, public QuestionHandler
{
    Q_OBJECT

public:
    explicit DialogQuestionHandler(QWidget *dialogParent);
    Answer ask(const Question &question) override;

private:
    Answer askOnGuiThread(const Question &question);

    QPointer<QWidget> m_parent;
};

} // namespace cudnnsetup::wizard
