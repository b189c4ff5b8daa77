#pragma once

#include "common/Text.h"
#include "compat/PurposeAdvice.h"
#include "install/Receipt.h"

#include <QList>
#include <QString>

#include <optional>

namespace cudnnsetup {

// One thing the Finish page tells the user to do next, for one use of cuDNN.
struct NextStep
{
    QString id; // stable: "pytorch", "new-terminal", "python-code"
    Text text;
    QString code;                // a line to copy (a command, a line of Python); empty where none
    bool forProgrammers = false; // shown apart, under "For programmers"
};

// What to do next, one line per use: PyTorch (nothing, or its one fix), a new terminal only where
// this run changed PATH or a variable, and for programmers the line their own Python code needs to
// find the cuDNN installed here. `advice`: the answer to what cuDNN is for (the Purpose page's, or
// the programs found deciding); `installed`: the install this run made, if any.
QList<NextStep> nextSteps(const PurposeAdvice &advice, const std::optional<Receipt> &installed,
                          bool environmentChanged);

} // namespace cudnnsetup
