/* voxrig/testee.h — the in-process testee ABI: how a reader written in any language with a C
 * ABI (C, C++, Rust, Go via cgo, Zig, ...) lets voxrig call it without starting a process.
 *
 * A testee is a shared library that exports exactly these two symbols. voxrig loads it with
 * dlopen() (`fuzz_differential`, `voxrig bench-reader --testee`) and calls it once per input,
 * from one thread at a time. The contract mirrors the reader protocol of
 * docs (docs/spec/protocols.md, "The reader protocol"): `COMMAND dump --profile P FILE`.
 *
 * This header is plain C99 on purpose: no C++ types cross the boundary, so a Rust
 * `#[no_mangle] pub extern "C" fn` or a Go `//export` function can implement it.
 */
#ifndef VOXRIG_TESTEE_H
#define VOXRIG_TESTEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface; it changes only if the two signatures below change. */
#define VOXRIG_TESTEE_ABI_VERSION 1

/* Outcomes of voxrig_testee_dump. Any other value is a testee failure (reported like a crash). */
#define VOXRIG_TESTEE_ACCEPT 0 /* *out is the canonical JSON dump (docs/spec/dump.md) */
#define VOXRIG_TESTEE_REJECT 1 /* *out is the error code alone, e.g. "vox0.truncated" */

/* Reads the `size` bytes at `data` (untrusted: any bytes, any length, `data` may be NULL when
 * `size` is 0) under `profile` ("vfp-static", "vfp-rig", "rkc-strict" or "rkc-compat", NUL
 * terminated). Returns VOXRIG_TESTEE_ACCEPT or VOXRIG_TESTEE_REJECT and stores in *out a
 * NUL-terminated UTF-8 string allocated by the testee, and its length without the NUL in
 * *out_len. The caller releases *out with voxrig_testee_free and never with free(). The testee
 * must not keep `data` after returning and must not write to stdout. */
int voxrig_testee_dump(const uint8_t* data, size_t size, const char* profile, char** out,
                       size_t* out_len);

/* Releases a string returned through voxrig_testee_dump's `out`; NULL is a no-op. */
void voxrig_testee_free(char* text);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VOXRIG_TESTEE_H */
