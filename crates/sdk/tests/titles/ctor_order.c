/* Constructors with priorities and a destructor: run on the host to check the crt's
 * DT_INIT/DT_FINI walk of .ctors and .dtors. No headers, no stack protector: it links
 * against the host's libc. */
int printf(const char *, ...);

static char order[8];
static int count;

__attribute__((constructor(101))) static void first(void) { order[count++] = 'a'; }
__attribute__((constructor(200))) static void second(void) { order[count++] = 'b'; }
__attribute__((constructor)) static void third(void) { order[count++] = 'c'; }
__attribute__((destructor)) static void last(void) { printf("destructor ran\n"); }

int main(void) {
    printf("order=%s\n", order);
    return 0;
}
