#version 450
// A 4x4 workgroup (2D, 16 lanes).
// native5-test: groups=2,3,1
// buffer 0: 2048 bytes random seed=49
// buffer 1: 2048 bytes zero
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = g.y * 8u + g.x;
    b[i] = a[i] + gl_LocalInvocationIndex * 1000u + g.y;
}
