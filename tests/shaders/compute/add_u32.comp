#version 450
// native5-test: groups=16,1,1
// buffer 0: 512 bytes random seed=7
// buffer 1: 512 bytes zero compare=exact
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = a[i] * 3u + 7u;
}
