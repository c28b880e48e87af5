/* Loads libheif, libde265 and dav1d on first use: see heif_library.h for why and how. */
#include "heif_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

glimpse_heif_functions glimpse_heif_api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/** 0 once every function was found; the reason otherwise (kept for every later call). */
static int load_status = -1;
static char load_failure[256];

/* The names as strings: the macros of heif_library.h would rewrite a bare name. */
#define GLIMPSE_HEIF_NAME(name) #name,
static const char *const heif_names[] = {GLIMPSE_LIBHEIF_FUNCTIONS(GLIMPSE_HEIF_NAME)};
static const char *const de265_names[] = {GLIMPSE_LIBDE265_FUNCTIONS(GLIMPSE_HEIF_NAME)};
static const char *const dav1d_names[] = {GLIMPSE_LIBDAV1D_FUNCTIONS(GLIMPSE_HEIF_NAME)};
#undef GLIMPSE_HEIF_NAME

/* Opens `soname` and fills `count` consecutive pointers of the table from `names`. */
static int load_library(const char *soname, const char *const *names, size_t count, void **slots) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_failure, sizeof load_failure, "HEIF and AVIF need %s, which cannot be loaded (%s)", soname,
                 reason ? reason : "unknown reason");
        return -1;
    }
    for (size_t k = 0; k < count; k++) {
        void *symbol = dlsym(library, names[k]);
        if (symbol == NULL) {
            snprintf(load_failure, sizeof load_failure, "HEIF and AVIF need %s with %s, which it lacks", soname, names[k]);
            return -1;
        }
        slots[k] = symbol;
    }
    return 0; /* never closed: the functions stay in use for the process's lifetime */
}

#define GLIMPSE_COUNT(names) (sizeof names / sizeof *names)

static void load_all(void) {
    /* The table is three runs of function pointers in the order of the lists; filled here
     * first, so a library that fails leaves the table untouched. */
    void *slots[GLIMPSE_COUNT(heif_names) + GLIMPSE_COUNT(de265_names) + GLIMPSE_COUNT(dav1d_names)];
    _Static_assert(sizeof(glimpse_heif_functions) == sizeof slots, "one pointer per listed function");
    void **next = slots;
    if (load_library(GLIMPSE_LIBHEIF_SONAME, heif_names, GLIMPSE_COUNT(heif_names), next) != 0) return;
    next += GLIMPSE_COUNT(heif_names);
    if (load_library(GLIMPSE_LIBDE265_SONAME, de265_names, GLIMPSE_COUNT(de265_names), next) != 0) return;
    next += GLIMPSE_COUNT(de265_names);
    if (load_library(GLIMPSE_LIBDAV1D_SONAME, dav1d_names, GLIMPSE_COUNT(dav1d_names), next) != 0) return;
    memcpy(&glimpse_heif_api, slots, sizeof slots);
    load_status = 0;
}

int glimpse_heif_libraries_load(char *message, size_t message_size) {
    pthread_once(&load_once, load_all);
    if (load_status != 0 && message != NULL && message_size > 0) snprintf(message, message_size, "%s", load_failure);
    return load_status;
}
