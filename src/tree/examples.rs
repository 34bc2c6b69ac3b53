//! Small trees used by the documentation, the demo and the tests.

/// The example from the format's definition: a MAX root over three MIN nodes. Its value is 15.
pub const FORMAT_EXAMPLE: &str = "((3 17) (2 12) (15 (25 0)))";

/// The tree `nullwindow` searches when run without arguments: three plies, width three, so that
/// alpha-beta prunes and null-window drivers need several passes. Its value is 7.
pub const TEACHING_TREE: &str =
    "(((8 5 2) (9 7 1) (4 6 3)) ((2 1 6) (3 9 8) (7 4 5)) ((6 9 2) (1 5 8) (3 7 4)))";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::minimax;
    use crate::tree::Tree;

    #[test]
    fn stated_values_are_the_minimax_values() {
        for (source, value) in [(FORMAT_EXAMPLE, 15), (TEACHING_TREE, 7)] {
            let tree: Tree = source.parse().unwrap();
            assert_eq!(minimax::search(&tree, &tree.root_id(), u32::MAX).value, value, "{source}");
        }
    }
}
