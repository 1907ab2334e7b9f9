#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes random seed=42
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    b[i] = subgroupBroadcastFirst(x) ^ subgroupBroadcast(x, 5u);
}
