#ifndef TILECAST_FUZZ_DRIVER_H
#define TILECAST_FUZZ_DRIVER_H

/// Runs libFuzzer's driver over this executable's `LLVMFuzzerTestOneInput`.
///
/// SwiftPM links every executable with `--defsym main=<Module>_main`, and `-parse-as-library`
/// (needed so that Swift emits no `main` of its own) leaves that symbol undefined. Each fuzz
/// target therefore defines `<Module>_main` with `@_cdecl` and calls this, which hands
/// control to libFuzzer exactly as libFuzzer's own `main` would.
int tilecast_fuzz_main(int argc, char **argv);

#endif
