//! Every committed fuzz seed and past crash, replayed through the fuzz targets' checks on stable Rust.

use std::path::Path;

#[test]
fn every_seed_and_regression_passes() {
    type Check = fn(&[u8]) -> Result<(), String>;
    let targets: [(&str, Check); 5] = [
        ("parsers", nullwindow::fuzzing::parsers),
        ("drivers", nullwindow::fuzzing::drivers),
        ("engine", nullwindow::fuzzing::engine),
        ("connect4", nullwindow::fuzzing::connect4),
        ("consistency", nullwindow::fuzzing::consistency),
    ];
    // In testdata/, not fuzz/: cargo packages nothing under a folder that holds a package of its
    // own, and the published crate's tests replay these too.
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz");
    for (target, check) in targets {
        let mut replayed = 0;
        for folder in ["seeds", "regressions"] {
            let Ok(entries) = std::fs::read_dir(fuzz.join(folder).join(target)) else { continue };
            for entry in entries {
                let path = entry.unwrap().path();
                // `.gitkeep` holds an empty folder in git; it is not an input.
                if path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('.')) {
                    continue;
                }
                let data = std::fs::read(&path).unwrap();
                if let Err(finding) = check(&data) {
                    panic!("{}: {finding}", path.display());
                }
                replayed += 1;
            }
        }
        assert!(replayed >= 2, "{target}: only {replayed} inputs");
    }
}

#[test]
fn the_checks_survive_random_bytes() {
    // A stand-in for the fuzzer in `cargo test`: many short random inputs through every check.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..300 {
        let len = (state % 48) as usize;
        let data: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        for check in [
            nullwindow::fuzzing::parsers,
            nullwindow::fuzzing::drivers,
            nullwindow::fuzzing::engine,
            nullwindow::fuzzing::consistency,
        ] {
            check(&data).unwrap();
        }
    }
}
