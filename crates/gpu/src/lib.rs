//! The Vulkan backend, first part: device selection and compute dispatch ([`device`]),
//! plus the shader oracle ([`oracle`]) and the `shader check` chain ([`check`]).
pub mod device;
