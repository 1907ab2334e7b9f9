#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes random seed=61
// buffer 1: 256 bytes random seed=62
// buffer 2: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { u16vec2 a[]; };
layout(set = 0, binding = 1) buffer B { u16vec2 b[]; };
layout(set = 0, binding = 2) buffer C { u16vec2 c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    u16vec2 x = a[i], y = b[i];
    c[i] = x * y + (x >> 3us) ^ y;
}
