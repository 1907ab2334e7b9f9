/* Test oracle for the rdna crate: disassembles one instruction per input line
 * with LLVM's own AMDGPU disassembler (through the LLVM-C API), so that the
 * differential tests can ask LLVM about each buffer separately. llvm-mc reads
 * its whole input as one byte stream, which cannot express "the first
 * instruction of this 16-byte buffer".
 *
 * Usage: llvm-oracle CPU FEATURES < lines
 * Each input line is hex bytes (two hex digits each, optional spaces).
 * Each output line is "<length>\t<text>", length 0 meaning LLVM rejected it.
 */
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <setjmp.h>
#include <signal.h>

/* LLVM 14 crashes on some SDWA words (e.g. 21a938f9): recover and report
 * length -1 so one bad word does not end a million-buffer run. */
static sigjmp_buf recover;
static void on_crash(int sig) { (void)sig; siglongjmp(recover, 1); }

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: llvm-oracle CPU FEATURES\n");
    return 2;
  }
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUDisassembler();
  LLVMDisasmContextRef dc = LLVMCreateDisasmCPUFeatures(
      "amdgcn--amdpal", argv[1], argv[2], NULL, 0, NULL, NULL);
  if (!dc) {
    fprintf(stderr, "cannot create disassembler\n");
    return 1;
  }
  static char line[1 << 16];
  static uint8_t bytes[1 << 15];
  char out[4096];
  while (fgets(line, sizeof line, stdin)) {
    size_t n = 0;
    for (char *p = line; *p && n < sizeof bytes;) {
      int h = hexval((unsigned char)p[0]);
      if (h < 0) { p++; continue; }
      int l = hexval((unsigned char)p[1]);
      if (l < 0) break;
      bytes[n++] = (uint8_t)(h * 16 + l);
      p += 2;
    }
    out[0] = 0;
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    if (sigsetjmp(recover, 1)) {
      printf("-1\t\n");
      continue;
    }
    size_t len = LLVMDisasmInstruction(dc, bytes, n, 0, out, sizeof out);
    char *t = out;
    while (*t == '\t' || *t == ' ') t++;
    for (char *q = t; *q; q++) if (*q == '\t') *q = ' ';
    printf("%zu\t%s\n", len, len ? t : "");
  }
  LLVMDisasmDispose(dc);
  return 0;
}
