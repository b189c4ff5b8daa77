// main() of a test executable that holds several suites (Suite.h): runs the one its first argument
// names, with the rest of the command line.
#include "Suite.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, testsuite::Main> &suites()
{
    static std::map<std::string, testsuite::Main> registered;
    return registered;
}

} // namespace

bool testsuite::add(const char *file, Main main)
{
    std::string name(file);
    const auto slash = name.find_last_of("/\\");
    if (slash != std::string::npos)
        name.erase(0, slash + 1);
    name.erase(name.rfind('.'));
    if (!suites().emplace(name, main).second) {
        std::fprintf(stderr, "two test suites are named %s\n", name.c_str());
        std::abort();
    }
    return true;
}

int main(int argc, char *argv[])
{
    const auto suite = argc > 1 ? suites().find(argv[1]) : suites().end();
    if (suite == suites().end()) {
        std::fprintf(stderr, "usage: %s SUITE [QtTest options]\nsuites:\n", argv[0]);
        for (const auto &[name, main] : suites())
            std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    // The suite sees the program name, then its own options.
    std::vector<char *> arguments{argv[0]};
    arguments.insert(arguments.end(), argv + 2, argv + argc);
    arguments.push_back(nullptr);
    return suite->second(argc - 1, arguments.data());
}
