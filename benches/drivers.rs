//! Every registered driver on the same random trees, side by side, so ratios come from one run.
//!
//! `cargo bench --bench drivers` (release build); quote medians and ratios, the machine is noisy.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nullwindow::driver::SearchParams;
use nullwindow::registry::Driver;
use nullwindow::tree::random::RandomTreeConfig;

fn drivers_on_uniform_trees(c: &mut Criterion) {
    let mut group = c.benchmark_group("uniform width 4 depth 7");
    let tree = RandomTreeConfig { seed: 1, width: 4..=4, depth: 7..=7, uniform: true, ..Default::default() }
        .generate()
        .expect("a valid configuration");
    for &driver in Driver::ALL {
        group.bench_with_input(BenchmarkId::from_parameter(driver.info().name), &tree, |b, tree| {
            b.iter(|| driver.run(tree, &SearchParams::default()));
        });
    }
    group.finish();
}

fn parse_and_print(c: &mut Criterion) {
    let tree = RandomTreeConfig { seed: 2, width: 2..=6, depth: 4..=8, ..Default::default() }
        .generate()
        .expect("a valid configuration");
    let printed = tree.to_string();
    c.bench_function("parse random tree", |b| b.iter(|| nullwindow::tree::text::parse(&printed)));
    c.bench_function("print random tree", |b| b.iter(|| nullwindow::tree::text::print(&tree)));
}

/// The move ordering's sort against the library's stable sort, on 8 moves' `(history score, index)`
/// pairs: once in random order, once nearly sorted (as after the first iterations, when the history
/// has settled).
fn ordering(c: &mut Criterion) {
    use nullwindow::search::ordering::sort_by_decreasing_score;
    let mut state = 7u64;
    let mut next = move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        state >> 40
    };
    let scores: Vec<u64> = (0..8).map(|_| next() % 1000).collect();
    let mut nearly_sorted: Vec<usize> = (0..8).collect();
    nearly_sorted.sort_by_key(|&index| std::cmp::Reverse(scores[index]));
    nearly_sorted.swap(2, 3);
    let random: Vec<usize> = vec![3, 7, 0, 5, 1, 6, 2, 4];
    let mut group = c.benchmark_group("ordering");
    for (name, list) in [("random", random), ("nearly sorted", nearly_sorted)] {
        let scored: Vec<(u64, usize)> = list.iter().map(|&index| (scores[index], index)).collect();
        group.bench_function(format!("insertion, {name}"), |b| {
            b.iter(|| {
                let mut scored = scored.clone();
                sort_by_decreasing_score(&mut scored);
                scored
            });
        });
        group.bench_function(format!("library stable sort, {name}"), |b| {
            b.iter(|| {
                let mut scored = scored.clone();
                scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                scored
            });
        });
    }
    group.finish();
}

criterion_group!(benches, drivers_on_uniform_trees, parse_and_print, ordering);
criterion_main!(benches);
