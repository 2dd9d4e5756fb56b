// Lets a provider move its UserDefaults suites into the App Group after it has started, without
// re-executing itself.
//
// Why this exists: Linux Foundation keeps every suite in `$XDG_CONFIG_HOME/<suite>.plist`, and its
// CoreFoundation copies the *pointer* `getenv("XDG_CONFIG_HOME")` returns once, in a library
// constructor (`__CFInitialize` fills `__CFEnv`), before `main`. A `setenv` in `main` is never seen.
// The provider used to re-execute itself with the variable set, which a debugger reports as
// `stop reason = exec` (lldb) or follows into a new image: the process a developer started under the
// debugger was not the one that served the sync (issue 24, item 1).
//
// What it does: this file defines `getenv`. An executable's own definition comes first in the
// dynamic linker's lookup, so CoreFoundation's constructor calls this one. On the first request for
// `XDG_CONFIG_HOME` it makes the environment entry *this module's buffer* (the original value, or the
// XDG default `$HOME/.config` the library would have used when unset) and returns a pointer into it.
// CoreFoundation keeps that pointer; `preferences_location_set` later rewrites the buffer in place,
// so Foundation's next preferences lookup (the first `UserDefaults(suiteName:)`) finds the App Group.
//
// Every other name is looked up in `environ` exactly as glibc's `getenv` does (a linear scan for
// `NAME=`); nothing else changes. `.preinit_array` cannot do this: glibc sets `environ` only in
// libc's own initializer, after preinit functions run (measured: `environ == NULL` there).

#include "PreferencesLocation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

#define PREFERENCES_ENTRY_PREFIX "XDG_CONFIG_HOME="
#define PREFERENCES_PREFIX_LENGTH (sizeof(PREFERENCES_ENTRY_PREFIX) - 1)
#define PREFERENCES_VALUE_CAPACITY 4096

static char preferences_entry[PREFERENCES_PREFIX_LENGTH + PREFERENCES_VALUE_CAPACITY] = PREFERENCES_ENTRY_PREFIX;
static int preferences_installed = 0;

static char *environment_lookup(const char *name) {
    if (environ == NULL) return NULL;
    size_t length = strlen(name);
    for (char **entry = environ; *entry != NULL; entry++) {
        if (strncmp(*entry, name, length) == 0 && (*entry)[length] == '=') return *entry + length + 1;
    }
    return NULL;
}

// Makes the environment's XDG_CONFIG_HOME entry the module's buffer (called once, under the first
// lookup, which is CoreFoundation's constructor: single-threaded, before main).
static void install_preferences_entry(void) {
    preferences_installed = 1;
    char *value = preferences_entry + PREFERENCES_PREFIX_LENGTH;
    for (char **entry = environ; *entry != NULL; entry++) {
        if (strncmp(*entry, PREFERENCES_ENTRY_PREFIX, PREFERENCES_PREFIX_LENGTH) == 0) {
            snprintf(value, PREFERENCES_VALUE_CAPACITY, "%s", *entry + PREFERENCES_PREFIX_LENGTH);
            *entry = preferences_entry;
            return;
        }
    }
    // Unset: the XDG default, which is what Foundation would use; set explicitly so that the entry
    // and Foundation's copy stay the same buffer.
    const char *home = environment_lookup("HOME");
    if (home == NULL || home[0] != '/') {
        // Foundation then resolves the home directory itself; leave the variable unset.
        preferences_installed = 0;
        return;
    }
    snprintf(value, PREFERENCES_VALUE_CAPACITY, "%s/.config", home);
    putenv(preferences_entry);
}

char *getenv(const char *name) {
    if (!preferences_installed && environ != NULL && strcmp(name, "XDG_CONFIG_HOME") == 0) {
        install_preferences_entry();
    }
    return environment_lookup(name);
}

int preferences_location_is_installed(void) { return preferences_installed; }

int preferences_location_set(const char *directory) {
    if (!preferences_installed || directory == NULL || strlen(directory) >= PREFERENCES_VALUE_CAPACITY) return -1;
    memcpy(preferences_entry + PREFERENCES_PREFIX_LENGTH, directory, strlen(directory) + 1);
    // The entry may have been replaced by a setenv since; make the buffer the entry again.
    return putenv(preferences_entry);
}
