#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes i32 range=-5000,5000 seed=37
// buffer 1: 64 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { int a[]; };
layout(set = 0, binding = 1) buffer B { int b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    uint k = uint(x) & 3u;
    atomicMin(b[k], x);
    atomicMax(b[4u + k], x);
    atomicAnd(b[8u + k], x | 0x10);
    atomicAdd(b[12u + k], -x);
}
