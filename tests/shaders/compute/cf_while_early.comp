#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes u32 range=1,100000 seed=26
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    if (x < 1000u) {
        b[i] = 7u;
        return;
    }
    uint steps = 0u;
    while (x != 1u) {
        x = (x & 1u) != 0u ? 3u * x + 1u : x / 2u;
        steps++;
    }
    b[i] = steps;
}
