// RTLD_DEEPBIND (glibc).
#define _GNU_SOURCE
#include "netcdf_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<netcdf.h>)
#include <netcdf.h>
_Static_assert(TC_NC_BYTE == NC_BYTE, "TC_NC_BYTE differs from netcdf.h");
_Static_assert(TC_NC_CHAR == NC_CHAR, "TC_NC_CHAR differs from netcdf.h");
_Static_assert(TC_NC_DOUBLE == NC_DOUBLE, "TC_NC_DOUBLE differs from netcdf.h");
_Static_assert(TC_NC_ECHAR == NC_ECHAR, "TC_NC_ECHAR differs from netcdf.h");
_Static_assert(TC_NC_EEDGE == NC_EEDGE, "TC_NC_EEDGE differs from netcdf.h");
_Static_assert(TC_NC_EHDFERR == NC_EHDFERR, "TC_NC_EHDFERR differs from netcdf.h");
_Static_assert(TC_NC_EINVALCOORDS == NC_EINVALCOORDS, "TC_NC_EINVALCOORDS differs from netcdf.h");
_Static_assert(TC_NC_EIO == NC_EIO, "TC_NC_EIO differs from netcdf.h");
_Static_assert(TC_NC_ENOTATT == NC_ENOTATT, "TC_NC_ENOTATT differs from netcdf.h");
_Static_assert(TC_NC_ENOTNC == NC_ENOTNC, "TC_NC_ENOTNC differs from netcdf.h");
_Static_assert(TC_NC_ENOTVAR == NC_ENOTVAR, "TC_NC_ENOTVAR differs from netcdf.h");
_Static_assert(TC_NC_ERANGE == NC_ERANGE, "TC_NC_ERANGE differs from netcdf.h");
_Static_assert(TC_NC_ETRUNC == NC_ETRUNC, "TC_NC_ETRUNC differs from netcdf.h");
_Static_assert(TC_NC_FLOAT == NC_FLOAT, "TC_NC_FLOAT differs from netcdf.h");
_Static_assert(TC_NC_FORMAT_64BIT_DATA == NC_FORMAT_64BIT_DATA, "TC_NC_FORMAT_64BIT_DATA differs from netcdf.h");
_Static_assert(TC_NC_FORMAT_64BIT_OFFSET == NC_FORMAT_64BIT_OFFSET, "TC_NC_FORMAT_64BIT_OFFSET differs from netcdf.h");
_Static_assert(TC_NC_FORMAT_CLASSIC == NC_FORMAT_CLASSIC, "TC_NC_FORMAT_CLASSIC differs from netcdf.h");
_Static_assert(TC_NC_FORMAT_NETCDF4 == NC_FORMAT_NETCDF4, "TC_NC_FORMAT_NETCDF4 differs from netcdf.h");
_Static_assert(TC_NC_FORMAT_NETCDF4_CLASSIC == NC_FORMAT_NETCDF4_CLASSIC, "TC_NC_FORMAT_NETCDF4_CLASSIC differs from netcdf.h");
_Static_assert(TC_NC_GLOBAL == NC_GLOBAL, "TC_NC_GLOBAL differs from netcdf.h");
_Static_assert(TC_NC_INT == NC_INT, "TC_NC_INT differs from netcdf.h");
_Static_assert(TC_NC_INT64 == NC_INT64, "TC_NC_INT64 differs from netcdf.h");
_Static_assert(TC_NC_MAX_NAME == NC_MAX_NAME, "TC_NC_MAX_NAME differs from netcdf.h");
_Static_assert(TC_NC_MAX_VAR_DIMS == NC_MAX_VAR_DIMS, "TC_NC_MAX_VAR_DIMS differs from netcdf.h");
_Static_assert(TC_NC_NOERR == NC_NOERR, "TC_NC_NOERR differs from netcdf.h");
_Static_assert(TC_NC_NOWRITE == NC_NOWRITE, "TC_NC_NOWRITE differs from netcdf.h");
_Static_assert(TC_NC_SHARE == NC_SHARE, "TC_NC_SHARE differs from netcdf.h");
_Static_assert(TC_NC_SHORT == NC_SHORT, "TC_NC_SHORT differs from netcdf.h");
_Static_assert(TC_NC_STRING == NC_STRING, "TC_NC_STRING differs from netcdf.h");
_Static_assert(TC_NC_UBYTE == NC_UBYTE, "TC_NC_UBYTE differs from netcdf.h");
_Static_assert(TC_NC_UINT == NC_UINT, "TC_NC_UINT differs from netcdf.h");
_Static_assert(TC_NC_UINT64 == NC_UINT64, "TC_NC_UINT64 differs from netcdf.h");
_Static_assert(TC_NC_USHORT == NC_USHORT, "TC_NC_USHORT differs from netcdf.h");
#define TC_HAVE_NETCDF_H 1
#endif
#endif

#ifndef TC_HAVE_NETCDF_H
typedef int nc_type;
#endif

static int (*p_nc_open)(const char *path, int mode, int *ncidp);
static int (*p__nc__open)(const char *path, int mode, size_t *chunksizehintp, int *ncidp);
static int (*p_nc_close)(int ncid);
static int (*p_nc_inq_format)(int ncid, int *formatp);
static int (*p_nc_inq_ndims)(int ncid, int *ndimsp);
static int (*p_nc_inq_unlimdim)(int ncid, int *unlimdimidp);
static int (*p_nc_inq_dim)(int ncid, int dimid, char *name, size_t *lenp);
static int (*p_nc_inq_nvars)(int ncid, int *nvarsp);
static int (*p_nc_inq_var)(int ncid, int varid, char *name, nc_type *xtypep, int *ndimsp, int *dimidsp, int *nattsp);
static int (*p_nc_inq_varnatts)(int ncid, int varid, int *nattsp);
static int (*p_nc_inq_attname)(int ncid, int varid, int attnum, char *name);
static int (*p_nc_inq_att)(int ncid, int varid, const char *name, nc_type *xtypep, size_t *lenp);
static int (*p_nc_get_att_text)(int ncid, int varid, const char *name, char *ip);
static int (*p_nc_get_att_longlong)(int ncid, int varid, const char *name, long long *ip);
static int (*p_nc_get_att_double)(int ncid, int varid, const char *name, double *ip);
static int (*p_nc_get_vara_float)(int ncid, int varid, const size_t *startp, const size_t *countp, float *ip);
static int (*p_nc_get_vara_double)(int ncid, int varid, const size_t *startp, const size_t *countp, double *ip);
static int (*p_nc_get_vara_short)(int ncid, int varid, const size_t *startp, const size_t *countp, short *ip);
static int (*p_nc_get_vara_int)(int ncid, int varid, const size_t *startp, const size_t *countp, int *ip);
static int (*p_nc_get_vara_text)(int ncid, int varid, const size_t *startp, const size_t *countp, char *ip);
static const char *(*p_nc_strerror)(int);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[512] = "libnetcdf not loaded";

/* The names libnetcdf goes by: the development link first, then the runtime sonames of the
   releases distributions ship (Debian 12: .19), then macOS. */
static const char *candidates[] = {
    "libnetcdf.so", "libnetcdf.so.22", "libnetcdf.so.21", "libnetcdf.so.19", "libnetcdf.so.18",
    "libnetcdf.so.15", "libnetcdf.so.13", "libnetcdf.dylib", "libnetcdf.19.dylib", NULL
};

#define BIND(symbol) do { \
    *(void **)(&p_##symbol) = dlsym(handle, #symbol); \
    if (p_##symbol == NULL) { snprintf(failure, sizeof failure, "libnetcdf lacks %s", #symbol); return; } \
} while (0)

/* Whether libnetcdf may be bound to its own dependencies first (RTLD_DEEPBIND). Each of the
   ~45 libraries libnetcdf brings is bound at load (they are built with BIND_NOW), and every
   symbol is first looked up in the program's own libraries: the Swift runtime and Foundation,
   large and where none of them is defined. Looking in libnetcdf's own dependencies first
   (libc among them) halves the loader's work: 41 -> 25 M instructions in
   `tilecast inspect` of a small file (callgrind); 2-5 ms of an extraction's wall time
   (interleaved runs).
   Only when malloc is libc's: under a sanitizer or an interposed allocator (LD_PRELOAD), the
   libraries must see the program's malloc, and AddressSanitizer refuses RTLD_DEEPBIND. */
static int deep_bind_is_safe(void) {
#ifdef RTLD_DEEPBIND
    Dl_info info;
    void *allocator = dlsym(RTLD_DEFAULT, "malloc");
    return allocator != NULL && dladdr(allocator, &info) != 0 && info.dli_fname != NULL
        && strstr(info.dli_fname, "/libc.so") != NULL;
#else
    return 0;
#endif
}

static void load(void) {
    void *handle = NULL;
    int mode = RTLD_NOW | RTLD_LOCAL;
#ifdef RTLD_DEEPBIND
    if (deep_bind_is_safe()) { mode |= RTLD_DEEPBIND; }
#endif
    for (const char **name = candidates; *name != NULL && handle == NULL; name++) {
        handle = dlopen(*name, mode);
    }
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "libnetcdf could not be loaded (%s); install libnetcdf (Scripts/setup does)",
                 reason ? reason : "not found");
        return;
    }
    BIND(nc_open);
    // Optional: nc__open takes the classic format's read size (below); without it, nc_open.
    *(void **)(&p__nc__open) = dlsym(handle, "nc__open");
    BIND(nc_close);
    BIND(nc_inq_format);
    BIND(nc_inq_ndims);
    BIND(nc_inq_unlimdim);
    BIND(nc_inq_dim);
    BIND(nc_inq_nvars);
    BIND(nc_inq_var);
    BIND(nc_inq_varnatts);
    BIND(nc_inq_attname);
    BIND(nc_inq_att);
    BIND(nc_get_att_text);
    BIND(nc_get_att_longlong);
    BIND(nc_get_att_double);
    BIND(nc_get_vara_float);
    BIND(nc_get_vara_double);
    BIND(nc_get_vara_short);
    BIND(nc_get_vara_int);
    BIND(nc_get_vara_text);
    BIND(nc_strerror);
    loaded = 1;
}

int tc_nc_load(void) {
    pthread_once(&once, load);
    return loaded ? 0 : TC_NC_ENOLIBRARY;
}

const char *tc_nc_strerror(int status) {
    if (tc_nc_load() != 0 || status == TC_NC_ENOLIBRARY) { return failure; }
    return p_nc_strerror(status);
}

int tc_nc_open(const char *path, int mode, int *ncidp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    if (p__nc__open != NULL) {
        // A classic file opened NC_SHARE is read one contiguous run of a request at a time,
        // up to `chunk` bytes, straight into a buffer of that size: the extraction's
        // hyperslabs are whole levels of a record, so it reads exactly the bytes it needs, in
        // one call each. Without NC_SHARE libnetcdf reads in pieces of the hint (8 KB by
        // default) and copies a request that spans pieces into a larger buffer: on the bench
        // run, 32 KB pieces read 604 MB in 17,270 calls, and that copy was 9 % of the
        // extraction's instructions (callgrind); NC_SHARE with 4 MB reads 522 MB in 5,433
        // calls, the copy gone. The store's bytes are the same. netCDF-4 files ignore both.
        size_t chunk = 4 << 20;
        return p__nc__open(path, mode | TC_NC_SHARE, &chunk, ncidp);
    }
    return p_nc_open(path, mode, ncidp);
}

int tc_nc_close(int ncid) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_close(ncid);
}

int tc_nc_inq_format(int ncid, int *formatp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_format(ncid, formatp);
}

int tc_nc_inq_ndims(int ncid, int *ndimsp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_ndims(ncid, ndimsp);
}

int tc_nc_inq_unlimdim(int ncid, int *unlimdimidp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_unlimdim(ncid, unlimdimidp);
}

int tc_nc_inq_dim(int ncid, int dimid, char *name, size_t *lenp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_dim(ncid, dimid, name, lenp);
}

int tc_nc_inq_nvars(int ncid, int *nvarsp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_nvars(ncid, nvarsp);
}

int tc_nc_inq_var(int ncid, int varid, char *name, tc_nc_type *xtypep, int *ndimsp, int *dimidsp, int *nattsp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_var(ncid, varid, name, xtypep, ndimsp, dimidsp, nattsp);
}

int tc_nc_inq_varnatts(int ncid, int varid, int *nattsp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_varnatts(ncid, varid, nattsp);
}

int tc_nc_inq_attname(int ncid, int varid, int attnum, char *name) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_attname(ncid, varid, attnum, name);
}

int tc_nc_inq_att(int ncid, int varid, const char *name, tc_nc_type *xtypep, size_t *lenp) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_inq_att(ncid, varid, name, xtypep, lenp);
}

int tc_nc_get_att_text(int ncid, int varid, const char *name, char *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_att_text(ncid, varid, name, ip);
}

int tc_nc_get_att_longlong(int ncid, int varid, const char *name, long long *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_att_longlong(ncid, varid, name, ip);
}

int tc_nc_get_att_double(int ncid, int varid, const char *name, double *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_att_double(ncid, varid, name, ip);
}

int tc_nc_get_vara_float(int ncid, int varid, const size_t *startp, const size_t *countp, float *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_vara_float(ncid, varid, startp, countp, ip);
}

int tc_nc_get_vara_double(int ncid, int varid, const size_t *startp, const size_t *countp, double *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_vara_double(ncid, varid, startp, countp, ip);
}

int tc_nc_get_vara_short(int ncid, int varid, const size_t *startp, const size_t *countp, short *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_vara_short(ncid, varid, startp, countp, ip);
}

int tc_nc_get_vara_int(int ncid, int varid, const size_t *startp, const size_t *countp, int *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_vara_int(ncid, varid, startp, countp, ip);
}

int tc_nc_get_vara_text(int ncid, int varid, const size_t *startp, const size_t *countp, char *ip) {
    if (tc_nc_load() != 0) { return TC_NC_ENOLIBRARY; }
    return p_nc_get_vara_text(ncid, varid, startp, countp, ip);
}

