typedef unsigned long size_t;
int printf(const char *, ...);
void *malloc(size_t);
int scePthreadCreate(void *thr, const void *attr, void *(*entry)(void *), void *arg, const char *name);
extern int some_data_import;
static __thread int tls_counter = 5;
__attribute__((section(".sce_process_param"), used)) static unsigned long long procparam[10];
static int ctor_ran;
__attribute__((constructor)) static void init(void) { ctor_ran = 1; }
static void *entry(void *a) { return a; }
int main(int argc, char **argv) {
  char buf[64];
  void *p = malloc(16);
  void *t;
  scePthreadCreate(&t, 0, entry, p, "t");
  tls_counter++;
  printf("hello %d %d %s\n", tls_counter, ctor_ran + some_data_import, buf);
  return 42;
}
