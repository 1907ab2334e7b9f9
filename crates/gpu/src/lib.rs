//! The Vulkan backend, first part: device selection and compute dispatch ([`device`]),
//! plus the shader oracle ([`oracle`]: glslang and RADV compile a GLSL compute shader)
//! and the `shader check` chain ([`check`]: reference and recompiled code run on the
//! same inputs and are compared).
//!
//! The CLI's `native5 shader check FILE.comp` calls [`check::check_file`] and prints
//! the report; it exits 0 only when [`check::CheckReport::passed`].
#![warn(missing_docs)]
pub mod check;
pub mod device;
pub mod oracle;

/// Whether a missing Vulkan device is a failure (`NATIVE5_REQUIRE_VULKAN=1`, as CI sets
/// it) rather than a reported skip.
pub fn vulkan_required() -> bool {
    std::env::var("NATIVE5_REQUIRE_VULKAN").is_ok_and(|v| v == "1")
}
