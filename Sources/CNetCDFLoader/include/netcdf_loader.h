// libnetcdf, loaded on first use with dlopen instead of linked at start-up.
//
// Linking libnetcdf pulls HDF5, curl, TLS and some forty shared libraries into every
// process, about 10 ms of start-up that `tilecast query` (which never reads netCDF) would
// pay on every call. These wrappers have libnetcdf's signatures with a `tc_` prefix; the
// first one called loads the library. If it cannot be loaded they return
// TC_NC_ENOLIBRARY and `tc_nc_strerror` says why.
#ifndef TILECAST_NETCDF_LOADER_H
#define TILECAST_NETCDF_LOADER_H

#include <stddef.h>

typedef int tc_nc_type;

/* The netCDF constants TileCast uses, with libnetcdf's values (netcdf.h, stable across
   releases). netcdf_loader.c checks them against netcdf.h at compile time when the header is
   present, and NetCDFTests against the pkg-config module CNetCDF. */
#define TC_NC_BYTE (1)
#define TC_NC_CHAR (2)
#define TC_NC_DOUBLE (6)
#define TC_NC_ECHAR (-56)
#define TC_NC_EEDGE (-57)
#define TC_NC_EHDFERR (-101)
#define TC_NC_EINVALCOORDS (-40)
#define TC_NC_EIO (-68)
#define TC_NC_ENOTATT (-43)
#define TC_NC_ENOTNC (-51)
#define TC_NC_ENOTVAR (-49)
#define TC_NC_ERANGE (-60)
#define TC_NC_ETRUNC (-64)
#define TC_NC_FLOAT (5)
#define TC_NC_FORMAT_64BIT_DATA (5)
#define TC_NC_FORMAT_64BIT_OFFSET (2)
#define TC_NC_FORMAT_CLASSIC (1)
#define TC_NC_FORMAT_NETCDF4 (3)
#define TC_NC_FORMAT_NETCDF4_CLASSIC (4)
#define TC_NC_GLOBAL (-1)
#define TC_NC_INT (4)
#define TC_NC_INT64 (10)
#define TC_NC_MAX_NAME (256)
#define TC_NC_MAX_VAR_DIMS (1024)
#define TC_NC_NOERR (0)
#define TC_NC_NOWRITE (0)
#define TC_NC_SHARE (0x0800)
#define TC_NC_SHORT (3)
#define TC_NC_STRING (12)
#define TC_NC_UBYTE (7)
#define TC_NC_UINT (9)
#define TC_NC_UINT64 (11)
#define TC_NC_USHORT (8)

/// Returned by every wrapper when libnetcdf could not be loaded.
#define TC_NC_ENOLIBRARY (-9001)

/// 0 when libnetcdf is loaded (loading it if needed), TC_NC_ENOLIBRARY otherwise.
int tc_nc_load(void);
/// The library's message for a status code, or the loader's when the library is missing.
const char *tc_nc_strerror(int status);
int tc_nc_open(const char *path, int mode, int *ncidp);
int tc_nc_close(int ncid);
int tc_nc_inq_format(int ncid, int *formatp);
int tc_nc_inq_ndims(int ncid, int *ndimsp);
int tc_nc_inq_unlimdim(int ncid, int *unlimdimidp);
int tc_nc_inq_dim(int ncid, int dimid, char *name, size_t *lenp);
int tc_nc_inq_nvars(int ncid, int *nvarsp);
int tc_nc_inq_var(int ncid, int varid, char *name, tc_nc_type *xtypep, int *ndimsp, int *dimidsp, int *nattsp);
int tc_nc_inq_varnatts(int ncid, int varid, int *nattsp);
int tc_nc_inq_attname(int ncid, int varid, int attnum, char *name);
int tc_nc_inq_att(int ncid, int varid, const char *name, tc_nc_type *xtypep, size_t *lenp);
int tc_nc_get_att_text(int ncid, int varid, const char *name, char *ip);
int tc_nc_get_att_longlong(int ncid, int varid, const char *name, long long *ip);
int tc_nc_get_att_double(int ncid, int varid, const char *name, double *ip);
int tc_nc_get_vara_float(int ncid, int varid, const size_t *startp, const size_t *countp, float *ip);
int tc_nc_get_vara_double(int ncid, int varid, const size_t *startp, const size_t *countp, double *ip);
int tc_nc_get_vara_short(int ncid, int varid, const size_t *startp, const size_t *countp, short *ip);
int tc_nc_get_vara_int(int ncid, int varid, const size_t *startp, const size_t *countp, int *ip);
int tc_nc_get_vara_text(int ncid, int varid, const size_t *startp, const size_t *countp, char *ip);

#endif
