#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes u32 range=0,1000 seed=32
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
shared uint acc[8];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    acc[l] = 0u;
    barrier();
    atomicAdd(acc[x & 7u], x);
    atomicMax(acc[(x >> 3) & 7u], l);
    barrier();
    b[i] = acc[l];
}
