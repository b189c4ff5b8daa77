#pragma once

#include "common/Text.h"
#include "compat/ConsumerVerdicts.h"
#include "detect/SystemSnapshot.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace cudnnsetup {

class KnowledgeBase;
struct MatchFacts;

// What the user will use cuDNN for, asked before anything is recommended: a framework that brings
// its own cuDNN needs no system-wide one.
enum class Purpose
{
    PyTorch,
    TensorFlow,
    OnnxRuntime,
    Program, // a program in a folder of its own (a portable ComfyUI, a bundled speech app)
    OwnCode, // the user's own C++ that links cuDNN
    NotSure, // the consumers found decide
};

// The answer to one purpose: whether a system-wide cuDNN is needed at all, why, and the one thing
// to copy (the pip line for this GPU and driver, "wsl --install", CMake's variables).
struct PurposeAdvice
{
    Purpose purpose = Purpose::NotSure; // what it answers: "not sure" becomes what was found
    bool systemCudnnNeeded = true;      // false: the wizard may finish without installing one
    Text headline;
    Text explanation;
    QString command;                 // to copy; empty where there is nothing to type
    QList<JudgedConsumer> consumers; // the programs it speaks of, with their verdicts and fixes
    // The program to install cuDNN beside, for it only, where that is the fix.
    std::optional<CudnnBeside> beside;
};

// `consumers`: those detection found (SystemSnapshot::consumers), with those of a scanned program
// folder; `programFolder` picks the program (Purpose::Program only).
PurposeAdvice advisePurpose(Purpose purpose, const QList<ConsumerInfo> &consumers, const MatchFacts &facts,
                            const KnowledgeBase &kb, const QString &programFolder = QString());

// The folders consumers were found in, each once, in the order found: the programs to pick from.
QStringList consumerFolders(const QList<ConsumerInfo> &consumers);

} // namespace cudnnsetup
