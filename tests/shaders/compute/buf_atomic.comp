#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes u32 range=0,1000 seed=33
// buffer 1: 64 bytes u32 range=4000,4000
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    // Per-lane addresses: ACO keeps these as buffer atomics (no wave reduction).
    atomicAdd(b[x & 3u], x);
    atomicMax(b[4u + (x & 3u)], x);
    atomicMin(b[8u + (x & 3u)], x + 5u);
    atomicXor(b[12u + (x & 3u)], 1u << (x & 31u));
}
