/* native5 sdk crt: the entry point and process parameters of an executable.
 *
 * The console enters _start with rdi pointing at a stack-style block (argc as 8 bytes,
 * then argv[] inline and NULL, then envp[] and NULL, then the aux vector) and rsi holding
 * an exit callback that the title registers with atexit. Constructors have already run
 * (the loader calls DT_INIT, see crtbegin.c). */

typedef void (*__sce_fn)(void);

int main(int argc, char **argv, char **envp);
int atexit(__sce_fn fn);
void exit(int status) __attribute__((noreturn));

/* The process parameters. The sce writer fills in the header (size 0x50, magic "ORBI",
 * entry count, SDK version); the rest stays zero. Writable, like the console's, because its
 * pointer fields would be relocated. */
__attribute__((visibility("hidden"), section(".sce_process_param"), used, aligned(8)))
unsigned char __sce_process_param[0x50];

/* The caller may not keep the stack 16-byte aligned as a call would; realign it. */
__attribute__((visibility("hidden"), noreturn, force_align_arg_pointer))
void _start(long *block, __sce_fn exit_callback) {
    static char *no_args[2];
    int argc = 0;
    char **argv = no_args;
    if (block) {
        argc = (int)block[0];
        argv = (char **)(block + 1);
    }
    char **envp = argv + argc + 1;
    if (exit_callback)
        atexit(exit_callback);
    exit(main(argc, argv, envp));
}
