//! Fuzz target `parsers`: see `nullwindow::fuzzing::parsers` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(finding) = nullwindow::fuzzing::parsers(data) {
        panic!("{finding}");
    }
});
