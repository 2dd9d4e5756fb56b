#ifndef CONTACT_PROVIDER_PREFERENCES_LOCATION_H
#define CONTACT_PROVIDER_PREFERENCES_LOCATION_H

/// Whether Foundation's preferences code holds this module's `XDG_CONFIG_HOME` buffer (it asked for
/// the variable through the `getenv` defined here as the process started). Only then can
/// `preferences_location_set` move `UserDefaults` without restarting the process.
int preferences_location_is_installed(void);

/// Points `XDG_CONFIG_HOME` at `directory` for Foundation's preferences (its cached copy) and for the
/// process's environment (children, `ProcessInfo`). Returns 0, or -1 when the path is too long or the
/// buffer is not installed.
int preferences_location_set(const char *directory);

#endif
