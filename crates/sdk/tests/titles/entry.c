/* Prints what the crt's _start passed to main: run on the host, through a harness that
 * calls _start with the console's entry ABI. */
int printf(const char *, ...);

int main(int argc, char **argv, char **envp) {
    printf("argc=%d argv0=%s argv1=%s env0=%s\n", argc, argv[0], argv[1], envp[0]);
    return 3;
}
