#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// Workgroups of 8 are one subgroup on lavapipe and one (partial) wave on RDNA, so the
// results do not depend on the subgroup size.
// native5-test: groups=8,1,1 wave=32
// buffer 0: 256 bytes u32 range=0,100 seed=41
// buffer 1: 256 bytes zero
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 m = subgroupBallot(a[i] > 50u);
    b[i] = m.x + (subgroupBallotBitCount(m) << 16);
}
