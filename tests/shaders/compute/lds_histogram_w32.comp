#version 450
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes u32 range=0,15 seed=36
// buffer 1: 512 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
shared uint h[16];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    h[l] = 0u;
    h[l + 8u] = 0u;
    barrier();
    atomicAdd(h[a[i]], 1u);
    atomicOr(h[(a[i] + 1u) & 15u], 0x100u << l);
    barrier();
    b[gl_WorkGroupID.x * 16u + l] = h[l];
    b[gl_WorkGroupID.x * 16u + l + 8u] = h[l + 8u];
}
