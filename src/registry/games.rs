//! The catalogue of games: every game the crate can search by name, one row each, as the drivers
//! have [theirs](super).
//!
//! A row says how the command line (and any other program) names the game, how a position of it is
//! written (the moves played from the start, one character each), which exact driver values its
//! positions ([`GameInfo::reference`]: plain minimax where the game is small enough, else an exact
//! engine driver the tests hold to minimax), which drivers run when none is named, and the range of
//! its values. The command line builds its `--game` handling from these rows alone: adding a game is
//! one module in [`crate::games`] and one row here.
//!
//! ```
//! use nullwindow::game::Game;
//! use nullwindow::registry::games::{AnyGame, KnownGame};
//!
//! let game = KnownGame::from_name("connect4").unwrap();
//! assert_eq!(game.info().title, "Connect Four");
//! let position = game.at("4453")?;
//! assert_eq!(position.describe("4453"), "Connect Four after '4453' (4 stones), MAX to move");
//! // `with_any_game!` runs generic code on whichever game it is.
//! let moves = nullwindow::with_any_game!(&position, game => game.legal_moves(&game.root()).len());
//! assert_eq!(moves, 7);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::game::Game as _;
use crate::games::PositionError;
use crate::games::connect4::Connect4;
use crate::games::nim::Nim;
use crate::games::tictactoe::TicTacToe;
use crate::registry::Driver;
use crate::value::Value;

/// What the catalogue knows about a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The name `--game` takes.
    pub name: &'static str,
    /// The game's name in a sentence.
    pub title: &'static str,
    /// How a position is written: the moves played from the start, one character each.
    pub position: &'static str,
    /// The exact driver whose values the others are checked against.
    pub reference: Driver,
    /// The drivers `--algo` means when not given (a list `Driver::select` reads).
    pub default_drivers: &'static str,
    /// The least and the greatest value a position can have, from MAX's side.
    pub values: (Value, Value),
}

/// Writes [`KnownGame`], [`AnyGame`] and `with_any_game!` from the rows of the catalogue. (`$d` is a
/// `$`, for the metavariables of the macro it writes.)
macro_rules! games {
    ($d:tt $(
        $(#[doc = $doc:literal])*
        $variant:ident($game:ty) {
            name: $name:literal,
            title: $title:literal,
            position: $position:literal,
            reference: $reference:ident,
            default_drivers: $drivers:literal,
            values: ($lowest:expr, $highest:expr),
            detail: $detail:expr $(,)?
        }
    )*) => {
        /// A game of the catalogue: one row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum KnownGame {
            $($(#[doc = $doc])* $variant,)*
        }

        impl KnownGame {
            /// Every game, in row order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),*];

            /// The game's row.
            #[must_use]
            pub const fn info(self) -> &'static GameInfo {
                match self {
                    $(Self::$variant => {
                        const INFO: GameInfo = GameInfo {
                            name: $name,
                            title: $title,
                            position: $position,
                            reference: Driver::$reference,
                            default_drivers: $drivers,
                            values: ($lowest, $highest),
                        };
                        &INFO
                    })*
                }
            }

            /// The game called `name`.
            #[must_use]
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|game| game.info().name == name)
            }

            /// The game from the position `moves` (the moves played from the start).
            ///
            /// # Errors
            /// The first move that is not legal, and why.
            pub fn at(self, moves: &str) -> Result<AnyGame, PositionError> {
                match self {
                    $(Self::$variant => <$game>::from_moves(moves).map(AnyGame::$variant),)*
                }
            }
        }

        /// A position of a game of the catalogue, ready to search: the game, whichever it is.
        /// `with_any_game!` runs generic code on it.
        #[derive(Clone, Debug)]
        pub enum AnyGame {
            $($(#[doc = $doc])* $variant($game),)*
        }

        impl AnyGame {
            /// Which game it is.
            #[must_use]
            pub const fn known(&self) -> KnownGame {
                match self {
                    $(Self::$variant(_) => KnownGame::$variant,)*
                }
            }

            /// The game's row.
            #[must_use]
            pub const fn info(&self) -> &'static GameInfo {
                self.known().info()
            }

            /// One line saying what is searched, `moves` being the position as given.
            #[must_use]
            pub fn describe(&self, moves: &str) -> String {
                match self {
                    $(Self::$variant(game) => {
                        let detail: fn(&$game) -> String = $detail;
                        format!("{} after '{moves}'{}, {} to move", $title, detail(game), game.to_move(&game.root()))
                    })*
                }
            }
        }

        /// Runs `$body` with `$game` bound to the game an [`AnyGame`] holds, whatever its type.
        #[macro_export]
        macro_rules! with_any_game {
            ($d any:expr, $d game:ident => $d body:expr) => {
                match $d any {
                    $($crate::registry::games::AnyGame::$variant($d game) => $d body,)*
                }
            };
        }
    };
}

games! { $
    /// Noughts and crosses ([`TicTacToe`]): small enough for plain minimax.
    TicTacToe(TicTacToe) {
        name: "tictactoe",
        title: "tic-tac-toe",
        position: "the squares played, 1-9 row by row (`5`, `159`)",
        reference: Minimax,
        default_drivers: "all",
        values: (-1, 1),
        detail: |_| String::new(),
    }
    /// Connect Four, 7×6 ([`Connect4`]), Pascal Pons' notation and score. Far too large for plain
    /// minimax: valued by the optimized `mtd-pons` (the driver of Pons' solver), which the tests hold
    /// to minimax on every tree and to Pons' scores on all four of his sets.
    Connect4(Connect4) {
        name: "connect4",
        title: "Connect Four",
        position: "the columns played, 1-7, in Pascal Pons' notation (`4453`)",
        reference: MtdPons,
        default_drivers: "optimized",
        values: (-18, 18),
        detail: |game| format!(" ({} stones)", game.stones()),
    }
    // ANCHOR: row
    /// Nim on one heap of 21 stones, take 1 to 3 ([`Nim`]): 44 positions, reached by hundreds of
    /// thousands of move orders.
    Nim(Nim) {
        name: "nim",
        title: "Nim",
        position: "the stones taken from a heap of 21, 1-3 each (`312`)",
        reference: Minimax,
        default_drivers: "all",
        values: (-1, 1),
        detail: |game| format!(" ({} stones left)", game.stones()),
    }
    // ANCHOR_END: row
}
