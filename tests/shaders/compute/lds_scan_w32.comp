#version 450
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes u32 range=0,100000 seed=35
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
shared uint s[8];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    s[l] = a[i];
    barrier();
    for (uint d = 1u; d < 8u; d <<= 1) {
        uint v = l >= d ? s[l - d] : 0u;
        barrier();
        s[l] += v;
        barrier();
    }
    b[i] = s[l];
}
