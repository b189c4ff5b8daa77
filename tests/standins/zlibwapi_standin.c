/* A stand-in for zlibwapi.dll (the zlib 1.2.3 DLL that cuDNN 8.3-9.1 need on Windows), for tests. */
#define EXPORT __declspec(dllexport)

EXPORT const char *zlibVersion(void)
{
    return "1.2.3";
}
