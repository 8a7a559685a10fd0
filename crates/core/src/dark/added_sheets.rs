//! When to fold the sheets of rules a busy page added after its theme. Each batch's mirrored
//! rules go in a sheet of their own (an edit to a sheet restyles every element its rules match);
//! a run of `FOLD_RUN` sheets of one level at the end becomes one sheet of the next level, so a
//! scope keeps a few sheets per level and each rule is folded at most once per level, where
//! folding everything into one sheet restyled every element of every rule added so far.

/// Sheets of one level a scope keeps at its end before they become one of the next level.
pub const FOLD_RUN: usize = 16;

/// The start of the run at the end of `levels` (each added sheet's level, in cascade order; a
/// batch's own sheet is level 0) to fold into one sheet of the next level, if there is one.
pub fn fold_from(levels: &[u8]) -> Option<usize> {
    let last = *levels.last()?;
    let run = levels.iter().rev().take_while(|&&l| l == last).count();
    (run >= FOLD_RUN).then(|| levels.len() - run)
}
