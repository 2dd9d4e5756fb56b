// Gives a provider (or an app-side executable) a main bundle, so `Bundle.main.bundleIdentifier` and
// `Bundle.main.infoDictionary` answer as on iOS (issue 40).
//
// Why this exists: Linux Foundation's CoreFoundation finds the main bundle from the executable's
// path, which it reads once with `readlink("/proc/self/exe")` in its library constructor, before
// `main` (measured with strace). A "flat" bundle is the executable's directory when an `Info.plist`
// lies beside the executable; `<exe>.resources/`, `Contents/Info.plist` layouts and a `CFProcessPath`
// variable are not consulted on Linux (measured), and a symbolic link is resolved by the kernel. A
// SwiftPM build directory holds many executables, so an Info.plist beside them would be everyone's.
//
// What it does: this file defines `readlink`. An executable's own definition comes first in the
// dynamic linker's lookup, so CoreFoundation's constructor calls this one. For `/proc/self/exe`,
// when a directory `<executable>.appex` (an extension) or else `<executable>.app` (an app) exists
// beside the executable, it answers `<executable>.appex/<name>`: CoreFoundation then takes that
// directory as the main bundle and reads its `Info.plist` when `Bundle.main` is first used (lazily:
// the runtime may write the file after `main` starts). Without such a directory nothing changes.
// Every other path is the system call, unchanged. `ExecutableBundle` (ContactProviderSystem) writes
// the directories; docs/xcode-projects.md documents the layout.

#define _GNU_SOURCE
#include "BundleLocation.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int redirected = 0;

static int is_directory(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

ssize_t readlink(const char *restrict path, char *restrict buffer, size_t size) {
    ssize_t length = syscall(SYS_readlink, path, buffer, size);
    if (length <= 0 || strcmp(path, "/proc/self/exe") != 0 || (size_t)length >= size) return length;
    char executable[4096];
    if ((size_t)length >= sizeof(executable) - 16) return length;
    memcpy(executable, buffer, (size_t)length);
    executable[length] = '\0';
    const char *name = strrchr(executable, '/');
    if (name == NULL) return length;
    static const char *const suffixes[] = {".appex", ".app"};
    for (int index = 0; index < 2; index++) {
        char directory[4096 + 16];
        size_t directory_length = (size_t)length + strlen(suffixes[index]);
        memcpy(directory, executable, (size_t)length);
        memcpy(directory + length, suffixes[index], strlen(suffixes[index]) + 1);
        if (!is_directory(directory)) continue;
        size_t total = directory_length + strlen(name);
        if (total > size) return length;
        memcpy(buffer, directory, directory_length);
        memcpy(buffer + directory_length, name, strlen(name));
        redirected = 1;
        return (ssize_t)total;
    }
    return length;
}

int bundle_location_is_redirected(void) { return redirected; }
