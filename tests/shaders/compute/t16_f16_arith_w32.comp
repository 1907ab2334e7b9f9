#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes f16 range=-8,8 seed=58
// buffer 1: 256 bytes f16 range=0.5,4 seed=59
// buffer 2: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { f16vec2 a[]; };
layout(set = 0, binding = 1) buffer B { f16vec2 b[]; };
layout(set = 0, binding = 2) buffer C { f16vec2 c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec2 x = a[i], y = b[i];
    // precise: no contraction into fma, so both compilers round the same way.
    precise f16vec2 r = x * y + x - min(x, y);
    c[i] = r;
}
