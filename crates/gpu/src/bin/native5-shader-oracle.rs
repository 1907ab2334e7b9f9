//! The shader oracle tool; see `gpu::oracle` and `gpu::check`.
fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("radv-dump") if args.len() == 4 => {
            let bytes = std::fs::read(&args[1])?;
            let words: Vec<u32> = bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let dev = gpu::device::Device::open(Some("radv"))?;
            let _p = dev.compute_pipeline(&words, args[2].parse()?, args[3].parse()?)?;
            Ok(())
        }
        _ => anyhow::bail!("usage: native5-shader-oracle radv-dump FILE.spv BUFFERS PUSH_BYTES"),
    }
}
