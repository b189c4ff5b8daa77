#pragma once

#include <QCommandLineOption>
#include <QList>

namespace cudnnsetup {

// The options both programs take, described once: cudnnctl and cudnn-setup read a system root, a
// compatibility database, a language and a log file alike. Made after the translation is
// installed (the descriptions are translated when made).
struct GlobalOptions
{
    GlobalOptions();

    QCommandLineOption systemRoot;
    QCommandLineOption compatDb;
    QCommandLineOption lang;
    QCommandLineOption log;

    QList<QCommandLineOption> all() const { return {systemRoot, compatDb, lang, log}; }
};

} // namespace cudnnsetup
