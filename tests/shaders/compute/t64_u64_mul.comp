#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// native5-test: groups=8,1,1
// buffer 0: 512 bytes random seed=53
// buffer 1: 512 bytes random seed=54
// buffer 2: 512 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint64_t a[]; };
layout(set = 0, binding = 1) buffer B { uint64_t b[]; };
layout(set = 0, binding = 2) buffer C { uint64_t c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] * b[i] + uint64_t(uint(a[i])) * 3ul;
}
