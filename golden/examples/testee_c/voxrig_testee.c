/* An example in-process testee (voxrig/testee.h) written in C: a small, independent VFP 1.3
 * reader for the `vfp-static` profile, written from docs/spec/vfp.md (the steps of
 * docs/spec/vfp.md#FP-7) and docs/spec/dump.md. It is not a wrapper around the C++ reference: it shares no code
 * with it, only the two-function ABI.
 *
 * Scope: the VFP container (file header, section headers, trailing bytes), the VOX0 payload,
 * unknown sections (REQUIRED ones reject unless they are cache tags) and the sourceHash; the
 * dump (schema voxrig-dump/2) with VOX0 decoded and every other section opaque. Under any other
 * profile it returns 2, which voxrig reports as a testee failure ("profile not supported").
 *
 * Compile with -DVOXRIG_TESTEE_PLANTED_BUG for the copy with one planted bug (an off-by-one in
 * the palette-index check) that the fuzz_differential CTest must find.
 *
 * Dependencies: OpenSSL's libcrypto (SHA-256). Every read is bounds-checked against `size`. */
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "voxrig/testee.h"

#define EXPORT __attribute__((visibility("default")))

enum { kHeaderSize = 44, kSectionHeaderSize = 16, kRequired = 0x01 };
static const unsigned kMaxSections = 4096;               /* docs/spec/limits.md: vfp_sections */
static const unsigned long long kMaxVoxels = 1ull << 28; /* vox0_voxels */
static const char* const kCacheTags[] = {"MSH0", "PMSH", "RND0", "PRVW", "ANM0"};

/* ---- a bounded little-endian cursor ---------------------------------------------------- */

typedef struct {
  const uint8_t* p;
  size_t size, at;
} Cursor;

static int has(const Cursor* c, size_t n) { return c->size - c->at >= n; }
static unsigned u8(Cursor* c) { return c->p[c->at++]; }
static unsigned u16(Cursor* c) {
  unsigned v = (unsigned)c->p[c->at] | (unsigned)c->p[c->at + 1] << 8;
  c->at += 2;
  return v;
}
static uint32_t u32(Cursor* c) {
  uint32_t v = (uint32_t)c->p[c->at] | (uint32_t)c->p[c->at + 1] << 8 |
               (uint32_t)c->p[c->at + 2] << 16 | (uint32_t)c->p[c->at + 3] << 24;
  c->at += 4;
  return v;
}

/* ---- a growable output string ----------------------------------------------------------- */

typedef struct {
  char* s;
  size_t len, cap;
  int failed;
} Out;

static void put(Out* o, const char* fmt, ...) {
  va_list ap;
  for (;;) {
    size_t room = o->cap - o->len;
    va_start(ap, fmt);
    int n = vsnprintf(o->s ? o->s + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
      o->failed = 1;
      return;
    }
    if ((size_t)n < room) {
      o->len += (size_t)n;
      return;
    }
    size_t cap = o->cap ? o->cap * 2 : 4096;
    while (cap - o->len <= (size_t)n) cap *= 2;
    char* s = realloc(o->s, cap);
    if (!s) {
      o->failed = 1;
      return;
    }
    o->s = s;
    o->cap = cap;
  }
}

static void put_sha256(Out* o, const uint8_t* data, size_t n) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!EVP_Digest(data, n, md, &len, EVP_sha256(), NULL)) o->failed = 1;
  for (unsigned i = 0; i < len; ++i) put(o, "%02x", md[i]);
}

/* ---- decoding --------------------------------------------------------------------------- */

typedef struct {
  char tag[5];
  int32_t chunk_id;
  unsigned codec, flags;
  size_t header_at, payload_at, length;
} Section;

typedef struct {
  unsigned version_minor;
  const uint8_t* source_hash;
  Section* sections;
  uint32_t count;
  size_t vox0; /* index of the VOX0 section */
  unsigned size[3], palette_count;
} Model;

static int is_cache_tag(const char* tag) {
  for (size_t i = 0; i < sizeof kCacheTags / sizeof kCacheTags[0]; ++i)
    if (memcmp(tag, kCacheTags[i], 4) == 0) return 1;
  return 0;
}

/* The VOX0 payload (docs/spec/vfp.md#vox0-payload): NULL when valid, else the error code. */
static const char* decode_vox0(const uint8_t* p, size_t n, Model* m) {
  Cursor c = {p, n, 0};
  if (!has(&c, 1)) return "vox0.truncated";
  if (u8(&c) != 1) return "vox0.bad_version";
  if (!has(&c, 1)) return "vox0.truncated";
  if (u8(&c) != 0) return "vox0.reserved";
  if (!has(&c, 2)) return "vox0.truncated";
  unsigned pc = u16(&c);
  if (pc < 1 || pc > 256) return "vox0.palette_count";
  unsigned long long voxels = 1;
  for (int k = 0; k < 3; ++k) {
    if (!has(&c, 2)) return "vox0.truncated";
    m->size[k] = u16(&c);
    if (m->size[k] == 0) return "vox0.zero_size";
    voxels *= m->size[k];
  }
  if (voxels > kMaxVoxels) return "vox0.limit.voxels";
  if ((unsigned long long)n != 12ull + 4ull * pc + voxels) return "vox0.length";
  if (u16(&c) != 0) return "vox0.reserved";
  m->palette_count = pc;
  const uint8_t* v = p + 12 + 4 * (size_t)pc;
  for (size_t i = 0; i < (size_t)voxels; ++i) {
#ifdef VOXRIG_TESTEE_PLANTED_BUG
    if (v[i] > pc) return "vox0.palette_index"; /* planted: index == paletteCount slips through */
#else
    if (v[i] >= pc) return "vox0.palette_index";
#endif
  }
  return NULL;
}

/* FP-7 steps 1-7 under vfp-static: NULL when the file is accepted, else the error code. */
static const char* decode(const uint8_t* data, size_t size, Model* m) {
  Cursor c = {data, size, 0};
  if (size < 4 || memcmp(data, "VFP\0", 4) != 0) return "file.unknown_format";
  c.at = 4;
  /* Step 1: the header, field by field (a short file fails at the first missing field). */
  if (!has(&c, 1)) return "vfp.header.truncated";
  if (u8(&c) != 1) return "vfp.header.version_major";
  if (!has(&c, 1)) return "vfp.header.truncated";
  m->version_minor = u8(&c);
  if (!has(&c, 2)) return "vfp.header.truncated";
  if (u16(&c) != 0) return "vfp.header.flags";
  if (!has(&c, 4)) return "vfp.header.truncated";
  m->count = u32(&c);
  if (m->count > kMaxSections) return "vfp.limit.sections";
  if (!has(&c, 32)) return "vfp.header.truncated";
  m->source_hash = data + c.at;
  c.at += 32;
  /* Step 2: section headers in file order. */
  m->sections = calloc(m->count ? m->count : 1, sizeof(Section));
  if (!m->sections) return "testee.out_of_memory";
  for (uint32_t i = 0; i < m->count; ++i) {
    Section* s = &m->sections[i];
    if (!has(&c, kSectionHeaderSize)) return "vfp.section.truncated";
    s->header_at = c.at;
    for (int k = 0; k < 4; ++k) {
      uint8_t ch = data[c.at + (size_t)k];
      if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))) return "vfp.section.bad_tag";
      s->tag[k] = (char)ch;
    }
    c.at += 4;
    s->chunk_id = (int32_t)u32(&c);
    if (s->chunk_id < -1) return "vfp.section.bad_chunk_id";
    s->codec = u8(&c);
    s->flags = u8(&c);
    if (s->flags & ~(unsigned)kRequired) return "vfp.section.reserved_flags";
    if (u16(&c) != 0) return "vfp.section.reserved";
    s->length = u32(&c);
    if (!has(&c, s->length)) return "vfp.section.payload_truncated";
    s->payload_at = c.at;
    c.at += s->length;
  }
  /* Step 3: nothing after the last section. */
  if (c.at != size) return "vfp.trailing_bytes";
  /* Step 4: exactly one VOX0, chunkId -1, codec 0, REQUIRED. */
  int found = 0;
  for (uint32_t i = 0; i < m->count; ++i) {
    if (memcmp(m->sections[i].tag, "VOX0", 4) != 0) continue;
    if (found) return "vfp.vox0.duplicate";
    found = 1;
    m->vox0 = i;
  }
  if (!found) return "vfp.vox0.missing";
  const Section* v = &m->sections[m->vox0];
  if (v->chunk_id != -1) return "vfp.vox0.bad_chunk_id";
  if (v->codec != 0) return "vfp.vox0.bad_codec";
  if (!(v->flags & kRequired)) return "vfp.vox0.not_required";
  /* Step 5: REQUIRED sections other than VOX0 must be cache tags with codec 0 (vfp-static
   * treats SKEL / VSKN / ANIM as unknown sections). */
  for (uint32_t i = 0; i < m->count; ++i) {
    const Section* s = &m->sections[i];
    if (i == m->vox0 || !(s->flags & kRequired)) continue;
    if (!is_cache_tag(s->tag)) return "vfp.section.unknown_required";
    if (s->codec != 0) return "vfp.section.unsupported_codec";
  }
  /* Step 6: the VOX0 payload. */
  const char* e = decode_vox0(data + v->payload_at, v->length, m);
  if (e) return e;
  /* Step 7: sourceHash = SHA-256 of the VOX0 payload. */
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!EVP_Digest(data + v->payload_at, v->length, md, &len, EVP_sha256(), NULL) || len != 32)
    return "testee.sha256_failed";
  if (memcmp(md, m->source_hash, 32) != 0) return "vfp.source_hash";
  return NULL;
}

static void dump(const uint8_t* data, const Model* m, Out* o) {
  put(o, "{\"schema\": \"voxrig-dump/2\", \"format\": \"vfp\", \"version_minor\": %u, ",
      m->version_minor);
  put(o, "\"source_hash\": \"");
  for (int i = 0; i < 32; ++i) put(o, "%02x", m->source_hash[i]);
  put(o, "\", \"sections\": [");
  for (uint32_t i = 0; i < m->count; ++i) {
    const Section* s = &m->sections[i];
    const uint8_t* p = data + s->payload_at;
    put(o, "%s{\"tag\": \"%.4s\", \"chunk_id\": %d, \"codec\": %u, \"flags\": %u, \"length\": %zu, ",
        i ? ", " : "", s->tag, (int)s->chunk_id, s->codec, s->flags, s->length);
    if (i == m->vox0) {
      const size_t voxels = (size_t)m->size[0] * m->size[1] * m->size[2];
      const uint8_t* v = p + 12 + 4 * (size_t)m->palette_count;
      put(o, "\"vox0\": {\"size\": [%u, %u, %u], \"palette\": [", m->size[0], m->size[1],
          m->size[2]);
      for (unsigned k = 0; k < m->palette_count; ++k) {
        const uint8_t* rgba = p + 12 + 4 * (size_t)k;
        put(o, "%s[%u, %u, %u, %u]", k ? ", " : "", rgba[0], rgba[1], rgba[2], rgba[3]);
      }
      size_t non_empty = 0;
      for (size_t k = 0; k < voxels; ++k) non_empty += v[k] != 0;
      put(o, "], \"voxels\": {\"count\": %zu, \"sha256\": \"", voxels);
      put_sha256(o, v, voxels);
      put(o, "\"}, \"non_empty_voxels\": %zu}}", non_empty);
    } else {
      put(o, "\"opaque\": {\"count\": %zu, \"sha256\": \"", s->length);
      put_sha256(o, p, s->length);
      put(o, "\"}}");
    }
  }
  put(o, "]}\n");
}

static int answer(const char* text, char** out, size_t* out_len, int rc) {
  size_t n = strlen(text);
  *out = malloc(n + 1);
  if (!*out) return 3;
  memcpy(*out, text, n + 1);
  *out_len = n;
  return rc;
}

EXPORT int voxrig_testee_dump(const uint8_t* data, size_t size, const char* profile, char** out,
                              size_t* out_len) {
  *out = NULL;
  *out_len = 0;
  if (strcmp(profile, "vfp-static") != 0)
    return answer("profile not supported (this testee reads vfp-static only)", out, out_len, 2);
  static const uint8_t kEmpty[1] = {0};
  if (data == NULL) data = kEmpty; /* size is 0 then */
  Model m;
  memset(&m, 0, sizeof m);
  const char* error = decode(data, size, &m);
  int rc;
  if (error) {
    rc = answer(error, out, out_len, VOXRIG_TESTEE_REJECT);
  } else {
    Out o = {NULL, 0, 0, 0};
    dump(data, &m, &o);
    if (o.failed) {
      free(o.s);
      rc = answer("out of memory", out, out_len, 3);
    } else {
      *out = o.s;
      *out_len = o.len;
      rc = VOXRIG_TESTEE_ACCEPT;
    }
  }
  free(m.sections);
  return rc;
}

EXPORT void voxrig_testee_free(char* text) { free(text); }
