//! Every line of the shared NID catalogue must match our NID function.

use sce::{nid_of, NidCatalogue};

#[test]
fn every_aerolib_line_matches() {
    let Some(path) = testkit::shared_file("every_aerolib_line_matches", "nid/aerolib.csv") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (nid, name) = line.split_once(' ').expect("`NID name` line");
        if nid_of(name) != nid {
            wrong.push(line.to_string());
        }
        checked += 1;
    }
    assert_eq!(checked, 51_102, "line count of aerolib.csv");
    assert!(
        wrong.is_empty(),
        "{} mismatches, first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );

    let cat = NidCatalogue::load(&path).unwrap();
    assert_eq!(cat.name("hcuQgD53UxM"), Some("printf"));
    assert_eq!(cat.name("1jfXLRVzisc"), Some("sceKernelUsleep"));
}

#[test]
fn catalogue_rejects_bad_lines_with_their_number() {
    let e = NidCatalogue::parse("hcuQgD53UxM printf\nnonsense\n").unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
}
