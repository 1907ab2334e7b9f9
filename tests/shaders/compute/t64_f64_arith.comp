#version 450
// native5-test: groups=8,1,1
// buffer 0: 512 bytes zero
// buffer 1: 256 bytes f32 range=-100,100 seed=55
// buffer 2: 256 bytes f32 range=0.5,100 seed=56
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer C { double c[]; };
layout(set = 0, binding = 1) buffer A { float a[]; };
layout(set = 0, binding = 2) buffer B { float b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    double x = double(a[i]), y = double(b[i]);
    c[i] = x * y + (x - y) * 0.25 - min(x, y) + fma(x, y, 1.0);
}
