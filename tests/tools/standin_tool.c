/* A stand-in for a command-line tool (nvidia-smi, nvcc, python), for tests. Copied to where the
 * tool would be, it behaves as the file "<its own path>.spec" says, one directive a line:
 *   answer <argument-prefix> <file>   when the first argument starts with the prefix, print the file
 *   output <file>                     otherwise print this file to stdout
 *   error <file>                      print this file to stderr
 *   sleep <milliseconds>              wait first (a hung tool)
 *   exit <code>                       exit with this code (default 0)
 * Files are named relative to the spec's folder. Output is copied byte for byte. Plain C, so the
 * same program serves the Linux tests and, built with MinGW, the Windows tests under Wine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#else
#include <time.h>
#include <unistd.h>
#endif

#define MAX_PATH_LENGTH 4096

static void ownPath(char *path, size_t size)
{
#ifdef _WIN32
    DWORD length = GetModuleFileNameA(NULL, path, (DWORD)size);
    path[length < size ? length : size - 1] = '\0';
#else
    ssize_t length = readlink("/proc/self/exe", path, size - 1);
    path[length > 0 ? length : 0] = '\0';
#endif
}

static void sleepMs(long milliseconds)
{
#ifdef _WIN32
    Sleep((DWORD)milliseconds);
#else
    struct timespec duration = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    nanosleep(&duration, NULL);
#endif
}

static void copyFile(const char *folder, const char *name, FILE *out)
{
    char path[MAX_PATH_LENGTH];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *in = fopen(path, "rb");
    if (!in)
        return;
    char buffer[65536];
    size_t count;
    while ((count = fread(buffer, 1, sizeof buffer, in)) > 0)
        fwrite(buffer, 1, count, out);
    fclose(in);
    fflush(out);
}

int main(int argc, char **argv)
{
#ifdef _WIN32
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
#endif
    char self[MAX_PATH_LENGTH];
    ownPath(self, sizeof self);
    char spec[MAX_PATH_LENGTH + 8];
    snprintf(spec, sizeof spec, "%s.spec", self);
    char folder[MAX_PATH_LENGTH];
    snprintf(folder, sizeof folder, "%s", self);
    char *slash = strrchr(folder, '/');
#ifdef _WIN32
    char *backslash = strrchr(folder, '\\');
    if (!slash || (backslash && backslash > slash))
        slash = backslash;
#endif
    if (slash)
        *slash = '\0';

    FILE *file = fopen(spec, "r");
    if (!file) {
        fprintf(stderr, "standin_tool: no %s\n", spec);
        return 127;
    }
    char line[MAX_PATH_LENGTH];
    char output[MAX_PATH_LENGTH] = "";
    char error[MAX_PATH_LENGTH] = "";
    char answer[MAX_PATH_LENGTH] = "";
    long sleepFor = 0;
    int exitCode = 0;
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *value = strchr(line, ' ');
        if (!value)
            continue;
        *value++ = '\0';
        if (strcmp(line, "answer") == 0) {
            char *target = strchr(value, ' ');
            if (!target)
                continue;
            *target++ = '\0';
            if (!answer[0] && argc > 1 && strncmp(argv[1], value, strlen(value)) == 0)
                snprintf(answer, sizeof answer, "%s", target);
        } else if (strcmp(line, "output") == 0) {
            snprintf(output, sizeof output, "%s", value);
        } else if (strcmp(line, "error") == 0) {
            snprintf(error, sizeof error, "%s", value);
        } else if (strcmp(line, "sleep") == 0) {
            sleepFor = atol(value);
        } else if (strcmp(line, "exit") == 0) {
            exitCode = atoi(value);
        }
    }
    fclose(file);
    if (sleepFor > 0)
        sleepMs(sleepFor);
    if (answer[0])
        copyFile(folder, answer, stdout);
    else if (output[0])
        copyFile(folder, output, stdout);
    if (error[0])
        copyFile(folder, error, stderr);
    return exitCode;
}
