#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes u32 range=0,100 seed=23
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], s = 0u;
    for (uint k = 0u; k < 64u; k++) {
        s += a[k] ^ k;
        if (s > x * 40u) break;
    }
    b[i] = s;
}
