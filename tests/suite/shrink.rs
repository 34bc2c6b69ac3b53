//! The shrinker: in-process predicates on random trees and graphs, and `nullwindow shrink` with a
//! real external command.

use nullwindow::game::{Game, Player};
use nullwindow::reference::minimax;
use nullwindow::tree::shrink::{shrink, single_steps, try_shrink};
use nullwindow::tree::{NodeId, Tree, gtree};
use proptest::prelude::*;

use crate::strategies::{game_graphs, shapes};

/// A deliberately broken search: a MAX node stops at the first child worth 10 or more, a cut-off
/// against a constant where alpha-beta compares with beta.
fn broken_value(tree: &Tree, node: NodeId) -> i32 {
    if tree.is_leaf(node) {
        return tree.evaluation(node);
    }
    let values = tree.children(node).iter().map(|&child| broken_value(tree, child));
    match tree.player(node) {
        Player::Max => {
            let mut best = i32::MIN;
            for value in values {
                best = best.max(value);
                if best >= 10 {
                    break;
                }
            }
            best
        }
        Player::Min => values.min().unwrap_or(0),
    }
}

fn broken_search_is_wrong(tree: &Tree) -> bool {
    broken_value(tree, tree.root()) != minimax::search(tree, &tree.root(), u32::MAX).value
}

fn has_a_leaf_of_50(tree: &Tree) -> bool {
    tree.post_order().into_iter().any(|node| tree.is_leaf(node) && tree.evaluation(node) >= 50)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_leaf_of_50_shrinks_to_that_leaf_alone(shape in shapes(5, 5, -99..=99)) {
        let tree = shape.to_tree();
        prop_assume!(has_a_leaf_of_50(&tree));
        prop_assert_eq!(shrink(&tree, has_a_leaf_of_50).to_string(), "50");
    }

    /// The broken search shrinks to three nodes: a MAX root over a child worth 10 and a better one.
    #[test]
    fn a_wrong_cutoff_shrinks_to_the_smallest_tree_that_shows_it(shape in shapes(5, 5, -30..=30)) {
        let tree = shape.to_tree();
        prop_assume!(broken_search_is_wrong(&tree));
        let smallest = shrink(&tree, broken_search_is_wrong);
        prop_assert!(broken_search_is_wrong(&smallest));
        prop_assert_eq!(smallest.to_string(), "(10 11)");
        prop_assert_eq!(&shrink(&smallest, broken_search_is_wrong), &smallest, "idempotent");
    }

    /// On graphs: a test that needs a transposition and a value keeps both; the result still fails,
    /// shrinking it again changes nothing, and the same input gives the same result.
    #[test]
    fn graphs_shrink_deterministically_to_a_fixpoint(graph in game_graphs(), depth in 1u32..=4) {
        let fails = |tree: &Tree| tree.has_shared_nodes() && minimax::search(tree, &tree.root(), depth).value > 0;
        prop_assume!(fails(&graph));
        let mut tests = 0u64;
        let mut sizes = vec![graph.node_count()];
        let shrunk = try_shrink(&graph, u64::MAX, |tree| Ok::<_, ()>(fails(tree)), |progress| {
            tests = progress.tests;
            sizes.push(progress.nodes);
        })
        .unwrap();
        prop_assert!(shrunk.complete && shrunk.tests == tests && shrunk.kept <= shrunk.tests);
        prop_assert!(fails(&shrunk.tree));
        // Never larger, as the file counts it: the smallest failing graph so far has never more
        // nodes (lines of its gtree file) than the one before.
        prop_assert!(sizes.windows(2).all(|pair| pair[1] <= pair[0]), "{sizes:?}");
        prop_assert_eq!(gtree::print(&shrunk.tree).lines().count(), *sizes.last().unwrap());
        prop_assert_eq!(&shrink(&shrunk.tree, fails), &shrunk.tree, "idempotent");
        prop_assert_eq!(&shrink(&graph, fails), &shrunk.tree, "deterministic");
        prop_assert_eq!(&gtree::parse(&gtree::print(&shrunk.tree)).unwrap(), &shrunk.tree);
    }

    /// 1-minimal, as the module documentation states: no single step of the repertoire still
    /// fails on a result, on trees (a planted bug) and on graphs (a transposition and a value).
    #[test]
    fn no_single_step_still_fails_on_a_result(
        shape in shapes(5, 5, -30..=30),
        graph in game_graphs(),
        depth in 1u32..=4,
    ) {
        let tree = shape.to_tree();
        if broken_search_is_wrong(&tree) {
            let shrunk = shrink(&tree, broken_search_is_wrong);
            for step in single_steps(&shrunk) {
                prop_assert!(!broken_search_is_wrong(&step), "{shrunk} -> {step}");
            }
        }
        let fails = |tree: &Tree| tree.has_shared_nodes() && minimax::search(tree, &tree.root(), depth).value > 0;
        if fails(&graph) {
            let shrunk = shrink(&graph, fails);
            for step in single_steps(&shrunk) {
                prop_assert!(!fails(&step), "{} -> {}", gtree::print(&shrunk), gtree::print(&step));
            }
        }
    }
}

/// Two leaves that must stay at the same depth below a chain each: shortening one chain alone loses
/// the bug, shortening both at once keeps it, so the shrink ends at 8 nodes, not 12.
#[test]
fn parallel_chains_shrink_together() {
    let tree: Tree = "(((((1)))) ((((1))) 0))".parse().unwrap();
    let leaf_depths = |tree: &Tree| {
        let mut depths = Vec::new();
        let mut stack = vec![(tree.root_id(), 0u32)];
        while let Some((node, depth)) = stack.pop() {
            if tree.is_leaf(node) && tree.evaluation(node) == 1 {
                depths.push(depth);
            }
            stack.extend(tree.children(node).iter().map(|&child| (child, depth + 1)));
        }
        depths
    };
    // Fails while two leaves worth 1 lie at the same depth, 3 or more, and a leaf 0 beside them.
    let fails = |tree: &Tree| {
        let depths = leaf_depths(tree);
        depths.len() == 2 && depths[0] == depths[1] && depths[0] >= 3 && tree.to_string().contains(" 0")
    };
    assert!(fails(&tree));
    let shrunk = shrink(&tree, fails);
    assert_eq!(shrunk.to_string(), "(((1)) ((1) 0))");
    assert!(single_steps(&shrunk).iter().all(|step| !fails(step)));
}

#[cfg(feature = "cli")]
mod command_line {
    use std::process::{Command, Output, Stdio};

    fn nullwindow(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// A file in the system's temporary directory with this test's own name, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str, contents: &[u8]) -> Self {
            let path = std::env::temp_dir().join(format!("nullwindow-{}-{name}", std::process::id()));
            std::fs::write(&path, contents).unwrap();
            Self(path)
        }

        fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// "Fails while the minimax value is above 5", with the `nullwindow` of this build.
    fn value_above_five(extra: &str) -> String {
        format!(
            "test \"$('{}' solve {{}} --algo minimax --json {extra} | sed -n 's/^  \"value\": \\(.*\\),$/\\1/p')\" -le 5",
            env!("CARGO_BIN_EXE_nullwindow")
        )
    }

    #[test]
    fn shrink_runs_a_real_command_down_to_a_small_tree() {
        let big =
            nullwindow(&["gen", "--seed", "5", "--width", "2..4", "--depth", "3..5", "--values=-20..20"]);
        let input = Scratch::new("shrink-input.tree", &big.stdout);
        let command = value_above_five("");
        let output = nullwindow(&["shrink", input.path(), "--command", &command]);
        assert!(output.status.success(), "{output:?}");
        let smallest: nullwindow::tree::Tree =
            String::from_utf8(output.stdout).unwrap().trim().parse().unwrap();
        assert!(smallest.stats().nodes <= 5, "{smallest}");
        let value = nullwindow::reference::minimax::search(&smallest, &smallest.root_id(), u32::MAX).value;
        assert_eq!(value, 6, "still above 5, and moved toward 0 as far as it goes: {smallest}");
        let note = String::from_utf8(output.stderr).unwrap();
        assert!(
            note.starts_with("note: ")
                && note.contains(" runs of the command, ")
                && note.ends_with("down to 1 node\n"),
            "{note}"
        );
    }

    #[test]
    fn shrink_keeps_a_gtree_input_in_gtree() {
        let graph = nullwindow(&["gen", "--graph", "--seed", "2", "--levels", "5", "--values=-20..20"]);
        let input = Scratch::new("shrink-input.gtree", &graph.stdout);
        let command = value_above_five("--depth 3");
        let tested = Command::new("sh").args(["-c", &command.replace("{}", input.path())]).status().unwrap();
        assert_eq!(tested.code(), Some(1), "the seed's graph is worth more than 5 at depth 3");
        let output = nullwindow(&["shrink", input.path(), "--command", &command, "--max-runs", "500"]);
        assert!(output.status.success(), "{output:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        let smallest = nullwindow::tree::gtree::parse(&text).unwrap();
        assert!(smallest.stats().nodes < 5, "{text}");
        // solve --json reads values from the side to move; the root may now be MIN.
        let value = nullwindow::reference::minimax::search(&smallest, &smallest.root_id(), 3).value;
        assert_eq!(smallest.player(smallest.root_id()).perspective(value), 6, "{text}");
    }

    /// A candidate on which the command hangs is stopped at the timeout, with the processes it
    /// started, and counts as a pass.
    #[test]
    fn a_run_that_hangs_is_stopped_and_counts_as_a_pass() {
        let input = Scratch::new("shrink-hang.tree", b"((3 17) (2 12) (15 (25 0)))");
        // Fails at once while a leaf 17 is left; hangs (in a process of its own) once it is gone.
        let command = "if grep -qw 17 {}; then exit 1; else sleep 60; fi";
        let start = std::time::Instant::now();
        let output = nullwindow(&["shrink", input.path(), "--command", command, "--timeout", "0.3"]);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(String::from_utf8(output.stdout).unwrap(), "17\n");
        let note = String::from_utf8(output.stderr).unwrap();
        assert!(note.contains("stopped after 0.3 s, counted as passes"), "{note}");
        assert!(start.elapsed().as_secs() < 30, "the sleeping runs were not stopped");
    }

    /// A command that fails only some of the time is refused before shrinking: its verdicts would
    /// make the result depend on chance. (This one fails on every other run.)
    #[test]
    fn a_flaky_command_is_refused() {
        let input = Scratch::new("shrink-flaky.tree", b"((3 17) (2 12))");
        let counter = Scratch::new("shrink-flaky.count", b"0");
        let command =
            format!("n=$(cat '{0}'); echo $((n + 1)) > '{0}'; : {{}}; test $((n % 2)) -eq 1", counter.path());
        let output = nullwindow(&["shrink", input.path(), "--command", &command]);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            "error: the command failed on the input in 2 of 3 runs: a command that does not fail every \
             time cannot be shrunk reproducibly\n"
        );
    }

    /// A command that writes without end to its standard error costs no memory: only its start is
    /// kept. (100 MB here.)
    #[test]
    fn a_command_that_floods_its_standard_error_is_read_in_bounded_memory() {
        let input = Scratch::new("shrink-flood.tree", b"(1 (2 3))");
        let command = "head -c 100000000 /dev/zero >&2; ! grep -qw 3 {}";
        let output = nullwindow(&["shrink", input.path(), "--command", command]);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(String::from_utf8(output.stdout).unwrap(), "3\n");
    }

    /// Interrupted, `shrink` stops its command and removes its temporary directory.
    #[cfg(unix)]
    #[test]
    fn an_interrupted_shrink_leaves_nothing_behind() {
        let input = Scratch::new("shrink-interrupt.tree", b"((3 17) (2 12) (15 (25 0)))");
        let child = Command::new(env!("CARGO_BIN_EXE_nullwindow"))
            .args(["shrink", input.path(), "--command", "sleep 0.2; ! true {}"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let directory =
            |attempt: u32| std::env::temp_dir().join(format!("nullwindow-shrink-{pid}-{attempt}"));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !directory(0).exists() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(directory(0).exists(), "shrink made no directory");
        std::thread::sleep(std::time::Duration::from_millis(300));
        let killed = Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap();
        assert!(killed.success());
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(130), "{output:?}");
        assert!(!directory(0).exists(), "the temporary directory is left behind");
    }

    /// Only the failing statuses keep a candidate: one on which the command breaks (exit 2 here, on
    /// any tree without a leaf 17) is dropped and counted; `--failing-status any` keeps it.
    #[test]
    fn a_candidate_on_which_the_command_breaks_is_not_kept() {
        let input = Scratch::new("shrink-broke.tree", b"((3 17) (2 12) (15 (25 0)))");
        let command = "grep -qw 17 {} || exit 2; grep -qw 12 {} && exit 1; exit 0";
        let output = nullwindow(&["shrink", input.path(), "--command", command]);
        assert!(output.status.success(), "{output:?}");
        let smallest: nullwindow::tree::Tree =
            String::from_utf8(output.stdout).unwrap().trim().parse().unwrap();
        let text = smallest.to_string();
        assert!(text.contains("17") && text.contains("12"), "{text}");
        let note = String::from_utf8(output.stderr).unwrap();
        assert!(note.contains(" broke (another exit status, or a signal), counted as passes"), "{note}");
        let any = nullwindow(&["shrink", input.path(), "--command", command, "--failing-status", "any"]);
        assert_eq!(
            String::from_utf8(any.stdout).unwrap(),
            "0\n",
            "exit 2 fails too: the smallest tree is a leaf"
        );
    }

    /// With `{depth}`, the depth shrinks too: the command fails while the depth-limited value of the
    /// tree is above 5, which a lone leaf of 6 is at depth 0.
    #[test]
    fn the_depth_shrinks_with_the_tree() {
        let input = Scratch::new("shrink-depth.tree", b"((3 17) (2 12) (15 (25 0)))");
        let command = format!(
            "test \"$('{}' solve {{}} --algo minimax --json --depth {{depth}} | sed -n 's/^  \"value\": \\(.*\\),$/\\1/p')\" -le 5",
            env!("CARGO_BIN_EXE_nullwindow")
        );
        let output = nullwindow(&["shrink", input.path(), "--depth", "3", "--command", &command]);
        assert!(output.status.success(), "{output:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with("depth: 0\nnote: "), "{stderr}");
        assert_eq!(String::from_utf8(output.stdout).unwrap(), "6\n");
    }

    #[test]
    fn shrink_refuses_what_it_cannot_shrink() {
        let error = |args: &[&str]| {
            let output = nullwindow(args);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
            String::from_utf8(output.stderr).unwrap()
        };
        let file = "testdata/trees/teaching.tree";
        assert_eq!(
            error(&["shrink", file, "--command", "true {}"]),
            "error: the command passes on the input (exit 0); nothing to shrink\n"
        );
        assert!(error(&["shrink", file, "--command", "false"]).starts_with("error: --command has no {}"));
        assert_eq!(
            error(&["shrink", file, "--command", "kill -9 $$ {}"]),
            "error: the command was killed by signal 9 on the input: it broke, which is no verdict (only exit 1 \
             means the bug shows; --failing-status chooses); nothing to shrink\n"
        );
        // A command that breaks on bad input (audit exits 2) is no failure to shrink.
        assert_eq!(
            error(&["shrink", file, "--command", "echo 'bad input' >&2; exit 2; : {}"]),
            "error: the command exited 2 (it said: bad input) on the input: it broke, which is no verdict \
             (only exit 1 means the bug shows; --failing-status chooses); nothing to shrink\n"
        );
        assert!(
            error(&["shrink", file, "--command", "x {} {depth}"])
                .starts_with("error: --command has {depth}, but no --depth")
        );
        assert!(
            error(&["shrink", file, "--depth", "2", "--command", "x {}"])
                .starts_with("error: --depth is given, but")
        );
        let refused = nullwindow(&["shrink", file, "--command", "false {}", "--failing-status", "0"]);
        assert_eq!(refused.status.code(), Some(2));
        assert!(
            error(&["shrink", file, "--command", "no-such-command-anywhere {}"])
                .starts_with("error: the command exited 127: the shell could not run it (it said: "),
        );
    }
}
