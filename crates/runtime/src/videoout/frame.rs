//! Guest framebuffers to host pixels: pixel formats, tiling, and PNG frame dumps.

/// `SCE_VIDEO_OUT_PIXEL_FORMAT_A8R8G8B8_SRGB`.
pub const A8R8G8B8_SRGB: u32 = 0x8000_0000;
/// `SCE_VIDEO_OUT_PIXEL_FORMAT_A8B8G8R8_SRGB`.
pub const A8B8G8R8_SRGB: u32 = 0x8000_2200;
/// `SCE_VIDEO_OUT_PIXEL_FORMAT_A2R10G10B10`.
pub const A2R10G10B10: u32 = 0x8806_0000;
/// `SCE_VIDEO_OUT_PIXEL_FORMAT_A2R10G10B10_SRGB`.
pub const A2R10G10B10_SRGB: u32 = 0x8800_0000;
/// `SCE_VIDEO_OUT_TILING_MODE_TILE`: the GFX swizzled layout.
pub const TILING_TILE: u32 = 0;
/// `SCE_VIDEO_OUT_TILING_MODE_LINEAR`.
pub const TILING_LINEAR: u32 = 1;

/// Bytes per pixel of a supported format, `None` for the others.
pub fn bytes_per_pixel(format: u32) -> Option<usize> {
    match format {
        A8R8G8B8_SRGB | A8B8G8R8_SRGB | A2R10G10B10 | A2R10G10B10_SRGB => Some(4),
        _ => None,
    }
}

/// Converts one linear guest frame to opaque 8-bit RGB (alpha is ignored, as the display
/// ignores it).
pub fn to_rgb(src: &[u8], format: u32, width: usize, height: usize, pitch: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(width * height * 3);
    for y in 0..height {
        let row = &src[y * pitch * 4..y * pitch * 4 + width * 4];
        for px in row.chunks_exact(4) {
            let v = u32::from_le_bytes([px[0], px[1], px[2], px[3]]);
            let rgb = match format {
                A8B8G8R8_SRGB => [px[0], px[1], px[2]],
                A2R10G10B10 | A2R10G10B10_SRGB => {
                    let ten = |shift: u32| (((v >> shift) & 0x3ff) >> 2) as u8;
                    [ten(20), ten(10), ten(0)]
                }
                _ => [px[2], px[1], px[0]],
            };
            out.extend_from_slice(&rgb);
        }
    }
    out
}

/// Writes an RGB frame as a PNG file (temporary name, then rename).
pub fn write_png(
    path: &std::path::Path,
    rgb: &[u8],
    width: u32,
    height: u32,
) -> std::io::Result<()> {
    let tmp = path.with_extension("png.tmp");
    {
        let file = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        let mut enc = png::Encoder::new(file, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header().map_err(std::io::Error::other)?;
        w.write_image_data(rgb).map_err(std::io::Error::other)?;
    }
    std::fs::rename(&tmp, path)
}
