#version 450
// Uniform-address atomics: ACO turns them into a wave reduction (DPP, permlanex16,
// readlane) and one atomic from the first lane.
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes u32 range=0,1000 seed=47
// buffer 1: 16 bytes u32 range=4000,4000
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    atomicAdd(b[0], a[i]);
    atomicMax(b[1], a[i]);
    atomicMin(b[2], a[i] + 5u);
    atomicOr(b[3], 1u << (a[i] & 31u));
}
