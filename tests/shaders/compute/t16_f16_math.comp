#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// native5-test: groups=8,1,1
// buffer 0: 128 bytes f16 range=-8,8 seed=63
// buffer 1: 128 bytes f16 range=0.5,4 seed=64
// buffer 2: 128 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { float16_t a[]; };
layout(set = 0, binding = 1) buffer B { float16_t b[]; };
layout(set = 0, binding = 2) buffer C { float16_t c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t x = a[i], y = b[i];
    precise float16_t r = max(x, y) * float16_t(0.5) - x;
    c[i] = r;
}
