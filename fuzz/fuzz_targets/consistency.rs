//! Fuzz target `consistency`: see `nullwindow::fuzzing::consistency` for the property.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(finding) = nullwindow::fuzzing::consistency(data) {
        panic!("{finding}");
    }
});
