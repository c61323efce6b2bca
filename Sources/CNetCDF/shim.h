#include <netcdf.h>
