//! Runs a convention-annotated GLSL compute shader's reference SPIR-V on lavapipe and
//! prints its buffers as dwords: `cargo run -p gpu --example run-glsl FILE.comp`.
fn main() -> anyhow::Result<()> {
    let path = std::path::PathBuf::from(std::env::args().nth(1).expect("FILE.comp"));
    let spec = gpu::check::parse_spec(&std::fs::read_to_string(&path)?)?;
    let spirv = gpu::oracle::glslang(&path)?;
    let dev = gpu::device::Device::open(None)?;
    println!("{:?}", dev.info());
    let (p, _) = dev.compute_pipeline(&spirv, spec.buffers.len() as u32, spec.push.len() as u32)?;
    let mut bufs: Vec<Vec<u8>> = spec.buffers.iter().map(gpu::check::generate).collect();
    dev.dispatch(&p, &mut bufs, &spec.push, spec.groups)?;
    for (k, b) in bufs.iter().enumerate() {
        let w: Vec<u32> = b
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        println!("buffer {k}: {w:?}");
    }
    Ok(())
}
