int printf(const char *, ...);
__attribute__((visibility("default"))) __thread int example_tls = 7;
__declspec(dllexport) int example_add(int a, int b) { return a + b + example_tls; }
__attribute__((section(".sce_module_param"), used)) static unsigned long long modparam[3];
static int hidden_helper(void) { return printf("x\n"); }
__declspec(dllexport) int module_start(unsigned long argc, const void *argv) { return hidden_helper() * 0; }
