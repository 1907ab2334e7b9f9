#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// native5-test: groups=8,1,1
// buffer 0: 256 bytes f32 range=-1000,1000 seed=60
// buffer 1: 128 bytes zero
// buffer 2: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { float16_t b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t h = float16_t(a[i]);
    b[i] = h;
    c[i] = float(h) * 2.0;
}
