//! The numbers the command line accepts, parsed with errors that say what is wrong: a negative
//! depth, a table larger than the crate allows (with the memory it would need), a count of trees no
//! run could finish. A size that cannot be honoured is refused before anything is allocated.

use nullwindow::search::table::{MAX_ENTRIES, TranspositionTable};
use nullwindow::tree::text::excerpt;

/// The most synthetic trees `compare` runs: each driver searches every one, so more would not
/// finish, and their list alone would not fit in memory long before `u64::MAX`.
pub const MAX_SEEDS: u64 = 1_000_000;

/// A depth in plies: a whole number, 0 or more.
pub fn depth(text: &str) -> Result<u32, String> {
    match whole_number(text)? {
        number if number < 0 => Err(format!("'{text}' is negative: a depth is a number of plies, 0 or more")),
        number => u32::try_from(number)
            .map_err(|_| format!("'{text}' is too deep: a depth is at most {}", u32::MAX)),
    }
}

/// A depth in plies, or `end`: the end of the game
/// ([`TO_THE_END`](nullwindow::oracle::proof::TO_THE_END)).
/// A number of plies past the searches' height is refused here, so that none is read as `end`.
pub fn depth_or_end(text: &str) -> Result<u32, String> {
    if text.trim() == "end" {
        return Ok(nullwindow::oracle::proof::TO_THE_END);
    }
    let plies = depth(text).map_err(|e| format!("{e} (or 'end', the end of the game)"))?;
    if plies > nullwindow::tree::MAX_SEARCH_HEIGHT {
        return Err(format!(
            "the searches recurse once per ply and search at most {} plies (or 'end', the end of the game)",
            nullwindow::tree::MAX_SEARCH_HEIGHT
        ));
    }
    Ok(plies)
}

/// Refuses a `--depth` (or `--height`, named by `flag`) deeper than the searches go, before anything
/// is unfolded or asked: the depth asked is the depth searched, never a smaller one.
pub fn within_search_height(flag: &str, depth: u32) -> Result<(), crate::CliError> {
    if depth > nullwindow::tree::MAX_SEARCH_HEIGHT {
        return Err(crate::CliError(format!(
            "{flag} {depth}: the searches recurse once per ply and search at most {} plies",
            nullwindow::tree::MAX_SEARCH_HEIGHT
        )));
    }
    Ok(())
}

/// Transposition-table entries: at most [`MAX_ENTRIES`], refused with the memory a larger table
/// would need.
pub fn tt_entries(text: &str) -> Result<usize, String> {
    let number = whole_number(text)?;
    let entries = usize::try_from(number)
        .map_err(|_| if number < 0 { format!("'{text}' is negative") } else { too_large(text, None) })?;
    if entries > MAX_ENTRIES {
        return Err(too_large(text, TranspositionTable::bytes_for(entries)));
    }
    // Asked of the allocator before the search makes the table, so that a machine short of memory
    // (or a process under a memory limit) gets this error, not an abort in the middle of a search.
    let bytes = TranspositionTable::bytes_for(entries).unwrap_or(usize::MAX);
    if Vec::<u8>::new().try_reserve_exact(bytes).is_err() {
        return Err(format!(
            "a table of {text} entries needs {} of memory, which cannot be allocated now: give fewer entries",
            in_units(bytes as u128)
        ));
    }
    Ok(entries)
}

fn too_large(text: &str, bytes: Option<usize>) -> String {
    let needs = bytes.map_or_else(
        || "more memory than this platform can address".to_owned(),
        |bytes| format!("{} of memory", in_units(bytes as u128)),
    );
    let allowed = TranspositionTable::bytes_for(MAX_ENTRIES).map_or(0, |bytes| bytes as u128);
    format!(
        "a table of {text} entries would need {needs}; at most {MAX_ENTRIES} entries ({}) are allowed",
        in_units(allowed)
    )
}

/// How many trees `compare` runs: 1 to [`MAX_SEEDS`].
pub fn seeds(text: &str) -> Result<u64, String> {
    match whole_number(text)? {
        number if number < 1 => Err(format!("'{text}': compare needs at least one tree")),
        number => u64::try_from(number)
            .ok()
            .filter(|&seeds| seeds <= MAX_SEEDS)
            .ok_or_else(|| format!("'{text}' trees would never finish: at most {MAX_SEEDS}")),
    }
}

/// A whole number of any size the command line could mean, so that a number out of range is told
/// apart from a word that is no number.
fn whole_number(text: &str) -> Result<i128, String> {
    text.trim().parse::<i128>().map_err(|_| format!("'{}' is not a whole number", excerpt(text)))
}

/// `bytes` in the largest binary unit that keeps a whole number in front.
fn in_units(bytes: u128) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024 && unit + 1 < units.len() {
        value /= 1024;
        unit += 1;
    }
    format!("{value} {}", units[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_refused_with_a_reason() {
        assert_eq!(depth("7"), Ok(7));
        assert!(depth("-1").unwrap_err().contains("negative"));
        assert!(depth("x").unwrap_err().contains("not a whole number"));
        assert_eq!(tt_entries("0"), Ok(0));
        assert_eq!(tt_entries(&MAX_ENTRIES.to_string()), Ok(MAX_ENTRIES));
        let error = tt_entries("4294967296").unwrap_err();
        assert!(error.contains("64 GiB") && error.contains("at most 268435456 entries (4 GiB)"), "{error}");
        assert!(tt_entries("18446744073709551615").unwrap_err().contains("would need"));
        assert!(tt_entries("99999999999999999999999").unwrap_err().contains("would need"));
        assert_eq!(seeds("20"), Ok(20));
        assert!(seeds("0").is_err() && seeds("99999999999").is_err());
        assert_eq!(excerpt(&"x".repeat(100)).chars().count(), 41);
        assert_eq!(in_units(3 << 30), "3 GiB");
    }
}
