//! Fuzz target `engine`: see `nullwindow::fuzzing::engine` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(finding) = nullwindow::fuzzing::engine(data) {
        panic!("{finding}");
    }
});
