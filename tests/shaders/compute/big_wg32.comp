#version 450
// A full wave32 workgroup: more lanes than lavapipe's subgroup, so the workgroup
// mapping runs it.
// native5-test: groups=8,1,1 wave=32
// buffer 0: 1024 bytes random seed=48
// buffer 1: 1024 bytes zero
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
shared uint t[32];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    t[l] = a[i];
    barrier();
    b[i] = t[31u - l] ^ t[(l + 17u) & 31u] ^ (l < 20u ? a[i] * 3u : a[i] >> 2);
}
