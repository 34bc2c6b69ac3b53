//! The literal translations against plain minimax.
