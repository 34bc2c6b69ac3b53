//! Fuzz target `connect4`: see `nullwindow::fuzzing::connect4` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(finding) = nullwindow::fuzzing::connect4(data) {
        panic!("{finding}");
    }
});
