#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes f32 range=-100,100 seed=1
// buffer 1: 256 bytes f32 range=0.5,50 seed=2
// buffer 2: 256 bytes zero compare=f32ulp:2
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { float b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    c[i] = x * y + (x - y) * 0.25 - min(x, y) + max(x, 2.0) + abs(x) * -y;
}
