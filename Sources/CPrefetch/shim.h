// A cache prefetch hint for Swift, which has no intrinsic for it: the point path asks for a
// forecast's blocks and cells before it decodes them, so their cache misses overlap.
#ifndef TILECAST_PREFETCH_H
#define TILECAST_PREFETCH_H

/// Hints that the line holding `address` will be read soon. Never faults, whatever the address.
static inline void tilecast_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
