#pragma once

// The test suites of one kind (unit, e2e, gui, windows) share one executable, which links Qt and
// the core library once instead of once a suite; its first argument names the suite to run:
//   unit_tests tst_sha256 [QtTest options]
// Each suite still runs alone in its own process, as CTest's test <kind>/<suite>. A suite ends with
// CUDNNSETUP_TEST_MAIN(TestClass) or CUDNNSETUP_TEST_GUILESS_MAIN(TestClass) where QTEST_MAIN and
// QTEST_GUILESS_MAIN would stand, and keeps its helpers in an anonymous namespace.

#include <QTest>

namespace testsuite {

using Main = int (*)(int argc, char *argv[]);
// Registers the suite of the source file `file` (__FILE__) under its base name, "tst_sha256".
bool add(const char *file, Main main);

} // namespace testsuite

// The body of QTEST_MAIN_WRAPPER, as a function of the suite's own.
#define CUDNNSETUP_TEST_SUITE(TestObject, ...)                                                               \
    namespace {                                                                                              \
    int runSuite(int argc, char *argv[])                                                                     \
    {                                                                                                        \
        QTest::Internal::callInitMain<TestObject>();                                                         \
        __VA_ARGS__                                                                                          \
        TestObject tc;                                                                                       \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&tc, argc, argv);                                                                \
    }                                                                                                        \
    [[maybe_unused]] const bool suiteAdded = testsuite::add(__FILE__, runSuite);                             \
    }

#define CUDNNSETUP_TEST_MAIN(TestObject) CUDNNSETUP_TEST_SUITE(TestObject, QTEST_MAIN_SETUP())
#define CUDNNSETUP_TEST_GUILESS_MAIN(TestObject)                                                             \
    CUDNNSETUP_TEST_SUITE(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
