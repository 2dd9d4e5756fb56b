#ifndef CONTACT_PROVIDER_BUNDLE_LOCATION_H
#define CONTACT_PROVIDER_BUNDLE_LOCATION_H

/// Nothing to call: the module defines `readlink`, which Foundation's CoreFoundation calls for
/// `/proc/self/exe` as the process starts (see BundleLocation.c). Declared so the target has a header.
int bundle_location_is_redirected(void);

#endif
