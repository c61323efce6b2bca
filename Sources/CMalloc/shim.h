// glibc's malloc tuning (mallopt), for `tilecast extract`'s allocation pattern.
#include <malloc.h>
