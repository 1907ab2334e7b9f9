#version 450
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes random seed=31
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
shared uint tile[8];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    tile[l] = a[i] * 3u;
    barrier();
    b[i] = tile[7u - l] + tile[(l + 1u) & 7u];
}
