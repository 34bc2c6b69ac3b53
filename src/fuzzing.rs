//! The fuzz targets' decoders and checks, in the crate so that a stable `cargo test` replays every
//! committed seed and past crash (`testdata/fuzz/seeds/`, `testdata/fuzz/regressions/`), and `cargo fuzz run
//! --sanitizer none TARGET` explores from them (see `fuzz/README.md`).
//!
//! Each check takes arbitrary bytes and returns `Err` with a description when a property fails; the
//! fuzz targets panic on `Err`. None of them may panic on any input.
//!
//! | target | property |
//! |---|---|
//! | [`parsers`] | both tree formats: no panic on any bytes; what parses prints and parses back to the same tree |
//! | [`drivers`] | every exact driver returns the minimax value on a decoded tree, at a decoded depth and first guess |
//! | [`engine`] | the optimized engine with tiny tables, each switch and iterative deepening is exact; with deeper entries it meets the witness criterion |
//! | [`connect4`] | position strings never panic; legal positions keep their depth-limited values under both move generators and the engine, within the game's value bounds |
//! | [`consistency`] | every exact alpha-beta driver, with a tiny table and each switch, keeps the rules of its own search at every node it records |

use crate::driver::{GuessFrom, Kind, Perspective, SearchParams};
use crate::game::Game;
use crate::games::connect4::{Connect4, MoveGeneration};
use crate::oracle::consistency;
use crate::oracle::record::{Recorder, When};
use crate::reference::minimax;
use crate::registry::Driver;
use crate::search::{Algorithm, Engine};
use crate::theory::witness;
use crate::tree::{Tree, TreeBuilder, gtree, text};
use crate::value::{Decimals, INFINITY, MAX_LEAF, MIN_LEAF, Value};

/// What a check found wrong.
pub type Finding = String;

/// Both tree parsers, the decimal reader and the records reader on arbitrary bytes: never a
/// panic; a parsed tree prints and parses back equal; a number read with decimals is the number
/// the text says, and is written back as text that reads the same.
///
/// # Errors
/// A tree whose printed form does not parse back to it; a decimal read wrong.
pub fn parsers(data: &[u8]) -> Result<(), Finding> {
    decimal_reader(data)?;
    if let Ok(tree) = text::parse_bytes(data) {
        let printed = text::print(&tree);
        let again =
            text::parse(&printed).map_err(|e| format!("printed tree does not parse: {e}: {printed}"))?;
        if again != tree {
            return Err(format!("print then parse changed the tree: {printed}"));
        }
    }
    if let Ok(source) = std::str::from_utf8(data)
        && let Ok(tree) = gtree::parse(source)
    {
        let printed = gtree::print(&tree);
        let again =
            gtree::parse(&printed).map_err(|e| format!("printed gtree does not parse: {e}: {printed}"))?;
        if again != tree {
            return Err(format!("gtree print then parse changed the tree: {printed}"));
        }
    }
    Ok(())
}

/// [`Decimals::read`] at every digit count: what it reads is admissible, what the text means as
/// a float (to a float's precision), and shown reads back the same. The records reader with
/// decimals never panics.
fn decimal_reader(data: &[u8]) -> Result<(), Finding> {
    let Ok(text) = std::str::from_utf8(data) else { return Ok(()) };
    for digits in 0..=Decimals::MAX {
        let decimals = Decimals::new(digits).ok_or("no decimals up to the most")?;
        let Ok(value) = decimals.read(text) else { continue };
        let float: f64 =
            text.parse().map_err(|_| format!("{text:?} read with {digits} digits, not a number"))?;
        let scaled = f64::from(value) / 10f64.powi(i32::from(digits));
        if !crate::value::is_admissible(value) || (float - scaled).abs() > 1e-9 * float.abs().max(1.0) {
            return Err(format!("{text:?} read with {digits} digits as {value}"));
        }
        let shown = decimals.show(value).to_string();
        if decimals.read(&shown) != Ok(value) {
            return Err(format!("{value} with {digits} digits shown as {shown:?}, which reads otherwise"));
        }
    }
    #[cfg(feature = "serde")]
    let _ = crate::oracle::record::read_jsonl_in(text, Decimals::new(2).unwrap_or_default());
    Ok(())
}

/// Reads bytes one at a time, with zeros once they run out.
struct Bytes<'a> {
    data: &'a [u8],
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&first, rest)) => {
                self.data = rest;
                first
            }
            None => 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// A leaf value from one byte: small values (ties everywhere), the admissible edges, or a spread.
fn value(byte: u8) -> Value {
    match byte % 8 {
        0 => MIN_LEAF,
        1 => MAX_LEAF,
        2 => Value::from(byte) * 1000 - 128_000,
        _ => Value::from(byte % 7) - 3,
    }
}

/// A tree of at most 64 nodes and 8 levels decoded from bytes: each byte opens a node, closes one,
/// or adds a leaf; whatever is left open is closed.
fn decode_tree(bytes: &mut Bytes<'_>) -> Tree {
    let mut builder = TreeBuilder::new();
    // Children added to each open node so far; the root is open from the start.
    let mut open = vec![0u32];
    let mut nodes = 1;
    let _ = builder.open();
    while !bytes.is_empty() && nodes < 64 {
        let byte = bytes.next();
        match byte % 4 {
            0 if open.len() < 8 => {
                let _ = builder.open();
                if let Some(count) = open.last_mut() {
                    *count += 1;
                }
                open.push(0);
            }
            1 if open.len() > 1 && open.last().is_some_and(|&count| count > 0) => {
                let _ = builder.close();
                open.pop();
            }
            _ => {
                let _ = builder.leaf(value(byte / 4));
                if let Some(count) = open.last_mut() {
                    *count += 1;
                }
            }
        }
        nodes += 1;
    }
    while let Some(count) = open.pop() {
        if count == 0 {
            let _ = builder.leaf(0);
        }
        let _ = builder.close();
    }
    // The bookkeeping above closes exactly what it opened, so this is a tree; a single leaf else.
    builder.finish().unwrap_or_else(|_| single_leaf())
}

fn single_leaf() -> Tree {
    let mut builder = TreeBuilder::new();
    let _ = builder.leaf(0);
    builder.finish().expect("a single leaf is a tree")
}

/// A search depth from one byte: unlimited half the time, else 0 to 8.
fn depth(byte: u8) -> u32 {
    if byte < 128 { u32::MAX } else { u32::from(byte % 9) }
}

/// A first guess from one byte: none, small, or at the edges of `±INFINITY`.
fn first_guess(byte: u8) -> Option<Value> {
    match byte % 5 {
        0 => None,
        1 => Some(INFINITY),
        2 => Some(-INFINITY),
        _ => Some(Value::from(byte % 13) - 6),
    }
}

/// The search `depth` plies deep with the table size and the switches the low seven bits of
/// `switches` choose (the targets that take them give the high bit a meaning of their own).
fn switched(switches: u8, depth: u32) -> SearchParams {
    SearchParams {
        depth,
        tt_entries: [1, 2, 7, 64][usize::from(switches % 4)],
        table_move_first: switches & 4 != 0,
        killers: switches & 8 != 0,
        history: switches & 16 != 0,
        enhanced_transposition_cutoff: switches & 32 != 0,
        iterative_deepening: switches & 64 != 0,
        ..SearchParams::default()
    }
}

/// Every exact driver on a decoded tree equals minimax.
///
/// # Errors
/// The first driver that returns another value.
pub fn drivers(data: &[u8]) -> Result<(), Finding> {
    let mut bytes = Bytes { data };
    let depth = depth(bytes.next());
    let first_guess = first_guess(bytes.next());
    let tree = decode_tree(&mut bytes);
    let exact = minimax::search(&tree, &tree.root(), depth).value;
    let params = SearchParams {
        depth,
        first_guess,
        tt_entries: 8,
        iterative_deepening: depth % 2 == 1,
        ..SearchParams::default()
    };
    for &driver in Driver::ALL.iter().filter(|driver| driver.info().exact) {
        let value = driver.run(&tree, &params).value;
        if value != exact {
            return Err(format!(
                "{} returned {value}, minimax {exact}, at depth {depth} from guess {first_guess:?} on {tree}",
                driver.info().name
            ));
        }
    }
    Ok(())
}

/// The optimized engine with a decoded configuration (table of 1 to 64 entries, each switch,
/// iterative deepening, the shallowest nodes that use the table) equals minimax, and its principal
/// variation reaches the value; the same configuration with deeper entries meets the witness
/// criterion.
///
/// # Errors
/// A wrong value or principal variation, or a deeper-entries result no extension of the tree has.
pub fn engine(data: &[u8]) -> Result<(), Finding> {
    let mut bytes = Bytes { data };
    let switches = bytes.next();
    let algorithm = Algorithm::ALL[usize::from(bytes.next()) % Algorithm::ALL.len()];
    let depth = depth(bytes.next());
    let params = SearchParams {
        guess_from: if switches & 128 != 0 {
            GuessFrom::TwoIterationsBack
        } else {
            GuessFrom::PreviousIteration
        },
        first_guess: first_guess(bytes.next()),
        aspiration_delta: Value::from(bytes.next() % 20) + 1,
        ..switched(switches, depth)
    };
    let tree = decode_tree(&mut bytes);
    // Read after the tree, so that inputs found before it existed keep their meaning (0, with no
    // byte left: every interior node uses the table).
    let params = SearchParams { table_min_depth: u32::from(bytes.next() % 4), ..params };
    let exact = minimax::search(&tree, &tree.root(), depth).value;
    let result = Engine::new(&params).search(&tree, algorithm, &params, |_| {});
    if result.value != exact {
        return Err(format!(
            "{algorithm} returned {}, minimax {exact}, at depth {depth} on {tree}",
            result.value
        ));
    }
    let mut position = tree.root();
    for &mv in &result.principal_variation {
        if !tree.moves(&position).any(|legal| legal == mv) {
            return Err(format!("{algorithm}: illegal move {mv} in the principal variation on {tree}"));
        }
        position = tree.play(&position, mv);
    }
    if tree.evaluate(&position) != result.value {
        return Err(format!("{algorithm}: the principal variation does not reach the value on {tree}"));
    }
    deeper_entries_meet_the_witness_criterion(
        &tree,
        algorithm,
        SearchParams { deeper_entries: true, ..params },
        depth,
    )
}

/// The same engine with deeper entries, searching the whole tree and then `depth` plies deep (so
/// that the second search meets the first one's deeper entries): each result is the value of some
/// all-or-none extension of its depth's tree.
fn deeper_entries_meet_the_witness_criterion(
    tree: &Tree,
    algorithm: Algorithm,
    params: SearchParams,
    depth: u32,
) -> Result<(), Finding> {
    let mut engine = Engine::new(&params);
    let root = tree.root();
    let mover = tree.to_move(&root);
    for depth in [u32::MAX, depth] {
        let value = mover.perspective(
            engine.search(tree, algorithm, &SearchParams { depth, ..params.clone() }, |_| {}).value,
        );
        if !witness::is_witness_result(tree, &root, depth, -INFINITY, INFINITY, value) {
            return Err(format!(
                "{algorithm} with deeper entries returned {value} (side to move) at depth {depth}, \
                 extensions give {:?}, on {tree}",
                witness::extension_values(tree, &root, depth)
            ));
        }
    }
    Ok(())
}

/// Every exact alpha-beta driver (not the reference searches, not Stockman's best-first SSS* and
/// DUAL*) with a decoded table size, switches, iterative deepening and deeper entries, on a decoded
/// tree, keeps the rules of its own search ([`crate::oracle::consistency`]) at every node it
/// records: judged with the tree's moves, and from the records' paths alone.
///
/// # Errors
/// The first broken rule, in words, with the driver, the depth and the tree.
pub fn consistency(data: &[u8]) -> Result<(), Finding> {
    let mut bytes = Bytes { data };
    let switches = bytes.next();
    let pick = bytes.next();
    let depth = depth(bytes.next());
    let params = SearchParams {
        deeper_entries: switches & 128 != 0,
        first_guess: first_guess(bytes.next()),
        ..switched(switches, depth)
    };
    let tree = decode_tree(&mut bytes);
    let drivers: Vec<Driver> = Driver::ALL
        .iter()
        .copied()
        .filter(|driver| {
            let info = driver.info();
            info.exact && info.kind != Kind::Reference && !info.name.starts_with("stockman-")
        })
        .collect();
    let driver = drivers[usize::from(pick) % drivers.len()];
    let mut recorder = Recorder::new(&tree);
    let _ = driver.run_observed(&tree, &params, &mut recorder);
    let records = recorder.records(When::Completion);
    let broken =
        consistency::check(&tree, &records, Perspective::Max).map(|broken| ("", broken)).or_else(|| {
            consistency::check_records(&records, Perspective::Max).map(|broken| (" (records alone)", broken))
        });
    match broken {
        None => Ok(()),
        Some((how, broken)) => Err(format!(
            "{}{how}: {} at depth {depth} with {params:?} on {tree}",
            driver.info().name,
            broken.describe(&records, crate::oracle::audit::Citation::Number)
        )),
    }
}

/// Connect Four position strings: never a panic; a legal position keeps its value at depths 0 to 4
/// under both move generators and the engine's MTD(f) and MTD-Pons with a tiny table, and the game's
/// value bounds hold at every depth the engine asks them (1 and deeper).
///
/// # Errors
/// A value that differs, or a bound it breaks.
pub fn connect4(data: &[u8]) -> Result<(), Finding> {
    let moves = String::from_utf8_lossy(data);
    let Ok(game) = Connect4::from_moves(&moves) else { return Ok(()) };
    let centre = game.with_generation(MoveGeneration::CentreFirst);
    let root = game.root();
    for depth in 0..=4 {
        let exact = minimax::search(&centre, &centre.root(), depth).value;
        let threats = minimax::search(&game, &root, depth).value;
        if threats != exact {
            return Err(format!("'{moves}' at depth {depth}: centre first {exact}, threats {threats}"));
        }
        for algorithm in [Algorithm::Mtdf, Algorithm::MtdPons] {
            let params =
                SearchParams { depth, tt_entries: 16, iterative_deepening: true, ..SearchParams::default() };
            let engine = Engine::new(&params).search(&game, algorithm, &params, |_| {});
            if engine.value != exact {
                return Err(format!(
                    "'{moves}' at depth {depth}: exact {exact}, {algorithm} {}",
                    engine.value
                ));
            }
        }
        let for_mover = game.to_move(&root).perspective(exact);
        if let Some((lower, upper)) = game.value_bounds(&root, depth).filter(|_| depth >= 1)
            && !(lower <= for_mover && for_mover <= upper)
        {
            return Err(format!(
                "'{moves}' at depth {depth}: {for_mover} outside the bounds ({lower}, {upper})"
            ));
        }
    }
    Ok(())
}
