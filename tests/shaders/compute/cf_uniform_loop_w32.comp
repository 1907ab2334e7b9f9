#version 450
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes f32 range=-2,2 seed=27
// buffer 1: 256 bytes zero compare=f32ulp:4
// push: u32 13
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { float b[]; };
layout(push_constant) uniform P { uint n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], acc = 0.0;
    for (uint k = 0u; k < pc.n; k++) {
        acc = acc * x + float(k);
    }
    b[i] = acc;
}
