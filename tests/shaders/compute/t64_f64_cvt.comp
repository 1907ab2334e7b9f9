#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes f32 range=-100000,100000 seed=57
// buffer 1: 256 bytes zero
// buffer 2: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { float b[]; };
layout(set = 0, binding = 2) buffer C { int c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    double d = double(a[i]) * 1.0000001;
    b[i] = float(d);
    c[i] = int(d) + int(d < 0.0);
}
