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

criterion_group!(benches, drivers_on_uniform_trees, parse_and_print);
criterion_main!(benches);
