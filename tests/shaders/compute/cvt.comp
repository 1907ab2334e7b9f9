#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes f32 range=-1000,1000 seed=11
// buffer 1: 256 bytes zero
// buffer 2: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { int b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int v = int(a[i]);
    b[i] = v;
    c[i] = float(v * 3) + float(uint(abs(v)));
}
