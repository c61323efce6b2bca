#include "FuzzDriver.h"
#include <stddef.h>
#include <stdint.h>

/* Provided by libFuzzer (libclang_rt.fuzzer), linked by -sanitize=fuzzer. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
/* Defined by each fuzz target with @_cdecl("LLVMFuzzerTestOneInput"). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int tilecast_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
