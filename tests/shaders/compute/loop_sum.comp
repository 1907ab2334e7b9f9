#version 450
// native5-test: groups=4,1,1
// buffer 0: 128 bytes u32 range=0,40 seed=9
// buffer 1: 128 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = a[i];
    uint s = 0u;
    for (uint k = 0u; k < n; k++) {
        s += k * k ^ (s >> 3);
    }
    b[i] = s;
}
