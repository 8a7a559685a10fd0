//! A busy page's added rules folded in levels: few sheets, and each rule refolded rarely.
use dusk_core::dark::added_sheets::{fold_from, FOLD_RUN};

/// Adds `batches` batch sheets as the content layer does; answers the final levels and how many
/// times each batch's rules were parsed again into a folded sheet.
fn run(batches: usize) -> (Vec<u8>, Vec<usize>) {
    let mut sheets: Vec<(u8, Vec<usize>)> = Vec::new();
    let mut refolds = vec![0; batches];
    for b in 0..batches {
        sheets.push((0, vec![b]));
        while let Some(from) = fold_from(&sheets.iter().map(|s| s.0).collect::<Vec<_>>()) {
            let run: Vec<_> = sheets.drain(from..).collect();
            let level = run[0].0 + 1;
            let members: Vec<usize> = run.into_iter().flat_map(|s| s.1).collect();
            members.iter().for_each(|&m| refolds[m] += 1);
            sheets.push((level, members));
        }
        let order: Vec<usize> = sheets.iter().flat_map(|s| s.1.iter().copied()).collect();
        assert_eq!(order, (0..=b).collect::<Vec<_>>(), "the rules stay in the order they were added");
    }
    (sheets.iter().map(|s| s.0).collect(), refolds)
}

#[test]
fn fewer_than_a_run_stay_as_they_are() {
    assert_eq!(fold_from(&[]), None);
    assert_eq!(fold_from(&[0; FOLD_RUN - 1]), None);
    assert_eq!(fold_from(&[1, 0, 0]), None);
}

#[test]
fn a_full_run_at_the_end_is_folded_and_only_it() {
    let mut levels = vec![1, 1];
    levels.extend([0; FOLD_RUN]);
    assert_eq!(fold_from(&levels), Some(2));
}

#[test]
fn ten_thousand_batches_keep_few_sheets_and_fold_each_rule_at_most_once_per_level() {
    let (levels, refolds) = run(10_000);
    assert!(levels.len() <= 4 * FOLD_RUN, "{} sheets", levels.len());
    assert!(levels.windows(2).all(|w| w[0] >= w[1]), "older sheets are folded further: {levels:?}");
    assert!(refolds.iter().all(|&n| n <= 4), "most folds of one rule: {:?}", refolds.iter().max());
    // Folding everything into one sheet parsed a batch's rules again ~batches/16 times.
    let total: usize = refolds.iter().sum();
    assert!(total < 10_000 * 4, "{total} rule parses in folds");
}
