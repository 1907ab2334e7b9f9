#version 450
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes u32 range=0,7 seed=28
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r;
    switch (a[i]) {
        case 0u: r = 10u; break;
        case 1u: r = i * 3u; break;
        case 2u: case 3u: r = a[(i + 1u) & 63u] + 100u; break;
        case 5u: r = 55u;
        default: r = 99u; break;
    }
    b[i] = r;
}
