#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes u32 range=0,20 seed=24
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = a[i], s = 0u;
    for (uint k = 0u; k < n; k++) {
        if ((k & 3u) == 1u) continue;
        s = s * 3u + k;
    }
    b[i] = s;
}
