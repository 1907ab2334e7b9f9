//! VideoOut on real titles: the OpenOrbis graphics sample draws its Mandelbrot, and
//! `native5 run --headless --dump-frames` writes the first presented frame as a PNG.

mod common;

use common::{relink, run_with};
use std::path::Path;
use std::time::Duration;

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(
        info.color_type,
        png::ColorType::Rgb,
        "frames are opaque RGB"
    );
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// The sample's published algorithm, computed here independently: 1920×1080 over
/// [-2.5, 1.5] × [-2, 2], at most 255 iterations, blue = 255·i/20 for i < 20.
fn mandelbrot_blue(ix: usize, iy: usize) -> u8 {
    let (w, h) = (1920.0, 1080.0);
    let (cx_min, cx_max, cy_min, cy_max) = (-2.5f64, 1.5f64, -2.0f64, 2.0f64);
    let pw = (cx_max - cx_min) / w;
    let ph = (cy_max - cy_min) / h;
    let mut cy = cy_min + iy as f64 * ph;
    if cy.abs() < ph / 2.0 {
        cy = 0.0;
    }
    let cx = cx_min + ix as f64 * pw;
    let (mut zx, mut zy, mut zx2, mut zy2) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut i = 0;
    while i < 255 && zx2 + zy2 < 4.0 {
        zy = 2.0 * zx * zy + cy;
        zx = zx2 - zy2 + cx;
        zx2 = zx * zx;
        zy2 = zy * zy;
        i += 1;
    }
    if i < 20 {
        (255 * i / 20) as u8
    } else {
        0
    }
}

#[test]
fn graphics_sample_presents_the_mandelbrot() {
    let Some(input) =
        testkit::shared_file("graphics_sample", "titles/openorbis/graphics/eboot.bin")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    relink(&input, &out);
    let frames = dir.path().join("frames");
    let dump = frames.to_str().unwrap();
    let args = ["--headless", "--frames", "1", "--dump-frames", dump];
    let (code, _, stderr) = run_with(&out, &args, Duration::from_secs(60));
    assert_eq!(code, Some(0), "{stderr}");
    let (w, h, rgb) = read_png(&frames.join("frame-00001.png"));
    assert_eq!((w, h), (1920, 1080));
    let mut wrong = 0;
    for y in 0..h as usize {
        for x in 0..w as usize {
            let p = &rgb[(y * w as usize + x) * 3..][..3];
            if p != [0, 0, mandelbrot_blue(x, y)] {
                wrong += 1;
            }
        }
    }
    assert_eq!(
        wrong, 0,
        "{wrong} pixels differ from the computed Mandelbrot"
    );
    assert!(
        !frames.join("frame-00002.png").exists(),
        "exits after --frames 1"
    );
}
