/* version.h -- the version of libhdo and of the hdo command */
#ifndef HDO_VERSION_H
#define HDO_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* The version as numbers and as text.  The Makefile reads these three
   lines for the shared library's file name (libhdo.so.MAJOR.MINOR.PATCH)
   and soname (libhdo.so.MAJOR): MAJOR changes when the interface breaks. */
#define HDO_VERSION_MAJOR 0
#define HDO_VERSION_MINOR 1
#define HDO_VERSION_PATCH 0

#define HDO_VERSION_STR_(x) #x
#define HDO_VERSION_STR(x) HDO_VERSION_STR_(x)
#define HDO_VERSION_STRING                                                     \
    HDO_VERSION_STR(HDO_VERSION_MAJOR)                                         \
    "." HDO_VERSION_STR(HDO_VERSION_MINOR) "." HDO_VERSION_STR(                \
        HDO_VERSION_PATCH)

/* The version of the library actually linked, "MAJOR.MINOR.PATCH": a
   program built against one header and run with another shared library
   compares it with HDO_VERSION_STRING. */
const char *hdo_version(void);

#ifdef __cplusplus
}
#endif

#endif
