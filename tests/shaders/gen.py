#!/usr/bin/env python3
"""Writes the generated part of the compute corpus: tests/shaders/compute/g_*.comp.

Each family is one expression over two typed inputs with ranges chosen so the result is
defined in GLSL (no division by zero, no NaN/denormal inputs, shifts below 32). The
hand-written shaders beside them cover control flow and layouts. After editing, run
`native5-shader-oracle regen tests/shaders/compute/g_*.comp` to recompile through RADV.
"""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compute")

U = "u32 range=0,4294967295"
US = "u32 range=0,1000"
UNZ = "u32 range=1,100000"
I = "i32 range=-2147483648,2147483647"
IS = "i32 range=-1000,1000"
INZ = "i32 range=1,5000"
F = "f32 range=-100,100"
FP = "f32 range=0.01,100"
FS = "f32 range=-3,3"

# name: (in type, gen a, gen b, out type, expr, compare)
FAMILIES = {
    "u32_add": ("uint", U, U, "uint", "x + y", "exact"),
    "u32_sub": ("uint", U, U, "uint", "x - y", "exact"),
    "u32_mul": ("uint", U, U, "uint", "x * y", "exact"),
    "u32_mul24": ("uint", US, US, "uint", "(x & 0xffffu) * (y & 0xfffu)", "exact"),
    "u32_div": ("uint", U, UNZ, "uint", "x / y", "exact"),
    "u32_mod": ("uint", U, UNZ, "uint", "x % y", "exact"),
    "u32_and_or_xor": ("uint", U, U, "uint", "(x & y) ^ (x | ~y)", "exact"),
    "u32_shl": ("uint", U, U, "uint", "x << (y & 31u)", "exact"),
    "u32_shr": ("uint", U, U, "uint", "x >> (y & 31u)", "exact"),
    "u32_minmax": ("uint", U, U, "uint", "min(x, y) + max(x, y) * 3u", "exact"),
    "u32_clamp": ("uint", U, U, "uint", "clamp(x, 1000u, 4000000000u) ^ y", "exact"),
    "u32_cmp": ("uint", US, US, "uint", "(x < y ? 1u : 0u) | (x == y ? 2u : 0u) | (x >= y ? 4u : 0u)", "exact"),
    "u32_mad": ("uint", U, U, "uint", "x * 17u + y * 5u + 3u", "exact"),
    "u32_select": ("uint", U, U, "uint", "(x & 1u) != 0u ? x : y", "exact"),
    "u32_mul_wide": ("uint", US, U, "uint", "x * (y >> 8) + (y & 0xffu) * x", "exact"),
    "u32_addcarry": ("uint", U, U, "uint", "(x + y < x) ? 1u : 0u", "exact"),
    "i32_add": ("int", I, I, "int", "x + y", "exact"),
    "i32_sub": ("int", I, I, "int", "x - y", "exact"),
    "i32_mul": ("int", IS, IS, "int", "x * y - 7", "exact"),
    "i32_div": ("int", I, INZ, "int", "x / y", "exact"),
    "i32_div_neg": ("int", IS, INZ, "int", "x / -y", "exact"),
    # GLSL leaves % undefined for negative operands.
    "i32_mod": ("int", "i32 range=0,1000000", INZ, "int", "x % y", "exact"),
    "i32_minmax": ("int", I, I, "int", "min(x, y) ^ max(x, y)", "exact"),
    "i32_abs_sign": ("int", IS, IS, "int", "abs(x) * 3 + sign(y)", "exact"),
    "i32_shr": ("int", I, I, "int", "x >> (y & 31)", "exact"),
    "i32_cmp": ("int", IS, IS, "int", "(x < y ? 1 : 0) | (x > y ? 2 : 0) | (x <= -y ? 4 : 0)", "exact"),
    "i32_clamp": ("int", I, IS, "int", "clamp(x, -100000, 100000) + y", "exact"),
    "i32_neg": ("int", I, I, "int", "-x ^ ~y", "exact"),
    "i32_mul_neg": ("int", I, IS, "int", "x * -y", "exact"),
    "f32_add": ("float", F, F, "float", "x + y", "exact"),
    "f32_sub": ("float", F, F, "float", "x - y", "exact"),
    "f32_mul": ("float", F, F, "float", "x * y", "exact"),
    "f32_div": ("float", F, FP, "float", "x / y", "f32ulp:3"),
    "f32_fma": ("float", F, F, "float", "fma(x, y, 1.5)", "exact"),
    "f32_mad": ("float", F, F, "float", "x * y + x", "f32ulp:1"),
    "f32_minmax": ("float", F, F, "float", "min(x, y) - max(x, 0.5)", "exact"),
    "f32_abs_neg": ("float", F, F, "float", "abs(x) - -y", "exact"),
    "f32_floor_ceil": ("float", F, F, "float", "floor(x) + ceil(y) * 2.0", "exact"),
    "f32_fract": ("float", F, F, "float", "fract(x)", "f32ulp:1"),
    "f32_trunc_round": ("float", F, F, "float", "trunc(x) + roundEven(y)", "exact"),
    "f32_sqrt": ("float", FP, FP, "float", "sqrt(x)", "f32ulp:2"),
    "f32_rsqrt": ("float", FP, FP, "float", "inversesqrt(x)", "f32ulp:4"),
    "f32_exp2": ("float", FS, FS, "float", "exp2(x)", "f32ulp:4"),
    "f32_log2": ("float", FP, FP, "float", "log2(x)", "f32abs:1e-5"),
    "f32_exp": ("float", FS, FS, "float", "exp(x)", "f32ulp:8"),
    "f32_log": ("float", FP, FP, "float", "log(x)", "f32abs:1e-5"),
    "f32_sin": ("float", FS, FS, "float", "sin(x)", "f32abs:1e-5"),
    "f32_cos": ("float", FS, FS, "float", "cos(x)", "f32abs:1e-5"),
    "f32_pow": ("float", "f32 range=0.5,4", FS, "float", "pow(x, y)", "f32ulp:64"),
    "f32_clamp": ("float", F, F, "float", "clamp(x, -10.0, 20.0) + y", "exact"),
    "f32_mix": ("float", F, F, "float", "mix(x, y, 0.25)", "f32ulp:2"),
    "f32_step": ("float", F, F, "float", "step(x, y) + step(0.0, x) * 2.0", "exact"),
    "f32_cmp": ("float", F, F, "uint", "(x < y ? 1u : 0u) | (x == y ? 2u : 0u) | (x >= y ? 4u : 0u) | (x != y ? 8u : 0u)", "exact"),
    "f32_sat": ("float", FS, FS, "float", "clamp(x * y, 0.0, 1.0)", "exact"),
    "f32_rcp": ("float", FP, FP, "float", "1.0 / x", "f32ulp:2"),
    "f32_sign": ("float", F, F, "float", "sign(x) * y", "exact"),
    "f32_smooth": ("float", FS, FS, "float", "smoothstep(-1.0, 2.0, x)", "f32ulp:4"),
    "cvt_f32_u32": ("uint", U, U, "float", "float(x)", "exact"),
    "cvt_f32_i32": ("int", I, I, "float", "float(x)", "exact"),
    "cvt_u32_f32": ("float", "f32 range=0,4000000000", F, "uint", "uint(x)", "exact"),
    "cvt_i32_f32": ("float", "f32 range=-2000000000,2000000000", F, "int", "int(x)", "exact"),
    "cvt_bits": ("float", F, F, "uint", "floatBitsToUint(x) ^ floatBitsToUint(y)", "exact"),
    "cvt_from_bits": ("uint", "u32 range=0,2139095039", U, "float", "uintBitsToFloat(x)", "exact"),
    "cvt_bool": ("int", IS, IS, "int", "int(x > y) + int(x == 0) * 2", "exact"),
    "bits_extract_u": ("uint", U, U, "uint", "bitfieldExtract(x, int(y & 15u), int((y >> 8) & 15u))", "exact"),
    "bits_extract_i": ("int", I, I, "int", "bitfieldExtract(x, y & 15, (y >> 8) & 15)", "exact"),
    "bits_insert": ("uint", U, U, "uint", "bitfieldInsert(x, y, 5, 11)", "exact"),
    "bits_count": ("uint", U, U, "uint", "uint(bitCount(x)) + uint(bitCount(y)) * 64u", "exact"),
    "bits_lsb": ("uint", U, U, "int", "findLSB(x) + findLSB(y & 0xff00u) * 64", "exact"),
    "bits_msb_u": ("uint", U, U, "int", "findMSB(x >> (y & 31u))", "exact"),
    "bits_msb_i": ("int", I, I, "int", "findMSB(x)", "exact"),
    "bits_reverse": ("uint", U, U, "uint", "bitfieldReverse(x) + y", "exact"),
    "bits_rotate": ("uint", U, U, "uint", "(x << (y & 31u)) | (x >> ((32u - (y & 31u)) & 31u))", "exact"),
}

TEMPLATE = """#version 450
// Generated by tests/shaders/gen.py: {name}.
// native5-test: groups=8,1,1{wave}
// buffer 0: 256 bytes {ga} seed={s1}
// buffer 1: 256 bytes {gb} seed={s2}
// buffer 2: 256 bytes zero compare={cmp}
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer A {{ {t} a[]; }};
layout(set = 0, binding = 1) buffer B {{ {t} b[]; }};
layout(set = 0, binding = 2) buffer C {{ {r} c[]; }};
void main() {{
    uint i = gl_GlobalInvocationID.x;
    {t} x = a[i];
    {t} y = b[i];
    c[i] = {expr};
}}
"""


def main():
    os.makedirs(HERE, exist_ok=True)
    for n, (name, (t, ga, gb, r, expr, cmp)) in enumerate(sorted(FAMILIES.items())):
        for wave in ("", " wave=32"):
            suffix = "_w32" if wave else ""
            text = TEMPLATE.format(name=name, wave=wave, ga=ga, gb=gb, s1=2 * n + 1,
                                   s2=2 * n + 2, cmp=cmp, t=t, r=r, expr=expr)
            with open(os.path.join(HERE, f"g_{name}{suffix}.comp"), "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
