#version 450
// native5-test: groups=8,1,1
// buffer 0: 512 bytes random seed=34
// buffer 1: 512 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uvec2 a[]; };
layout(set = 0, binding = 1) buffer B { uvec2 b[]; };
shared uvec2 t[8];
shared uint u[16];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    t[l] = a[i];
    u[l] = a[i].x ^ 0xffu;
    u[l + 8u] = a[i].y + 1u;
    barrier();
    uvec2 o = t[(l + 3u) & 7u];
    b[i] = uvec2(o.x + u[15u - l], o.y ^ u[l]);
}
