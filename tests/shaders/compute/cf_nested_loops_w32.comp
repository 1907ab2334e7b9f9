#version 450
// native5-test: groups=4,1,1 wave=32
// buffer 0: 128 bytes u32 range=0,12 seed=25
// buffer 1: 128 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = a[i], s = 1u;
    for (uint j = 0u; j < n; j++) {
        for (uint k = j; k < n; k++) {
            s = s * 7u + j * k;
            if (s == 12345u) break;
        }
        s ^= j;
    }
    b[i] = s;
}
