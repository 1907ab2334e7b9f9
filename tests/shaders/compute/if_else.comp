#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes i32 range=-1000,1000 seed=5
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { int a[]; };
layout(set = 0, binding = 1) buffer B { int b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    int r;
    if (x > 0) {
        r = x * 3 + a[(i + 1u) & 63u];
    } else {
        r = -x - 17 + a[(i + 5u) & 63u];
    }
    b[i] = r;
}
