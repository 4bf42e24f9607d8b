/* voxrig_testee_serve: the example C testee (voxrig_testee.c) as a reader command, one-shot and
 * persistent (docs/spec/protocols.md, "The reader protocol" and "Persistent protocol (serve)"):
 *
 *   voxrig_testee_serve dump --profile P FILE   one file: exit 0 + dump, 1 + {"error": code}
 *   voxrig_testee_serve serve                   JSON lines on stdin/stdout until EOF
 *
 * It links the testee's two symbols directly; any reader exporting voxrig/testee.h can be
 * wrapped the same way. The request parser reads the runner's requests only (one object per
 * line with "id", "op" and "args", strings with JSON escapes); it is not a general JSON parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "voxrig/testee.h"

#define MAX_ARGS 16

/* A growable byte buffer. */
typedef struct {
  char* data;
  size_t len, cap;
} Buf;

static void buf_put(Buf* b, const char* s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > cap) cap *= 2;
    char* grown = realloc(b->data, cap);
    if (!grown) {
      fputs("voxrig_testee_serve: out of memory\n", stderr);
      exit(3);
    }
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void buf_str(Buf* b, const char* s) { buf_put(b, s, strlen(s)); }

/* `s` (n bytes) as a JSON string literal. */
static void buf_quote(Buf* b, const char* s, size_t n) {
  buf_put(b, "\"", 1);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = (unsigned char)s[i];
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\', esc[1] = (char)c;
      buf_put(b, esc, 2);
    } else if (c < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      buf_put(b, esc, 6);
    } else {
      buf_put(b, (const char*)&s[i], 1);
    }
  }
  buf_put(b, "\"", 1);
}

/* One dump: the one-shot protocol's exit status, stdout into `out`, stderr into `err`. */
static int dump(int argc, char** argv, Buf* out, Buf* err) {
  const char* profile = NULL;
  const char* file = NULL;
  for (int i = 0; i < argc; ++i) {
    if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
      profile = argv[++i];
    else if (!file)
      file = argv[i];
    else
      file = NULL, profile = NULL, i = argc;
  }
  if (!profile || !file) {
    buf_str(err, "voxrig_testee_serve: usage: dump --profile P FILE\n");
    return 2;
  }
  FILE* f = fopen(file, "rb");
  if (!f) {
    buf_str(err, "voxrig_testee_serve: cannot read ");
    buf_str(err, file);
    buf_str(err, "\n");
    return 3;
  }
  Buf bytes = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_put(&bytes, chunk, n);
  fclose(f);
  char* text = NULL;
  size_t text_len = 0;
  const int rc = voxrig_testee_dump((const uint8_t*)(bytes.data ? bytes.data : ""), bytes.len,
                                    profile, &text, &text_len);
  free(bytes.data);
  if (rc == 0) {
    buf_put(out, text, text_len);
  } else if (rc == 1) {
    buf_str(out, "{\"error\": ");
    buf_quote(out, text, text_len);
    buf_str(out, "}\n");
  } else {
    buf_str(err, "voxrig_testee_serve: ");
    buf_put(err, text ? text : "testee failure", text ? text_len : strlen("testee failure"));
    buf_str(err, "\n");
  }
  voxrig_testee_free(text);
  return rc == 0 ? 0 : rc == 1 ? 1 : 3;
}

/* Parses the JSON string starting at *p (after its opening quote) into a new string. */
static char* parse_string(const char** p) {
  Buf s = {0};
  buf_put(&s, "", 0);
  const char* q = *p;
  while (*q && *q != '"') {
    if (*q != '\\') {
      buf_put(&s, q++, 1);
      continue;
    }
    ++q;
    char c = *q ? *q++ : '\0';
    switch (c) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case 'r': c = '\r'; break;
      case 'b': c = '\b'; break;
      case 'f': c = '\f'; break;
      case 'u': {  /* BMP code point to UTF-8 (surrogates are not in the runner's paths) */
        unsigned v = 0;
        for (int k = 0; k < 4 && *q; ++k, ++q)
          v = v * 16 + (unsigned)(*q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10);
        char u[3];
        if (v < 0x80) {
          u[0] = (char)v;
          buf_put(&s, u, 1);
        } else if (v < 0x800) {
          u[0] = (char)(0xC0 | (v >> 6)), u[1] = (char)(0x80 | (v & 0x3F));
          buf_put(&s, u, 2);
        } else {
          u[0] = (char)(0xE0 | (v >> 12)), u[1] = (char)(0x80 | ((v >> 6) & 0x3F));
          u[2] = (char)(0x80 | (v & 0x3F));
          buf_put(&s, u, 3);
        }
        continue;
      }
      default: break;  /* \" \\ \/ stand for themselves */
    }
    buf_put(&s, &c, 1);
  }
  *p = *q ? q + 1 : q;
  return s.data;
}

/* The text after "key": in `line`, or NULL. */
static const char* field(const char* line, const char* key) {
  char pattern[32];
  snprintf(pattern, sizeof pattern, "\"%s\"", key);
  const char* at = strstr(line, pattern);
  if (!at) return NULL;
  at += strlen(pattern);
  while (*at == ' ' || *at == ':') ++at;
  return at;
}

static int serve(void) {
  char* line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    const char* id = field(line, "id");
    const long long n = id ? strtoll(id, NULL, 10) : -1;
    const char* op_at = field(line, "op");
    char* op = op_at && *op_at == '"' ? (++op_at, parse_string(&op_at)) : NULL;
    char* args[MAX_ARGS];
    int argc = 0;
    const char* a = field(line, "args");
    if (a && *a == '[') {
      for (++a; *a && *a != ']' && argc < MAX_ARGS;) {
        if (*a == '"') {
          ++a;
          args[argc++] = parse_string(&a);
        } else {
          ++a;
        }
      }
    }
    Buf reply = {0}, out = {0}, err = {0};
    char head[64];
    snprintf(head, sizeof head, "{\"id\": %lld, ", n);
    buf_str(&reply, head);
    if (op && strcmp(op, "hello") == 0) {
      buf_str(&reply, "\"protocol\": \"voxrig-serve/1\", \"ops\": [\"dump\"], "
                      "\"profiles\": [\"vfp-static\"]}\n");
    } else {
      const int rc = op && strcmp(op, "dump") == 0
                         ? dump(argc, args, &out, &err)
                         : (buf_str(&err, "voxrig_testee_serve: only dump is served\n"), 2);
      snprintf(head, sizeof head, "\"exit\": %d, \"stdout\": ", rc);
      buf_str(&reply, head);
      buf_quote(&reply, out.data ? out.data : "", out.len);
      if (err.len) {
        buf_str(&reply, ", \"stderr\": ");
        buf_quote(&reply, err.data, err.len);
      }
      buf_str(&reply, "}\n");
    }
    fwrite(reply.data, 1, reply.len, stdout);
    fflush(stdout);
    free(reply.data), free(out.data), free(err.data), free(op);
    for (int i = 0; i < argc; ++i) free(args[i]);
  }
  free(line);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "serve") == 0) return serve();
  if (argc < 2 || strcmp(argv[1], "dump") != 0) {
    fputs("usage: voxrig_testee_serve dump --profile P FILE | serve\n", stderr);
    return 2;
  }
  Buf out = {0}, err = {0};
  const int rc = dump(argc - 2, argv + 2, &out, &err);
  if (out.len) fwrite(out.data, 1, out.len, stdout);
  if (err.len) fwrite(err.data, 1, err.len, stderr);
  free(out.data), free(err.data);
  return rc;
}
