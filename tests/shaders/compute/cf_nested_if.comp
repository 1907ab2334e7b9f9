#version 450
// native5-test: groups=8,1,1
// buffer 0: 256 bytes i32 range=-100,100 seed=21
// buffer 1: 256 bytes i32 range=-100,100 seed=22
// buffer 2: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { int a[]; };
layout(set = 0, binding = 1) buffer B { int b[]; };
layout(set = 0, binding = 2) buffer C { int c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], y = b[i], r = 0;
    if (x > 0) {
        if (y > x) {
            r = y - x;
        } else {
            r = x * 2;
            if (y < -50) r += b[(i + 3u) & 63u];
        }
    } else if (y > 0) {
        r = -y;
    } else {
        r = x + y + 1000;
    }
    c[i] = r;
}
