//! How runs go: the cases of a run asked and judged one by one until one disagrees ([`fuzz`]), or
//! all of them ([`fuzz_keep_going`]); a tree case that disagrees shrunk to a 1-minimal one
//! ([`shrink_case`], [`shrink_failure`]); a game case that disagrees followed down the game to the
//! node where the bug acts ([`fuzz_game`], [`descend`]).

use std::cell::Cell;
use std::fmt::Write as _;

use super::cases::{depth_text, one_ply_less};
use super::judge::{judge_by_proof, measure};
use super::profile::Measure;
use super::{
    Answer, Case, Config, ConfigError, Disagreement, Failure, Family, GameCase, Naming, Reply, counted,
    counted_moves, judge,
};
use crate::driver::Perspective;
use crate::game::{Game, Player};
use crate::oracle::proof::{Budget, Prover, TO_THE_END};
use crate::theory::witness::Undecided;
use crate::tree::Tree;
use crate::tree::shrink::try_shrink;
use crate::value::{Decimals, Value};

/// Every case one step of the shrink's repertoire makes from `case`: each of the tree's
/// [`single_steps`](crate::tree::shrink::single_steps) at the case's depth and, where the step
/// lowers the tree's height, also at the depth as far above its leaves as before; the same tree
/// one ply shallower; and at its height, when the depth is past it. A complete shrink
/// ([`shrink_case`], [`shrink_failure`]) ends on a case for which none of these disagrees (or
/// fails) in the same way: the result is **1-minimal**, unless [`Config::max_shrink_tests`] ran
/// out first (or, with [`Config::depth_zero`] off, but for the steps to depth 0, which it never
/// tries). A test can check that with this list.
#[must_use]
pub fn single_steps(case: &Case) -> Vec<Case> {
    let height = case.tree.height();
    let mut steps = Vec::new();
    let mut add = |tree: &Tree, depth: u32| {
        let step = Case { tree: tree.clone(), depth, origin: case.origin.clone() };
        if step != *case && !steps.contains(&step) {
            steps.push(step);
        }
    };
    for tree in crate::tree::shrink::single_steps(&case.tree) {
        add(&tree, case.depth);
        if tree.height() < height && case.depth > 0 {
            add(&tree, case.depth.saturating_sub(height - tree.height()));
        }
    }
    if let Some(shallower) = case.depth.checked_sub(1) {
        add(&case.tree, shallower);
    }
    if case.depth > height {
        add(&case.tree, height);
    }
    steps
}

/// Runs the engine on a case, a panic in it caught: `Ok(None)` when it declines, `Err` with its
/// error or its panic's message.
fn ask<C, P, R: Into<Reply<P>>, E>(
    engine: &mut impl FnMut(&C) -> Result<R, E>,
    case: &C,
) -> Result<Option<Answer<P>>, Failure<E>> {
    let replied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine(case)));
    match replied {
        Ok(Ok(reply)) => match reply.into() {
            Reply::Answer(answer) => Ok(Some(answer)),
            Reply::Skip => Ok(None),
        },
        Ok(Err(error)) => Err(Failure::Error(error)),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            Err(Failure::Panic(message))
        }
    }
}

/// Where a run stands, after each case, each shrink candidate and each step of a descent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Cases tried so far, of the run's, and how the last one went.
    Cases {
        /// Tried.
        done: u64,
        /// In the run.
        total: u64,
        /// The case just judged.
        judged: Judged,
    },
    /// Shrinking the tree case that disagreed.
    Shrinking {
        /// Candidates tried.
        tests: u64,
        /// Nodes of the smallest case so far.
        nodes: usize,
    },
    /// Following the game case that disagreed down the game ([`descend`]).
    Descending {
        /// Searches asked of the engine.
        tests: u64,
        /// The depth of the case the descent stands at.
        depth: u32,
        /// Its moves from the start.
        plies: usize,
    },
}

/// One case as a run's summary counts it: its family, its depth, and how it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The case's family ([`Family::Own`] for a position of a game fuzzed with [`fuzz_game`]).
    pub family: Option<Family>,
    /// The depth it was searched to.
    pub depth: u32,
    /// How it went.
    pub verdict: Verdict,
    /// With [`Config::selective`], how far the engine's answer strays from the exact value; `None`
    /// otherwise, or when the engine gave no answer or its exact value was beyond the budget.
    pub measure: Option<Measure>,
}

/// How one case went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The engine's answer agrees.
    Agreed,
    /// It disagrees.
    Disagreed,
    /// The engine declined the case.
    Declined,
    /// Judging it needed more than [`Config::budget`] nodes.
    Undecided,
    /// The engine failed on it.
    Failed,
}

/// A case the engine disagreed on, and the smallest one it still disagrees on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The case's index in the run.
    pub index: u64,
    /// The case as drawn.
    pub original: Case,
    /// The smallest case found that still disagrees.
    pub shrunk: Case,
    /// The disagreement on the shrunk case.
    pub disagreement: Disagreement,
    /// Candidates tried while shrinking.
    pub tests: u64,
    /// The side the engine's values are from, for the report.
    pub perspective: Perspective,
    /// Whether the engine, asked the case again, disagreed the same way. A shrink trusts that an
    /// engine answers a case the same way each time; one that did not (it draws random numbers,
    /// keeps a table between cases, depends on the time) is reported on the case as drawn, not
    /// shrunk, and `shrunk` is that case.
    pub steady: bool,
}

impl Found {
    /// The case drawn (`original`, the run's case `index`) and the case it was shrunk to in `tests`
    /// candidates, where the engine disagrees as `disagreement` says.
    fn shrunk(
        index: u64,
        original: Case,
        shrunk: Case,
        disagreement: Disagreement,
        tests: u64,
        config: &Config,
    ) -> Self {
        Self { index, original, shrunk, disagreement, tests, perspective: config.perspective, steady: true }
    }

    /// The case drawn, not shrunk: asked again, the engine answered it another way.
    fn unsteady(index: u64, original: Case, disagreement: Disagreement, config: &Config) -> Self {
        let shrunk = original.clone();
        Self {
            index,
            original,
            shrunk,
            disagreement,
            tests: 0,
            perspective: config.perspective,
            steady: false,
        }
    }

    /// A report in a few lines: the case, the shrunk case, what is wrong.
    #[must_use]
    pub fn report(&self) -> String {
        let stats = |case: &Case| case.tree.stats().nodes;
        let depth = |case: &Case| {
            if case.depth >= case.tree.height() {
                format!("depth {} (to the end)", case.depth)
            } else {
                format!("depth {}", case.depth)
            }
        };
        let nodes = |case: &Case| match stats(case) {
            1 => "1 node".to_owned(),
            many => format!("{many} nodes"),
        };
        let shrunk = if self.steady {
            format!("shrunk in {} tests to {}, {}", self.tests, depth(&self.shrunk), nodes(&self.shrunk))
        } else {
            "not shrunk: asked again, the engine answered it another way, and a shrink needs an engine \
             that answers a case the same way each time"
                .to_owned()
        };
        format!(
            "case {} ({}): {}, {}; {shrunk}:\n{}\n{}",
            self.index,
            self.original.origin,
            depth(&self.original),
            nodes(&self.original),
            self.shrunk.tree.to_string().trim_end(),
            self.disagreement.describe(self.perspective, self.shrunk.tree.player(self.shrunk.tree.root_id())),
        )
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<E> {
    /// Every case agreed (or was beyond the budget to judge).
    Agreed {
        /// Cases judged and agreed.
        agreed: u64,
        /// Cases left undecided: their judgement needed more than [`Config::budget`] nodes.
        undecided: u64,
        /// Cases the engine declined ([`Reply::Skip`]).
        skipped: u64,
    },
    /// A case disagreed; shrunk.
    Disagreed(Box<Found>),
    /// The engine could not answer a case.
    EngineFailed {
        /// The case's index in the run.
        index: u64,
        /// The case.
        case: Box<Case>,
        /// The engine's error.
        error: E,
    },
    /// The engine panicked on a case.
    Panicked {
        /// The case's index in the run.
        index: u64,
        /// The case.
        case: Box<Case>,
        /// The panic's message.
        message: String,
    },
    /// With [`Config::keep_going`]: every case was run, and the first case of each kind of
    /// disagreement or failure shrunk.
    Several(Box<Several<E>>),
    /// The configuration cannot draw cases.
    Config(ConfigError),
}

/// What a run that went on after each disagreement found ([`fuzz_keep_going`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Several<E> {
    /// Cases judged and agreed.
    pub agreed: u64,
    /// Cases beyond the budget to judge.
    pub undecided: u64,
    /// Cases the engine declined.
    pub skipped: u64,
    /// Each kind of disagreement or failure met, in the order first met.
    pub kinds: Vec<Kind<E>>,
}

/// One kind of disagreement (a wrong value, a wrong move, a broken rule by rule) or of failure
/// (as the run's classifier names it), its count, and its first case shrunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind<E> {
    /// The kind's name: `a wrong value`, `a wrong move`, `the fail-low rule`, or a failure's.
    pub name: String,
    /// How many cases were of this kind.
    pub count: u64,
    /// The first case of the kind, shrunk: a disagreement, or a failure.
    pub first: Result<Found, FailureFound<E>>,
}

/// A case the engine failed on, and the smallest one it still fails on the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureFound<E> {
    /// The case's index in the run.
    pub index: u64,
    /// The case as drawn.
    pub original: Case,
    /// The smallest case found on which it fails the same way.
    pub shrunk: Case,
    /// How it failed there.
    pub failure: Failure<E>,
    /// Candidates tried while shrinking.
    pub tests: u64,
}

/// Runs `engine` on every one of [`Config::cases`] cases, whatever they find, and shrinks the
/// first case of each kind: a disagreement by [`Disagreement::kind_name`] (shrunk as
/// [`shrink_case`] does, keeping that name), a failure by what `failure_kind` names it (shrunk
/// as [`shrink_failure`] does, keeping that name). Every bug an engine has, in one run.
pub fn fuzz_keep_going<E, R: Into<Reply>>(
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    failure_kind: impl Fn(&Failure<E>) -> String,
    mut progress: impl FnMut(Progress),
) -> Result<Several<E>, ConfigError> {
    config.validate()?;
    let mut several = Several { agreed: 0, undecided: 0, skipped: 0, kinds: Vec::new() };
    // The first case of each kind, unshrunk, and the counts.
    let mut firsts: Vec<First<E>> = Vec::new();
    let family_of = |index: u64| {
        config.families.get(usize::try_from(index % config.families.len() as u64).ok()?).copied()
    };
    for index in 0..config.cases {
        let case = config.case(index)?;
        let verdict = match ask(&mut engine, &case) {
            Err(failure) => {
                let name = failure_kind(&failure);
                count_kind(&mut firsts, name, index, &case, Err(failure));
                Verdict::Failed
            }
            Ok(None) => {
                several.skipped += 1;
                Verdict::Declined
            }
            Ok(Some(answer)) => match judge(&case, &answer, config) {
                Ok(None) => {
                    several.agreed += 1;
                    Verdict::Agreed
                }
                Err(Undecided { .. }) => {
                    several.undecided += 1;
                    Verdict::Undecided
                }
                Ok(Some(disagreement)) => {
                    count_kind(&mut firsts, disagreement.kind_name(), index, &case, Ok(disagreement));
                    Verdict::Disagreed
                }
            },
        };
        let judged = Judged { family: family_of(index), depth: case.depth, verdict, measure: None };
        progress(Progress::Cases { done: index + 1, total: config.cases, judged });
    }
    for First { name, count, index, case, found } in firsts {
        let first = match found {
            Ok(disagreement) => {
                let steady = disagreement_on(&mut engine, &case, config) == Some(disagreement.clone());
                // Shrunk within its kind, to the rule: a case does not slip to another kind, which
                // has its own entry.
                let same_kind = |candidate: &Case| {
                    disagreement_on(&mut engine, candidate, config).filter(|found| found.kind_name() == name)
                };
                if steady {
                    let (shrunk, disagreement, tests) =
                        shrink_while(&case, disagreement, config, same_kind, &mut progress);
                    Ok(Found::shrunk(index, case, shrunk, disagreement, tests, config))
                } else {
                    Ok(Found::unsteady(index, case, disagreement, config))
                }
            }
            Err(failure) => {
                let same = |other: &Failure<E>| failure_kind(other) == name;
                let (shrunk, failure, tests) =
                    shrink_failure(&case, failure, config, &mut engine, same, &mut progress);
                Err(FailureFound { index, original: case, shrunk, failure, tests })
            }
        };
        several.kinds.push(Kind { name, count, first });
    }
    Ok(several)
}

/// The first case of a kind met while a run goes on, not shrunk yet, and the kind's count.
struct First<E> {
    name: String,
    count: u64,
    index: u64,
    case: Case,
    found: Result<Disagreement, Failure<E>>,
}

/// Counts a case of the kind `name`, keeping it if it is the kind's first.
fn count_kind<E>(
    firsts: &mut Vec<First<E>>,
    name: String,
    index: u64,
    case: &Case,
    found: Result<Disagreement, Failure<E>>,
) {
    match firsts.iter_mut().find(|first| first.name == name) {
        Some(first) => first.count += 1,
        None => firsts.push(First { name, count: 1, index, case: case.clone(), found }),
    }
}

/// Runs `engine` on [`Config::cases`] cases, judges each ([`judge`]) and shrinks the first that
/// disagrees ([`shrink_case`]), once the engine, asked that case again, disagrees the same way
/// (otherwise it is reported as drawn: [`Found::steady`]). See the [module documentation](super).
pub fn fuzz<E, R: Into<Reply>>(
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    mut progress: impl FnMut(Progress),
) -> Outcome<E> {
    if let Err(error) = config.validate() {
        return Outcome::Config(error);
    }
    if config.keep_going {
        let kind = |failure: &Failure<E>| match failure {
            Failure::Error(_) => "an engine failure".to_owned(),
            Failure::Panic(_) => "a panic".to_owned(),
        };
        return match fuzz_keep_going(config, engine, kind, progress) {
            Ok(several) => Outcome::Several(Box::new(several)),
            Err(error) => Outcome::Config(error),
        };
    }
    let family_of = |index: u64| {
        config.families.get(usize::try_from(index % config.families.len() as u64).ok()?).copied()
    };
    let tried = run_cases(
        config,
        |index| config.case(index),
        &mut engine,
        |case, answer| judge(case, answer, config).map(|found| (found, None)),
        |case| case.depth,
        family_of,
        &mut progress,
    );
    match tried {
        Tried::Agreed { agreed, undecided, skipped } => Outcome::Agreed { agreed, undecided, skipped },
        Tried::Config(error) => Outcome::Config(error),
        Tried::Failed { index, case, error: Failure::Error(error) } => {
            Outcome::EngineFailed { index, case: Box::new(case), error }
        }
        Tried::Failed { index, case, error: Failure::Panic(message) } => {
            Outcome::Panicked { index, case: Box::new(case), message }
        }
        Tried::Disagreed { index, case, disagreement, .. } => {
            // Asked again: an engine that fails now (one out of step, answering a request twice)
            // has failed, and its first answer may be one to another question.
            let again = match ask(&mut engine, &case) {
                Ok(again) => again,
                Err(Failure::Error(error)) => {
                    return Outcome::EngineFailed { index, case: Box::new(case), error };
                }
                Err(Failure::Panic(message)) => {
                    return Outcome::Panicked { index, case: Box::new(case), message };
                }
            };
            if again.and_then(|answer| judge(&case, &answer, config).ok().flatten())
                != Some(disagreement.clone())
            {
                return Outcome::Disagreed(Box::new(Found::unsteady(index, case, disagreement, config)));
            }
            let (shrunk, disagreement, tests) =
                shrink_case(&case, disagreement, config, &mut engine, &mut progress);
            Outcome::Disagreed(Box::new(Found::shrunk(index, case, shrunk, disagreement, tests, config)))
        }
    }
}

/// The disagreement the engine's answer to `case` shows; `None` when it agrees, declines, fails or
/// cannot be judged within the budget. What a shrink keeps a candidate by, and how a case is asked
/// again.
fn disagreement_on<E, R: Into<Reply>>(
    engine: &mut impl FnMut(&Case) -> Result<R, E>,
    case: &Case,
    config: &Config,
) -> Option<Disagreement> {
    let answer = ask(engine, case).ok()??;
    judge(case, &answer, config).ok().flatten()
}

/// How the cases of a run went, up to the first that disagreed or failed.
enum Tried<C, P, E> {
    Agreed { agreed: u64, undecided: u64, skipped: u64 },
    Disagreed { index: u64, case: C, answer: Answer<P>, disagreement: Disagreement },
    Failed { index: u64, case: C, error: Failure<E> },
    Config(ConfigError),
}

/// The loop every run shares, whatever its cases are: case `i` drawn by `draw`, answered by
/// `engine` (or declined), and the answer judged by `judge`, until one disagrees or the engine
/// fails. `depth_of` tells a case's depth, `family_of` case `i`'s family, for the summary.
fn run_cases<C, P, E, R: Into<Reply<P>>>(
    config: &Config,
    mut draw: impl FnMut(u64) -> Result<C, ConfigError>,
    engine: &mut impl FnMut(&C) -> Result<R, E>,
    mut judge: impl FnMut(&C, &Answer<P>) -> Result<(Option<Disagreement>, Option<Measure>), Undecided>,
    depth_of: impl Fn(&C) -> u32,
    family_of: impl Fn(u64) -> Option<Family>,
    progress: &mut impl FnMut(Progress),
) -> Tried<C, P, E> {
    let (mut agreed, mut undecided, mut skipped) = (0, 0, 0);
    for index in 0..config.cases {
        let case = match draw(index) {
            Ok(case) => case,
            Err(error) => return Tried::Config(error),
        };
        let mut report = |verdict, measure| {
            let judged = Judged { family: family_of(index), depth: depth_of(&case), verdict, measure };
            progress(Progress::Cases { done: index + 1, total: config.cases, judged });
        };
        match ask(engine, &case) {
            Err(error) => {
                report(Verdict::Failed, None);
                return Tried::Failed { index, case, error };
            }
            Ok(None) => {
                skipped += 1;
                report(Verdict::Declined, None);
            }
            Ok(Some(answer)) => match judge(&case, &answer) {
                Ok((None, measure)) => {
                    agreed += 1;
                    report(Verdict::Agreed, measure);
                }
                Err(Undecided { .. }) => {
                    undecided += 1;
                    report(Verdict::Undecided, None);
                }
                Ok((Some(disagreement), measure)) => {
                    report(Verdict::Disagreed, measure);
                    return Tried::Disagreed { index, case, answer, disagreement };
                }
            },
        }
    }
    Tried::Agreed { agreed, undecided, skipped }
}

/// The smallest case found on which `engine` still disagrees in the same way (its records, its
/// value or its move), starting from `case` (on which it disagreed as `disagreement` says): the tree shrunk at its depth, then the depth lowered by one
/// while it still disagrees, each shallower depth shrinking the tree again, to a fixpoint. Returns
/// the case, its disagreement and the candidates tried (at most [`Config::max_shrink_tests`]).
pub fn shrink_case<E, R: Into<Reply>>(
    case: &Case,
    disagreement: Disagreement,
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    progress: impl FnMut(Progress),
) -> (Case, Disagreement, u64) {
    let kind = disagreement.kind();
    // A candidate the engine cannot answer or declines, that cannot be judged within the budget, or
    // that it gets wrong in another way, is not kept.
    let disagrees = |candidate: &Case| {
        disagreement_on(&mut engine, candidate, config).filter(|found| found.kind() == kind)
    };
    shrink_while(case, disagreement, config, disagrees, progress)
}

/// The smallest case found on which `engine` still fails as `same` says it failed on `case`
/// (with `failure`): a crash stays a crash, a timeout a timeout, as `same` tells them apart. The
/// same steps as [`shrink_case`]; a candidate the engine answers, declines or fails on another way
/// is not kept. Returns the case, its failure and the candidates tried.
pub fn shrink_failure<E, R: Into<Reply>>(
    case: &Case,
    failure: Failure<E>,
    config: &Config,
    mut engine: impl FnMut(&Case) -> Result<R, E>,
    same: impl Fn(&Failure<E>) -> bool,
    progress: impl FnMut(Progress),
) -> (Case, Failure<E>, u64) {
    let fails = |candidate: &Case| -> Option<Failure<E>> { ask(&mut engine, candidate).err().filter(&same) };
    shrink_while(case, failure, config, fails, progress)
}

/// The shrinking loop both share: the tree shrunk at its depth, then the depth lowered by one while
/// `holds` still finds what it looks for, each shallower depth shrinking the tree again, to a
/// fixpoint.
fn shrink_while<T>(
    case: &Case,
    found: T,
    config: &Config,
    mut holds: impl FnMut(&Case) -> Option<T>,
    mut progress: impl FnMut(Progress),
) -> (Case, T, u64) {
    let tests = Cell::new(0u64);
    let mut disagrees = |candidate: &Case| -> Option<T> {
        tests.set(tests.get() + 1);
        holds(candidate)
    };
    let mut best = (case.clone(), found);
    // No candidate goes below the least depth a case may have.
    let floor = config.least_depth();
    loop {
        // A depth past the height searches the same tree: the height is the smallest such depth.
        let height = best.0.tree.height().max(floor);
        if best.0.depth > height {
            let candidate = Case { depth: height, ..best.0.clone() };
            if let Some(disagreement) = disagrees(&candidate) {
                best = (candidate, disagreement);
            }
        }
        // Candidates come from the last tree kept; a shorter one is tried at the same depth, and
        // then at the depth as far above its leaves as before, so that hoisting keeps a bug that
        // shows at the horizon.
        let (mut depth, mut height) = (best.0.depth, best.0.tree.height());
        let mut found = None;
        let shrunk = try_shrink(
            &best.0.tree,
            config.max_shrink_tests.saturating_sub(tests.get()),
            |tree| {
                let mut depths = vec![depth];
                if tree.height() < height && depth > floor {
                    depths.push(depth.saturating_sub(height - tree.height()).max(floor));
                }
                for candidate_depth in depths {
                    let candidate =
                        Case { tree: tree.clone(), depth: candidate_depth, origin: case.origin.clone() };
                    if let Some(disagreement) = disagrees(&candidate) {
                        // The shrinker keeps each candidate that fails, so the last one found is its result's.
                        (depth, height) = (candidate_depth, tree.height());
                        found = Some(disagreement);
                        return Ok::<_, std::convert::Infallible>(true);
                    }
                }
                Ok(false)
            },
            |step| progress(Progress::Shrinking { tests: tests.get(), nodes: step.nodes }),
        );
        let Ok(shrunk) = shrunk;
        if let Some(disagreement) = found {
            best = (Case { tree: shrunk.tree, depth, origin: case.origin.clone() }, disagreement);
        }
        if depth <= floor || !shrunk.complete || tests.get() >= config.max_shrink_tests {
            break;
        }
        let candidate = Case { depth: depth - 1, ..best.0.clone() };
        match disagrees(&candidate) {
            Some(disagreement) => best = (candidate, disagreement),
            None => break,
        }
    }
    let (case, disagreement) = best;
    (case, disagreement, tests.get())
}

// ---------------------------------------------------------------------------------------------
// Positions of a game, and the descent

/// How a run on your game ended.
pub enum GameOutcome<G: Game, E> {
    /// No case disagreed.
    Agreed {
        /// Cases judged and agreed.
        agreed: u64,
        /// Cases whose judgement needed more than [`Config::budget`] nodes.
        undecided: u64,
        /// Cases the engine declined.
        skipped: u64,
    },
    /// A case disagreed; followed down the game.
    Disagreed(Box<Descent<G>>),
    /// The engine could not answer a case, or panicked on it.
    EngineFailed {
        /// The case's index in the run.
        index: u64,
        /// The case.
        case: Box<GameCase<G>>,
        /// The engine's error, or its panic's message.
        error: Failure<E>,
    },
    /// The configuration cannot draw cases.
    Config(ConfigError),
}

/// A case the engine got wrong, and the node down the game where the bug acts.
pub struct Descent<G: Game> {
    /// The case's index in the run.
    pub index: u64,
    /// The case as drawn.
    pub original: GameCase<G>,
    /// Where the descent ended: wrong here, right at every child one ply shallower and here at
    /// every smaller depth.
    pub found: GameCase<G>,
    /// What the engine answered there.
    pub answer: Answer<G::Position>,
    /// What is wrong with it.
    pub disagreement: Disagreement,
    /// Searches asked of the engine while descending.
    pub tests: u64,
    /// The side the engine's values are from.
    pub perspective: Perspective,
    /// The exact value of `found` at its depth, from MAX's side; `None` when its proof needs more
    /// than [`Config::budget`] nodes.
    pub exact: Option<Value>,
    /// The exact value after each of `found`'s legal moves (in [`Game::legal_moves`] order), one
    /// ply shallower, from MAX's side; empty at depth 0.
    pub after: Vec<Option<Value>>,
    /// When the engine, asked the case again, answered otherwise (another value or move, or
    /// nothing: it declined or failed), what it answered then: the descent did not go down the
    /// game, and `answer` is its first answer, as given.
    pub answered_again: Option<Option<Answer<G::Position>>>,
    /// How the engine writes its values ([`Config::decimals`]).
    pub decimals: Decimals,
}

impl<G: Game> Descent<G> {
    /// A descent of run case `index` (`original`) that ended at `found`, where the engine answered
    /// `answer` and is wrong as `disagreement` says, after `tests` searches; the exact values the
    /// report shows are proved by `prover` (each within [`Config::budget`] nodes).
    #[allow(clippy::too_many_arguments)] // each is one field of the descent, named at the call
    pub fn new(
        game: &G,
        prover: &mut Prover<G>,
        config: &Config,
        index: u64,
        (original, found): (GameCase<G>, GameCase<G>),
        answer: Answer<G::Position>,
        disagreement: Disagreement,
        tests: u64,
    ) -> Self {
        let at = &found.position;
        let mover = game.to_move(at);
        // The engine's value, from the side to move, is the first guess; then the exact value.
        let claimed = match config.perspective {
            Perspective::Mover => answer.value,
            Perspective::Max => mover.perspective(answer.value),
        };
        let exact = prover.value(game, at, found.depth, claimed, &mut Budget::new(config.budget)).ok();
        let after = if found.depth == 0 {
            Vec::new()
        } else {
            let guess = exact.unwrap_or(claimed);
            let value_after = |mv| {
                let child = game.play(at, mv);
                let child_mover = game.to_move(&child);
                let guess = if child_mover == mover { guess } else { -guess };
                let mut budget = Budget::new(config.budget);
                let value = prover.value(game, &child, one_ply_less(found.depth), guess, &mut budget).ok()?;
                Some(child_mover.perspective(value))
            };
            game.legal_moves(at).into_iter().map(value_after).collect()
        };
        let exact = exact.map(|value| mover.perspective(value));
        Self {
            index,
            original,
            found,
            answer,
            disagreement,
            tests,
            perspective: config.perspective,
            exact,
            after,
            answered_again: None,
            decimals: config.decimals,
        }
    }

    /// An answer as the report quotes it: the value, and the move by its name.
    fn said(
        &self,
        answer: &Answer<G::Position>,
        moves: &[G::Move],
        name: &impl Fn(&G::Position, G::Move) -> String,
        at: &G::Position,
    ) -> String {
        match answer.best_move {
            Some(index) => {
                let mv = moves.get(index as usize).copied();
                let shown = mv.map_or_else(|| format!("#{index}"), |mv| name(at, mv));
                format!("{} (move {shown})", self.decimals.show(answer.value))
            }
            None => self.decimals.show(answer.value).to_string(),
        }
    }

    /// A report in a few lines: the case, where the descent ended, what the engine said there, the
    /// exact value and every move's (as `divide` gives them, from the side to move there), and what
    /// is wrong. `position` writes a position, `name` a move of a position, `player` gives a
    /// player's own word where the engine names its players.
    pub fn report(
        &self,
        position: impl Fn(&G::Position) -> String,
        name: impl Fn(&G::Position, G::Move) -> String,
        player: impl Fn(Player) -> Option<String>,
        game: &G,
    ) -> String {
        let found = &self.found;
        let mover = game.to_move(&found.position);
        // The moves lead from the start, unless the case was a position given directly (by its
        // token): then from that position.
        let reached = found.moves.iter().fold(game.root(), |at, &mv| game.play(&at, mv));
        let from_start = game.key(&game.search_root(&reached)) == game.key(&found.position);
        let (start, from) = if from_start {
            (game.root(), "from the start".to_owned())
        } else {
            (self.original.position.clone(), format!("below {}", position(&self.original.position)))
        };
        let line = |played: &[G::Move]| -> String {
            let mut at = start.clone();
            let mut names = Vec::with_capacity(played.len());
            for &mv in played {
                names.push(name(&at, mv));
                at = game.play(&at, mv);
            }
            match (names.is_empty(), from_start) {
                (true, true) => "(the start)".to_owned(),
                (true, false) => "(the position given, by its token)".to_owned(),
                (false, true) => names.join(" "),
                (false, false) => format!("(the position given, by its token) {}", names.join(" ")),
            }
        };
        let descended = if self.answered_again.is_some() {
            format!("not followed down the game, {} {from}", counted_moves(found.moves.len()))
        } else {
            format!(
                "descended in {} to depth {}, {} {from}",
                counted(self.tests, "search", "searches"),
                depth_text(found.depth),
                counted_moves(found.moves.len())
            )
        };
        let mut report = format!(
            "case {} ({}), depth {}; {descended}\nmoves: {}\nposition: {}\n",
            self.index,
            self.original.origin,
            depth_text(self.original.depth),
            line(&found.moves),
            position(&found.position),
        );
        let moves = game.legal_moves(&found.position);
        let said = self.said(&self.answer, &moves, &name, &found.position);
        let beyond = || "beyond the budget".to_owned();
        let value = self.exact.map_or_else(beyond, |value| {
            self.decimals.show(self.perspective.turn(mover, (value, value, value)).2).to_string()
        });
        let _ = writeln!(report, "the engine says {said}; the exact value is {value}");
        if let Some(again) = &self.answered_again {
            let then = match again {
                Some(again) => format!("said {}", self.said(again, &moves, &name, &found.position)),
                None => "did not answer it".to_owned(),
            };
            let _ = writeln!(
                report,
                "asked the same again, the engine {then}: its answer depends on what it was asked before \
                 (a table kept between searches, randomness), so the case is not followed down the game"
            );
        }
        if found.depth > 0 {
            let width = moves.iter().map(|&mv| name(&found.position, mv).len()).max().unwrap_or(4).max(4);
            let _ = writeln!(report, "  {:<width$}  value (from the side to move here)", "move");
            for (&mv, after) in moves.iter().zip(&self.after) {
                let value = after
                    .map_or_else(beyond, |value| self.decimals.show(mover.perspective(value)).to_string());
                let _ = writeln!(report, "  {:<width$}  {value}", name(&found.position, mv));
            }
        }
        let named = |index: u32| {
            moves
                .get(index as usize)
                .map_or_else(|| format!("move {index}"), |&mv| format!("move {}", name(&found.position, mv)))
        };
        let naming =
            Naming { root: "this position", moves: &named, player: &player, decimals: self.decimals };
        report + &self.disagreement.describe_named(self.perspective, mover, &naming)
    }
}

/// Runs `engine` on [`Config::cases`] positions of `game` ([`Config::game_case`]), judges each by
/// proof ([`judge_game`](super::judge_game)), one [`Prover`] keeping what it proved from case to
/// case, and follows the first that disagrees down the game ([`descend`]).
/// [`Config::families`], widths and values play no part.
pub fn fuzz_game<G: Game, E, R: Into<Reply<G::Position>>>(
    config: &Config,
    game: &G,
    mut engine: impl FnMut(&GameCase<G>) -> Result<R, E>,
    mut progress: impl FnMut(Progress),
) -> GameOutcome<G, E> {
    if config.height.is_empty() {
        return GameOutcome::Config(ConfigError(
            "the height (the depths to search) is an empty range".to_owned(),
        ));
    }
    let mut prover = Prover::new(config.table_entries);
    let tried = run_cases(
        config,
        |index| Ok(config.game_case(game, index)),
        &mut engine,
        |case, answer| judge_and_measure(game, &mut prover, case, answer, config),
        |case: &GameCase<G>| case.depth,
        |_| Some(Family::Own),
        &mut progress,
    );
    match tried {
        Tried::Agreed { agreed, undecided, skipped } => GameOutcome::Agreed { agreed, undecided, skipped },
        Tried::Config(error) => GameOutcome::Config(error),
        Tried::Failed { index, case, error } => {
            GameOutcome::EngineFailed { index, case: Box::new(case), error }
        }
        Tried::Disagreed { index, case, answer, disagreement } => {
            let descent =
                descend(config, game, &mut prover, &case, (answer, disagreement), &mut engine, &mut progress);
            GameOutcome::Disagreed(Box::new(Descent { index, ..descent }))
        }
    }
}

/// A game case judged ([`judge_by_proof`]) and, with [`Config::selective`], measured
/// ([`measure`]): a measure beyond the budget is left out, not a reason to leave the case
/// undecided.
fn judge_and_measure<G: Game>(
    game: &G,
    prover: &mut Prover<G>,
    case: &GameCase<G>,
    answer: &Answer<G::Position>,
    config: &Config,
) -> Result<(Option<Disagreement>, Option<Measure>), Undecided> {
    let found = judge_by_proof(game, prover, case, answer, config)?;
    let measured = if config.selective { measure(game, prover, case, answer, config).ok() } else { None };
    Ok((found, measured))
}

/// A finding of a run on your game that goes on after it ([`fuzz_game_keep_going`]).
pub enum GameFinding<G: Game, E> {
    /// The first case of a kind of disagreement ([`Disagreement::kind_name`]), followed down the
    /// game within its kind.
    Disagreed(Box<Descent<G>>),
    /// The engine failed on a case.
    Failed {
        /// The case's index in the run.
        index: u64,
        /// The case.
        case: Box<GameCase<G>>,
        /// The engine's error, or its panic's message.
        error: Failure<E>,
    },
}

/// How a run on your game that went on after each finding ended ([`fuzz_game_keep_going`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSeveral {
    /// Cases judged and agreed.
    pub agreed: u64,
    /// Cases beyond the budget to judge.
    pub undecided: u64,
    /// Cases the engine declined.
    pub skipped: u64,
    /// Each kind met, in the order first met, and how many cases were of it: a disagreement's
    /// [`Disagreement::kind_name`], or `an engine failure`.
    pub kinds: Vec<(String, u64)>,
    /// The case after which the run stopped, where the caller said to stop.
    pub stopped_after: Option<u64>,
}

/// Runs `engine` on every one of [`Config::cases`] positions of `game`, whatever they find, as
/// [`fuzz_game`] judges them: the first case of each kind of disagreement is followed down the
/// game at once, within its kind ([`descend`] keeping [`Disagreement::kind_name`], so that two bugs
/// are two findings, each at its own node), and handed to `found`, as is every case the engine
/// fails on. `found` may stop the run (an engine that failed may not answer again). Findings are
/// handed over as they come, so that the caller can write them out while their positions are
/// valid: a game that forgets between cases ([`Progress::Cases`]) makes positions of earlier
/// cases stale.
pub fn fuzz_game_keep_going<G: Game, E, R: Into<Reply<G::Position>>>(
    config: &Config,
    game: &G,
    mut engine: impl FnMut(&GameCase<G>) -> Result<R, E>,
    mut progress: impl FnMut(Progress),
    mut found: impl FnMut(GameFinding<G, E>) -> std::ops::ControlFlow<()>,
) -> Result<GameSeveral, ConfigError> {
    if config.height.is_empty() {
        return Err(ConfigError("the height (the depths to search) is an empty range".to_owned()));
    }
    let mut prover = Prover::new(config.table_entries);
    let mut several = GameSeveral::default();
    let count = |several: &mut GameSeveral, name: String| match several
        .kinds
        .iter_mut()
        .find(|(known, _)| *known == name)
    {
        Some((_, count)) => {
            *count += 1;
            false
        }
        None => {
            several.kinds.push((name, 1));
            true
        }
    };
    for index in 0..config.cases {
        let case = config.game_case(game, index);
        let mut measure = None;
        let (verdict, finding) = match ask(&mut engine, &case) {
            Err(error) => {
                count(&mut several, "an engine failure".to_owned());
                (Verdict::Failed, Some(GameFinding::Failed { index, case: Box::new(case.clone()), error }))
            }
            Ok(None) => {
                several.skipped += 1;
                (Verdict::Declined, None)
            }
            Ok(Some(answer)) => match judge_and_measure(game, &mut prover, &case, &answer, config) {
                Ok((None, found_measure)) => {
                    several.agreed += 1;
                    measure = found_measure;
                    (Verdict::Agreed, None)
                }
                Err(Undecided { .. }) => {
                    several.undecided += 1;
                    (Verdict::Undecided, None)
                }
                Ok((Some(disagreement), measure)) => {
                    let first = count(&mut several, disagreement.kind_name());
                    let judged = Judged {
                        family: Some(Family::Own),
                        depth: case.depth,
                        verdict: Verdict::Disagreed,
                        measure,
                    };
                    progress(Progress::Cases { done: index + 1, total: config.cases, judged });
                    if first {
                        let descent = descend_within(
                            config,
                            game,
                            &mut prover,
                            &case,
                            (answer, disagreement),
                            &mut engine,
                            &mut progress,
                            true,
                        );
                        let descent = Descent { index, ..descent };
                        if found(GameFinding::Disagreed(Box::new(descent))).is_break() {
                            several.stopped_after = Some(index);
                            break;
                        }
                    }
                    continue;
                }
            },
        };
        let judged = Judged { family: Some(Family::Own), depth: case.depth, verdict, measure };
        progress(Progress::Cases { done: index + 1, total: config.cases, judged });
        if let Some(finding) = finding
            && found(finding).is_break()
        {
            several.stopped_after = Some(index);
            break;
        }
    }
    Ok(several)
}

/// Follows a case the engine gets wrong (its `answer` and `disagreement` there) down the game: the
/// smallest depth at the position that is still wrong, then a child still wrong one ply
/// shallower, and again, until no child is, each judged by `prover`. A case the engine fails on,
/// declines or that cannot be judged within the budget is not wrong. At most
/// [`Config::max_shrink_tests`] searches. The result's `index` is 0 and its `original` is `case`.
///
/// Where it ends the engine is wrong at a position `P` to depth `d` but right at every child of
/// `P` to `d - 1` (and at `P` to every smaller depth): the node where the bug acts, in `P`'s own
/// moves, pass, table or evaluation.
pub fn descend<G: Game, E, R: Into<Reply<G::Position>>>(
    config: &Config,
    game: &G,
    prover: &mut Prover<G>,
    case: &GameCase<G>,
    found: (Answer<G::Position>, Disagreement),
    engine: impl FnMut(&GameCase<G>) -> Result<R, E>,
    progress: impl FnMut(Progress),
) -> Descent<G> {
    descend_within(config, game, prover, case, found, engine, progress, false)
}

/// [`descend`]; `same_kind`: a step keeps only a disagreement of the first one's kind
/// ([`Disagreement::kind_name`]), so that a descent does not slip from one bug to another.
#[allow(clippy::too_many_arguments)] // descend's, and the one switch
fn descend_within<G: Game, E, R: Into<Reply<G::Position>>>(
    config: &Config,
    game: &G,
    prover: &mut Prover<G>,
    case: &GameCase<G>,
    (answer, disagreement): (Answer<G::Position>, Disagreement),
    mut engine: impl FnMut(&GameCase<G>) -> Result<R, E>,
    mut progress: impl FnMut(Progress),
    same_kind: bool,
) -> Descent<G> {
    let kind = disagreement.kind_name();
    // The case asked again first: an engine whose answer depends on what it was asked before (a
    // table kept between searches, randomness) is reported on the case as drawn, its first answer
    // shown as given and the second beside it, and not followed down the game, where every step
    // trusts that an answer is the engine's answer to the question alone.
    let again = ask(&mut engine, case).ok().flatten();
    let mut tests = 1u64;
    if again.as_ref().is_none_or(|again| (again.value, again.best_move) != (answer.value, answer.best_move)) {
        let disagreement = super::judge::with_hint(game, case, &answer, disagreement, config);
        let mut descent =
            Descent::new(game, prover, config, 0, (case.clone(), case.clone()), answer, disagreement, tests);
        descent.answered_again = Some(again);
        return descent;
    }
    let mut wrong = |candidate: &GameCase<G>, tests: &mut u64, prover: &mut Prover<G>| {
        *tests += 1;
        let answer = ask(&mut engine, candidate).ok()??;
        let found = judge_by_proof(game, prover, candidate, &answer, config).ok()??;
        (!same_kind || found.kind_name() == kind).then_some((answer, found))
    };
    let mut best = (case.clone(), answer, disagreement);
    'descend: loop {
        // A case to the end has no depth to lower: only the game's moves lead down.
        let shallower_depths =
            if best.0.depth >= TO_THE_END { 0..0 } else { config.least_depth()..best.0.depth };
        for depth in shallower_depths {
            if tests >= config.max_shrink_tests {
                break 'descend;
            }
            let shallower = best.0.at_depth(depth);
            if let Some((answer, disagreement)) = wrong(&shallower, &mut tests, prover) {
                best = (shallower, answer, disagreement);
                break;
            }
        }
        progress(Progress::Descending { tests, depth: best.0.depth, plies: best.0.moves.len() });
        if best.0.depth <= config.least_depth() {
            break;
        }
        let mut moved = false;
        for mv in game.legal_moves(&best.0.position) {
            if tests >= config.max_shrink_tests {
                break 'descend;
            }
            let child = best.0.child(game, mv);
            if let Some((answer, disagreement)) = wrong(&child, &mut tests, prover) {
                best = (child, answer, disagreement);
                moved = true;
                break;
            }
        }
        if !moved {
            break;
        }
    }
    let (found, answer, disagreement) = best;
    let disagreement = super::judge::with_hint(game, &found, &answer, disagreement, config);
    Descent::new(game, prover, config, 0, (case.clone(), found), answer, disagreement, tests)
}
