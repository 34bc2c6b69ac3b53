//! Fuzz target `drivers`: see `nullwindow::fuzzing::drivers` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(finding) = nullwindow::fuzzing::drivers(data) {
        panic!("{finding}");
    }
});
