#version 450
// native5-test: groups=2,4,1
// buffer 0: 1024 bytes random seed=3
// buffer 1: 1024 bytes zero
// push: u32 7, f32 1.5
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { uint k; float f; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 8u;
    b[i] = a[i] * pc.k + uint(pc.f) + gl_LocalInvocationIndex;
}
