//! Fuzzes the SELF/ELF reader: any bytes must parse or give an error, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(img) = sce::Image::parse(data) {
        // Touch the derived views too, as inspect does.
        let _ = img.type_name();
        for i in &img.imports {
            let _ = (&i.nid, &i.library);
        }
    }
});
