#include "Suite.h"
#include "detect/VersionParsers.h"

#include <limits>

#include <QTest>

#include "Sandbox.h"

using namespace cudnnsetup;
using namespace cudnnsetup::versions;

namespace {

// "" for an invalid version, else its text.
QString text(const Version &version)
{
    return version.isValid() ? version.toString() : QString();
}

const char kCudnn9Header[] =
    "/*\n"
    " * Copyright 2014-2025 NVIDIA Corporation.  All rights reserved.\n"
    " */\n"
    "\n"
    "/**\n"
    " * \\file: The master cuDNN version file.\n"
    " */\n"
    "\n"
    "#ifndef CUDNN_VERSION_H_\n"
    "#define CUDNN_VERSION_H_\n"
    "\n"
    "#define CUDNN_MAJOR 9\n"
    "#define CUDNN_MINOR 19\n"
    "#define CUDNN_PATCHLEVEL 0\n"
    "\n"
    "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n"
    "\n"
    "/* cannot use constexpr here since this is a C-only file */\n"
    "/* Below is the max SM version this cuDNN library is aware of and supports natively */\n"
    "\n"
    "#define CUDNN_MAX_SM_MAJOR_NUMBER 12\n"
    "#define CUDNN_MAX_SM_MINOR_NUMBER 0\n"
    "#define CUDNN_MAX_DEVICE_VERSION (CUDNN_MAX_SM_MAJOR_NUMBER * 100 + CUDNN_MAX_SM_MINOR_NUMBER * 10)\n"
    "\n"
    "#endif /* CUDNN_VERSION_H */\n";

const char kCudnn8Header[] =
    "/**\n"
    " * \\file: The master cuDNN version file.\n"
    " */\n"
    "\r\n"
    "#ifndef CUDNN_VERSION_H_\r\n"
    "#define CUDNN_VERSION_H_\r\n"
    "\r\n"
    "#define CUDNN_MAJOR 8\r\n"
    "#define CUDNN_MINOR 9\r\n"
    "#define CUDNN_PATCHLEVEL 7\r\n"
    "\r\n"
    "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\r\n"
    "\r\n"
    "/* cannot use constexpr here since this is a C-only file */\r\n"
    "/* Below is the max SM version this cuDNN library is aware of and supports natively */\r\n"
    "\r\n"
    "#define CUDNN_MAX_SM_MAJOR_NUMBER 9\r\n"
    "#define CUDNN_MAX_SM_MINOR_NUMBER 0\r\n"
    "#define CUDNN_MAX_DEVICE_VERSION (CUDNN_MAX_SM_MAJOR_NUMBER * 100) + (CUDNN_MAX_SM_MINOR_NUMBER * "
    "10)\r\n"
    "\r\n"
    "/* Here are constants for each of the SM Architectures we support to use in code where device version "
    "checks must be made */\r\n"
    "\r\n"
    "/* MAXWELL SM 50 52 53 */\r\n"
    "#define CUDNN_SM_50 500\r\n"
    "#define CUDNN_SM_52 520\r\n"
    "\r\n"
    "#endif /* CUDNN_VERSION_H */\r\n";

const char kCudnn7Header[] =
    "/*   cudnn : Neural Networks Library\n"
    "\n"
    "*/\n"
    "\n"
    "#if !defined(CUDNN_H_)\n"
    "#define CUDNN_H_\n"
    "\n"
    "#define CUDNN_MAJOR 7\n"
    "#define CUDNN_MINOR 6\n"
    "#define CUDNN_PATCHLEVEL 5\n"
    "\n"
    "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n"
    "\n"
    "#include \"driver_types.h\"\n"
    "#include <cuda_runtime.h>\n"
    "\n"
    "#ifndef CUDNNWINAPI\n"
    "#ifdef _WIN32\n"
    "#define CUDNNWINAPI __stdcall\n"
    "#else\n"
    "#define CUDNNWINAPI\n"
    "#endif\n"
    "#endif\n"
    "\n"
    "/* Maximum supported number of tensor dimensions */\n"
    "#define CUDNN_DIM_MAX 8\n"
    "\n"
    "size_t CUDNNWINAPI cudnnGetVersion(void);\n";

} // namespace

class TestVersionParsers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nvcc_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("expected");

        QTest::newRow("real 13.0, Linux PDT")
            << Sandbox::fixtureSection(QStringLiteral("nvidia-h200-linux/list-and-query.txt"),
                                       QStringLiteral("nvcc"))
            << "13.0.88";
        QTest::newRow("9.0, no Build line") << "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                               "Copyright (c) 2005-2017 NVIDIA Corporation\n"
                                               "Built on Fri_Sep__1_21:08:03_CDT_2017\n"
                                               "Cuda compilation tools, release 9.0, V9.0.176\n"
                                            << "9.0.176";
        QTest::newRow("10.0, Windows Central_Daylight_Time")
            << "nvcc: NVIDIA (R) Cuda compiler driver\r\n"
               "Copyright (c) 2005-2018 NVIDIA Corporation\r\n"
               "Built on Sat_Aug_25_21:08:04_Central_Daylight_Time_2018\r\n"
               "Cuda compilation tools, release 10.0, V10.0.130\r\n"
            << "10.0.130";
        QTest::newRow("10.0, Linux CDT") << "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                            "Copyright (c) 2005-2018 NVIDIA Corporation\n"
                                            "Built on Sat_Aug_25_21:08:01_CDT_2018\n"
                                            "Cuda compilation tools, release 10.0, V10.0.130\n"
                                         << "10.0.130";
        QTest::newRow("10.1, Windows Pacific_Daylight_Time")
            << "nvcc: NVIDIA (R) Cuda compiler driver\r\n"
               "Copyright (c) 2005-2019 NVIDIA Corporation\r\n"
               "Built on Sun_Jul_28_19:12:52_Pacific_Daylight_Time_2019\r\n"
               "Cuda compilation tools, release 10.1, V10.1.243\r\n"
            << "10.1.243";
        QTest::newRow("10.2, Linux PDT, no Build line") << "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                                           "Copyright (c) 2005-2019 NVIDIA Corporation\n"
                                                           "Built on Wed_Oct_23_19:24:38_PDT_2019\n"
                                                           "Cuda compilation tools, release 10.2, V10.2.89\n"
                                                        << "10.2.89";
        QTest::newRow("11.0, Build cuda_11.0_bu") << "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                                     "Copyright (c) 2005-2020 NVIDIA Corporation\n"
                                                     "Built on Thu_Jun_11_22:26:38_PDT_2020\n"
                                                     "Cuda compilation tools, release 11.0, V11.0.194\n"
                                                     "Build cuda_11.0_bu.TC445_37.28540450_0\n"
                                                  << "11.0.194";
        QTest::newRow("11.1, Build cuda_11.1.TC455") << "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                                        "Copyright (c) 2005-2020 NVIDIA Corporation\n"
                                                        "Built on Mon_Oct_12_20:09:46_PDT_2020\n"
                                                        "Cuda compilation tools, release 11.1, V11.1.105\n"
                                                        "Build cuda_11.1.TC455_06.29190527_0\n"
                                                     << "11.1.105";
        QTest::newRow("11.8, Windows, Build cuda_X.Y.rX.Y")
            << "nvcc: NVIDIA (R) Cuda compiler driver\r\n"
               "Copyright (c) 2005-2022 NVIDIA Corporation\r\n"
               "Built on Wed_Sep_21_10:41:10_Pacific_Daylight_Time_2022\r\n"
               "Cuda compilation tools, release 11.8, V11.8.89\r\n"
               "Build cuda_11.8.r11.8/compiler.31833905_0\r\n"
            << "11.8.89";
        QTest::newRow("12.0, Linux PST") << "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                            "Copyright (c) 2005-2023 NVIDIA Corporation\n"
                                            "Built on Fri_Jan__6_16:45:21_PST_2023\n"
                                            "Cuda compilation tools, release 12.0, V12.0.140\n"
                                            "Build cuda_12.0.r12.0/compiler.32267302_0\n"
                                         << "12.0.140";
        QTest::newRow("12.1, conda Coordinated_Universal_Time")
            << "nvcc: NVIDIA (R) Cuda compiler driver\n"
               "Copyright (c) 2005-2023 NVIDIA Corporation\n"
               "Built on Mon_Apr__3_17:36:15_Coordinated_Universal_Time_2023\n"
               "Cuda compilation tools, release 12.1, V12.1.105\n"
               "Build cuda_12.1.r12.1/compiler.32688072_0\n"
            << "12.1.105";
        QTest::newRow("12.4, Windows Pacific_Standard_Time")
            << "nvcc: NVIDIA (R) Cuda compiler driver\r\n"
               "Copyright (c) 2005-2024 NVIDIA Corporation\r\n"
               "Built on Tue_Feb_27_16:28:36_Pacific_Standard_Time_2024\r\n"
               "Cuda compilation tools, release 12.4, V12.4.99\r\n"
               "Build cuda_12.4.r12.4/compiler.33961263_0\r\n"
            << "12.4.99";
        QTest::newRow("release without V field") << "Cuda compilation tools, release 12.2\n"
                                                 << "12.2";
        QTest::newRow("broken V field") << "Cuda compilation tools, release 12.2, Vabc\n"
                                        << "12.2";
        QTest::newRow("indented, after a warning")
            << "nvcc warning : The 'compute_35' architectures are deprecated\n"
               "   Cuda compilation tools, release 11.4, V11.4.152\n"
            << "11.4.152";
        QTest::newRow("not nvcc") << "bash: nvcc: command not found\n"
                                  << "";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("Build line only") << "Build cuda_12.4.r12.4/compiler.33961263_0\n"
                                         << "";
    }
    void nvcc()
    {
        QFETCH(QString, output);
        QFETCH(QString, expected);
        QCOMPARE(text(fromNvccOutput(output)), expected);
    }

    void cudaVersionFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("json");
        QTest::addColumn<QString>("expected");

        QTest::newRow("version.json 12.2")
            << QByteArray("{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n"
                          "      \"version\" : \"12.2.140\"\n   },\n"
                          "   \"cuda_cccl\" : {\n      \"version\" : \"12.2.140\"\n   }\n}\n")
            << true << "12.2.140";
        QTest::newRow("version.json 13.0")
            << QByteArray("{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"13.0.2\"}}") << true
            << "13.0.2";
        QTest::newRow("version.json without cuda")
            << QByteArray("{\"cuda_cudart\": {\"version\": \"12.2.140\"}}") << true << "";
        QTest::newRow("version.json with a number")
            << QByteArray("{\"cuda\": {\"version\": 12.2}}") << true << "";
        QTest::newRow("version.json garbage") << QByteArray("\x89PNG\r\n\x1a\n") << true << "";
        QTest::newRow("version.json array") << QByteArray("[1, 2]") << true << "";
        QTest::newRow("version.txt 10.2") << QByteArray("CUDA Version 10.2.89\n") << false << "10.2.89";
        QTest::newRow("version.txt 9.0, CRLF")
            << QByteArray("CUDA Version 9.0.176\r\n") << false << "9.0.176";
        QTest::newRow("version.txt with patches")
            << QByteArray("CUDA Version 10.1.243\nCUDA Patch Version 10.1.243.1\n") << false << "10.1.243";
        QTest::newRow("version.txt garbage") << QByteArray("hello\n") << false << "";
        QTest::newRow("version.txt empty") << QByteArray() << false << "";
    }
    void cudaVersionFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, json);
        QFETCH(QString, expected);
        QCOMPARE(text(json ? fromCudaVersionJson(content) : fromCudaVersionTxt(content)), expected);
    }

    void cudnnHeader_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("expected");

        QTest::newRow("9.x cudnn_version.h") << QByteArray(kCudnn9Header) << "9.19.0";
        QTest::newRow("8.x cudnn_version.h, CRLF") << QByteArray(kCudnn8Header) << "8.9.7";
        QTest::newRow("7.x cudnn.h") << QByteArray(kCudnn7Header) << "7.6.5";
        QTest::newRow("real 9.14.0 lines")
            << Sandbox::fixtureSection(QStringLiteral("nvidia-h200-linux/torch-cudnn.txt"),
                                       QStringLiteral("cudnn header"))
                   .section(QLatin1Char('\n'), 0, 5)
                   .toUtf8()
            << "9.14.0";
        QTest::newRow("odd CUDNN_VERSION line")
            << QByteArray("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 7\n"
                          "#define CUDNN_PATCHLEVEL 0\n#define CUDNN_VERSION 99999999\n")
            << "8.7.0";
        QTest::newRow("no CUDNN_VERSION line")
            << QByteArray("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 1\n")
            << "9.1.1";
        QTest::newRow("tabs and spaces") << QByteArray("  #  define\tCUDNN_MAJOR\t9 /* major */\n"
                                                       "#define CUDNN_MINOR  3\n#define CUDNN_PATCHLEVEL 0\n")
                                         << "9.3.0";
        QTest::newRow("first definition wins")
            << QByteArray("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n"
                          "#if 0\n#define CUDNN_MAJOR 8\n#endif\n")
            << "9.6.0";
        QTest::newRow("patch level missing")
            << QByteArray("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n") << "";
        QTest::newRow("only CUDNN_VERSION") << QByteArray("#define CUDNN_VERSION 91900\n") << "";
        QTest::newRow("commented out") << QByteArray("// #define CUDNN_MAJOR 9\n// #define CUDNN_MINOR 1\n"
                                                     "// #define CUDNN_PATCHLEVEL 0\n")
                                       << "";
        QTest::newRow("macro names only")
            << QByteArray("#define CUDNN_MAJOR\n#define CUDNN_MINOR\n#define CUDNN_PATCHLEVEL\n") << "";
        QTest::newRow("longer macro names")
            << QByteArray("#define CUDNN_MAJOR_X 9\n#define CUDNN_MINOR_X 1\n#define CUDNN_PATCHLEVEL_X 0\n")
            << "";
        QTest::newRow("garbage") << QByteArray("\x7f"
                                               "ELF\x02\x01\x01\x00 not a header at all",
                                               28)
                                 << "";
        QTest::newRow("empty") << QByteArray() << "";
    }
    void cudnnHeader()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, expected);
        QCOMPARE(text(fromCudnnHeader(header)), expected);
    }

    void cudnnVersionNumber_data()
    {
        QTest::addColumn<qint64>("number");
        QTest::addColumn<QString>("expected");
        QTest::newRow("8.9.7") << qint64(8907) << "8.9.7";
        QTest::newRow("8.7.0") << qint64(8700) << "8.7.0";
        QTest::newRow("8.9.2") << qint64(8902) << "8.9.2";
        QTest::newRow("7.6.5") << qint64(7605) << "7.6.5";
        QTest::newRow("6.0.21") << qint64(6021) << "6.0.21";
        QTest::newRow("9.1.0") << qint64(90100) << "9.1.0";
        QTest::newRow("9.3.0") << qint64(90300) << "9.3.0";
        QTest::newRow("9.12.0") << qint64(91200) << "9.12.0";
        QTest::newRow("9.19.0, real torch") << qint64(91900) << "9.19.0";
        QTest::newRow("10.0.1") << qint64(100001) << "10.0.1";
        QTest::newRow("zero") << qint64(0) << "";
        QTest::newRow("negative") << qint64(-8907) << "";
        QTest::newRow("too small") << qint64(907) << "";
        QTest::newRow("between the encodings") << qint64(50000) << "";
        QTest::newRow("one") << qint64(1) << "";
        QTest::newRow("max") << std::numeric_limits<qint64>::max() << "";
    }
    void cudnnVersionNumber()
    {
        QFETCH(qint64, number);
        QFETCH(QString, expected);
        QCOMPARE(text(fromCudnnVersionNumber(number)), expected);
    }

    // One copy, one text: the build number the receipt or the archive knows completes what the
    // loaded library answers, and only for the same release.
    void copyVersion_data()
    {
        QTest::addColumn<qint64>("number");
        QTest::addColumn<QString>("known");
        QTest::addColumn<QString>("expected");
        QTest::newRow("the receipt's build number") << qint64(92801) << "9.28.1.4"
                                                    << "9.28.1.4";
        QTest::newRow("8.x with build") << qint64(8907) << "8.9.7.29"
                                        << "8.9.7.29";
        QTest::newRow("headers, no build") << qint64(91900) << "9.19.0"
                                           << "9.19.0";
        QTest::newRow("nothing known") << qint64(91900) << ""
                                       << "9.19.0";
        QTest::newRow("another patch") << qint64(92800) << "9.28.1.4"
                                       << "9.28.0";
        QTest::newRow("another release") << qint64(91900) << "9.28.1.4"
                                         << "9.19.0";
        QTest::newRow("no answer") << qint64(0) << "9.28.1.4"
                                   << "";
    }
    void copyVersion()
    {
        QFETCH(qint64, number);
        QFETCH(QString, known);
        QFETCH(QString, expected);
        QCOMPARE(text(versions::copyVersion(fromCudnnVersionNumber(number), Version::parse(known))),
                 expected);
    }

    void realTorchNumber()
    {
        // "2.11.0+cu130 13.0 91900 True NVIDIA H200 (9, 0)"
        const QString line = Sandbox::fixtureSection(QStringLiteral("nvidia-h200-linux/torch-cudnn.txt"),
                                                     QStringLiteral("torch"))
                                 .section(QLatin1Char('\n'), 0, 0);
        const qint64 number = line.section(QLatin1Char(' '), 2, 2).toLongLong();
        QCOMPARE(text(fromCudnnVersionNumber(number)), QStringLiteral("9.19.0"));
    }

    void cudnnLibraryNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("cudnn");
        QTest::addColumn<bool>("main");
        QTest::addColumn<QString>("version");

        // cuDNN 8, Windows
        QTest::newRow("cudnn64_8.dll") << "cudnn64_8.dll" << true << true << "8";
        QTest::newRow("cudnn_ops_infer64_8.dll") << "cudnn_ops_infer64_8.dll" << true << false << "8";
        QTest::newRow("cudnn_ops_train64_8.dll") << "cudnn_ops_train64_8.dll" << true << false << "8";
        QTest::newRow("cudnn_cnn_infer64_8.dll") << "cudnn_cnn_infer64_8.dll" << true << false << "8";
        QTest::newRow("cudnn_cnn_train64_8.dll") << "cudnn_cnn_train64_8.dll" << true << false << "8";
        QTest::newRow("cudnn_adv_infer64_8.dll") << "cudnn_adv_infer64_8.dll" << true << false << "8";
        QTest::newRow("cudnn_adv_train64_8.dll") << "cudnn_adv_train64_8.dll" << true << false << "8";
        // cuDNN 9, Windows
        QTest::newRow("cudnn64_9.dll") << "cudnn64_9.dll" << true << true << "9";
        QTest::newRow("cudnn_adv64_9.dll") << "cudnn_adv64_9.dll" << true << false << "9";
        QTest::newRow("cudnn_cnn64_9.dll") << "cudnn_cnn64_9.dll" << true << false << "9";
        QTest::newRow("cudnn_engines_precompiled64_9.dll")
            << "cudnn_engines_precompiled64_9.dll" << true << false << "9";
        QTest::newRow("cudnn_engines_runtime_compiled64_9.dll")
            << "cudnn_engines_runtime_compiled64_9.dll" << true << false << "9";
        QTest::newRow("cudnn_graph64_9.dll") << "cudnn_graph64_9.dll" << true << false << "9";
        QTest::newRow("cudnn_heuristic64_9.dll") << "cudnn_heuristic64_9.dll" << true << false << "9";
        QTest::newRow("cudnn_ops64_9.dll") << "cudnn_ops64_9.dll" << true << false << "9";
        // older and odd spellings on Windows
        QTest::newRow("cudnn64_7.dll") << "cudnn64_7.dll" << true << true << "7";
        QTest::newRow("upper case DLL") << "CUDNN64_9.DLL" << true << true << "9";
        QTest::newRow("mixed case sub-library") << "Cudnn_Ops64_9.Dll" << true << false << "9";
        QTest::newRow("Windows path")
            << "C:\\Program Files\\NVIDIA\\CUDNN\\v9.4\\bin\\12.6\\cudnn64_9.dll" << true << true << "9";
        // Linux
        QTest::newRow("libcudnn.so") << "libcudnn.so" << true << true << "";
        QTest::newRow("libcudnn.so.9") << "libcudnn.so.9" << true << true << "9";
        QTest::newRow("libcudnn.so.9.14.0") << "libcudnn.so.9.14.0" << true << true << "9.14.0";
        QTest::newRow("libcudnn.so.8.9.7") << "libcudnn.so.8.9.7" << true << true << "8.9.7";
        QTest::newRow("libcudnn_ops.so.9.14.0") << "libcudnn_ops.so.9.14.0" << true << false << "9.14.0";
        QTest::newRow("libcudnn_ops.so.9") << "libcudnn_ops.so.9" << true << false << "9";
        QTest::newRow("libcudnn_engines_precompiled.so.9")
            << "libcudnn_engines_precompiled.so.9" << true << false << "9";
        QTest::newRow("libcudnn_engines_runtime_compiled.so")
            << "libcudnn_engines_runtime_compiled.so" << true << false << "";
        QTest::newRow("libcudnn_cnn_infer.so.8") << "libcudnn_cnn_infer.so.8" << true << false << "8";
        QTest::newRow("Linux path") << "/usr/lib/x86_64-linux-gnu/libcudnn_graph.so.9.14.0" << true << false
                                    << "9.14.0";
        // not libraries
        QTest::newRow("cudnn.lib") << "cudnn.lib" << false << false << "";
        QTest::newRow("cudnn64_9.lib") << "cudnn64_9.lib" << false << false << "";
        QTest::newRow("cudnn_ops64_9.lib") << "cudnn_ops64_9.lib" << false << false << "";
        QTest::newRow("libcudnn_static.a") << "libcudnn_static.a" << false << false << "";
        QTest::newRow("libcudnn_ops_static_v9.a") << "libcudnn_ops_static_v9.a" << false << false << "";
        QTest::newRow("libcudnn_static_v8.a") << "libcudnn_static_v8.a" << false << false << "";
        QTest::newRow("cudnn.h") << "cudnn.h" << false << false << "";
        QTest::newRow("cudnn_version_v9.h") << "cudnn_version_v9.h" << false << false << "";
        QTest::newRow("Linux name in upper case") << "LIBCUDNN.SO.9" << false << false << "";
        QTest::newRow("libcudart.so.13") << "libcudart.so.13" << false << false << "";
        QTest::newRow("cudart64_12.dll") << "cudart64_12.dll" << false << false << "";
        QTest::newRow("zlibwapi.dll") << "zlibwapi.dll" << false << false << "";
        QTest::newRow("cudnn64_9.dll.bak") << "cudnn64_9.dll.bak" << false << false << "";
        QTest::newRow("libcudnn.so.9.txt") << "libcudnn.so.9.txt" << false << false << "";
        QTest::newRow("empty") << "" << false << false << "";
    }
    void cudnnLibraryNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, cudnn);
        QFETCH(bool, main);
        QFETCH(QString, version);
        QCOMPARE(isCudnnLibraryName(name), cudnn);
        QCOMPARE(isMainCudnnLibraryName(name), main);
        QCOMPARE(text(fromCudnnLibraryName(name)), version);
    }

    void realLibraryList()
    {
        // Every cuDNN name in the recorded `find` output is a cuDNN library; headers and other
        // libraries are not.
        const QStringList paths =
            QString::fromUtf8(Sandbox::readFixture(QStringLiteral("nvidia-h200-linux/libraries.txt")))
                .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        int cudnn = 0;
        for (const QString &path : paths) {
            if (!path.startsWith(QLatin1Char('/')))
                continue;
            const QString name = path.section(QLatin1Char('/'), -1);
            const bool expected =
                name.startsWith(QLatin1String("libcudnn")) && name.contains(QLatin1String(".so"));
            QVERIFY2(isCudnnLibraryName(path) == expected, qPrintable(path));
            if (expected) {
                ++cudnn;
                QVERIFY2(!name.contains(QLatin1String(".so.")) || fromCudnnLibraryName(name).major() == 9,
                         qPrintable(path));
            }
        }
        QVERIFY(cudnn > 20);
    }

    void cudartNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("libcudart.so.13") << "libcudart.so.13"
                                         << "13";
        QTest::newRow("libcudart.so.13.0.96") << "libcudart.so.13.0.96"
                                              << "13.0.96";
        QTest::newRow("libcudart.so.11.0") << "libcudart.so.11.0"
                                           << "11.0";
        QTest::newRow("libcudart.so.12.2.140") << "/usr/local/cuda-12.2/lib64/libcudart.so.12.2.140"
                                               << "12.2.140";
        QTest::newRow("libcudart.so") << "libcudart.so"
                                      << "";
        QTest::newRow("libcudart_static.a") << "libcudart_static.a"
                                            << "";
        QTest::newRow("cudart64_13.dll") << "cudart64_13.dll"
                                         << "13";
        QTest::newRow("cudart64_12.dll") << "cudart64_12.dll"
                                         << "12";
        QTest::newRow("cudart64_110.dll") << "cudart64_110.dll"
                                          << "11.0";
        QTest::newRow("cudart64_102.dll") << "cudart64_102.dll"
                                          << "10.2";
        QTest::newRow("cudart64_101.dll") << "cudart64_101.dll"
                                          << "10.1";
        QTest::newRow("cudart64_100.dll") << "cudart64_100.dll"
                                          << "10.0";
        QTest::newRow("cudart64_92.dll") << "cudart64_92.dll"
                                         << "9.2";
        QTest::newRow("cudart64_80.dll") << "cudart64_80.dll"
                                         << "8.0";
        QTest::newRow("cudart32_80.dll") << "cudart32_80.dll"
                                         << "8.0";
        QTest::newRow("upper case") << "CUDART64_110.DLL"
                                    << "11.0";
        QTest::newRow("Windows path")
            << "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\bin\\x64\\cudart64_13.dll"
            << "13";
        QTest::newRow("cudart.lib") << "cudart.lib"
                                    << "";
        QTest::newRow("cudnn64_9.dll") << "cudnn64_9.dll"
                                       << "";
        QTest::newRow("garbage") << "cudart64_.dll"
                                 << "";
    }
    void cudartNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QCOMPARE(text(fromCudartName(name)), expected);
    }

    void cublasNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("libcublas.so.12.4.5.8") << "libcublas.so.12.4.5.8"
                                               << "12.4.5.8";
        QTest::newRow("libcublasLt.so.13") << "libcublasLt.so.13"
                                           << "13";
        QTest::newRow("cublas64_12.dll") << "cublas64_12.dll"
                                         << "12";
        QTest::newRow("cublasLt64_11.dll upper case") << "CUBLASLT64_11.DLL"
                                                      << "11";
        QTest::newRow("libcublas.so, no major") << "libcublas.so"
                                                << "";
        QTest::newRow("cudart64_12.dll") << "cudart64_12.dll"
                                         << "";
        QTest::newRow("libcublas_static.a") << "libcublas_static.a"
                                            << "";
    }
    void cublasNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QCOMPARE(text(fromCublasName(name)), expected);
    }

    void wheels_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("cudaMajor"); // -1: none
        QTest::addColumn<QString>("version");
        QTest::newRow("cu13") << "nvidia_cudnn_cu13-9.19.0.56.dist-info" << 13 << "9.19.0.56";
        QTest::newRow("cu12") << "nvidia_cudnn_cu12-9.1.0.70.dist-info" << 12 << "9.1.0.70";
        QTest::newRow("cu11") << "nvidia_cudnn_cu11-8.9.6.50.dist-info" << 11 << "8.9.6.50";
        QTest::newRow("path")
            << "/opt/torch/.venv/lib/python3.12/site-packages/nvidia_cudnn_cu13-9.19.0.56.dist-info" << 13
            << "9.19.0.56";
        QTest::newRow("hyphenated") << "nvidia-cudnn-cu12-8.9.2.26.dist-info" << 12 << "8.9.2.26";
        QTest::newRow("torch local version") << "torch-2.11.0+cu130.dist-info" << -1 << "2.11.0";
        QTest::newRow("post release") << "nvidia_cudnn_cu12-9.1.0.70.post1.dist-info" << 12 << "9.1.0.70";
        QTest::newRow("runtime, not cuDNN")
            << "nvidia_cuda_runtime_cu12-12.4.127.dist-info" << -1 << "12.4.127";
        QTest::newRow("frontend, not a CUDA build")
            << "nvidia_cudnn_frontend-1.14.0.dist-info" << -1 << "1.14.0";
        QTest::newRow("egg-info") << "nvidia_cudnn_cu12-9.1.0.70.egg-info" << 12 << "";
        QTest::newRow("no version") << "nvidia_cudnn_cu12.dist-info" << 12 << "";
        QTest::newRow("garbage") << "hello" << -1 << "";
        QTest::newRow("empty") << "" << -1 << "";
    }
    void wheels()
    {
        QFETCH(QString, name);
        QFETCH(int, cudaMajor);
        QFETCH(QString, version);
        QCOMPARE(cudaMajorFromCudnnWheel(name).value_or(-1), cudaMajor);
        QCOMPARE(text(fromDistInfoName(name)), version);
    }

    void windowsDriverFileVersion_data()
    {
        QTest::addColumn<QString>("fileVersion");
        QTest::addColumn<QString>("expected");
        QTest::newRow("536.23") << "31.0.15.3623"
                                << "536.23";
        QTest::newRow("581.29") << "32.0.15.8129"
                                << "581.29";
        QTest::newRow("511.79") << "30.0.15.1179"
                                << "511.79";
        QTest::newRow("441.20") << "26.21.14.4120"
                                << "441.20";
        QTest::newRow("456.71") << "27.21.14.5671"
                                << "456.71";
        QTest::newRow("591.59") << "32.0.15.9159"
                                << "591.59";
        QTest::newRow("leading zeros dropped by Windows") << "31.0.15.5"
                                                          << "500.05";
        QTest::newRow("commas") << "32,0,15,8129"
                                << "581.29";
        QTest::newRow("surrounding space") << " 32.0.15.8129\n"
                                           << "581.29";
        QTest::newRow("three parts") << "32.0.15"
                                     << "";
        QTest::newRow("five parts") << "32.0.15.8129.1"
                                    << "";
        QTest::newRow("small build part") << "1.2.3.4"
                                          << "";
        QTest::newRow("revision too long") << "32.0.15.81290"
                                           << "";
        QTest::newRow("letters") << "32.0.15.81a9"
                                 << "";
        QTest::newRow("garbage") << "not a version"
                                 << "";
        QTest::newRow("empty") << ""
                               << "";
    }
    void windowsDriverFileVersion()
    {
        QFETCH(QString, fileVersion);
        QFETCH(QString, expected);
        QCOMPARE(text(nvidiaDriverFromWindowsFileVersion(fileVersion)), expected);
    }

    // NVIDIA's library sets by major, and the order a set loads in.
    void cudnnLibrarySets()
    {
        const QStringList nine = versions::cudnnLibrarySet(true, 9);
        QCOMPARE(nine.size(), 8);
        QCOMPARE(nine.first(), QStringLiteral("cudnn64_9.dll"));
        QVERIFY(nine.contains(QStringLiteral("cudnn_engines_runtime_compiled64_9.dll")));
        QCOMPARE(versions::cudnnLibrarySet(true, 8).size(), 7);
        QCOMPARE(versions::cudnnLibrarySet(false, 9).at(1), QStringLiteral("libcudnn_graph.so.9"));
        QCOMPARE(versions::cudnnLibrarySet(true, 7), QStringList{QStringLiteral("cudnn64_7.dll")});
        QVERIFY(versions::cudnnLibrarySet(true, 10).isEmpty()); // not known yet: nothing is required

        QCOMPARE(versions::cudnnLibraryStem(QStringLiteral("C:/x/CUDNN_OPS64_9.DLL")),
                 QStringLiteral("cudnn_ops"));
        QCOMPARE(versions::cudnnLibraryStem(QStringLiteral("libcudnn_graph.so.9.19.0")),
                 QStringLiteral("cudnn_graph"));
        QVERIFY(versions::cudnnLibraryStem(QStringLiteral("cudnn.lib")).isEmpty());

        const QStringList alphabetical{
            QStringLiteral("cudnn_adv64_9.dll"), QStringLiteral("cudnn_cnn64_9.dll"),
            QStringLiteral("zlibwapi.dll"),      QStringLiteral("cudnn64_9.dll"),
            QStringLiteral("cudnn_ops64_9.dll"), QStringLiteral("cudnn_graph64_9.dll")};
        QCOMPARE(versions::cudnnLibrariesInLoadOrder(alphabetical),
                 (QStringList{QStringLiteral("cudnn64_9.dll"), QStringLiteral("cudnn_graph64_9.dll"),
                              QStringLiteral("cudnn_ops64_9.dll"), QStringLiteral("cudnn_cnn64_9.dll"),
                              QStringLiteral("cudnn_adv64_9.dll"), QStringLiteral("zlibwapi.dll")}));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestVersionParsers)
#include "tst_versionparsers.moc"
