//! What a busy page's batches add joins the scope's sorted lists once each, in order.
use dusk_core::dark::theme::MAX_KNOWN_MARKUP;
use dusk_core::dark::{Attr, Scope};

fn attr(name: &str, value: &str) -> Attr {
    Attr { name: name.into(), value: value.into() }
}

#[test]
fn a_few_new_values_join_in_order_and_a_value_seen_before_is_not_added_twice() {
    let mut scope = Scope { inline_styles: vec!["color: red".into(), "color: teal".into()], attrs: vec![attr("bgcolor", "#fff")], ..Default::default() };
    scope.merge_markup(vec!["color: blue".into(), "color: red".into(), "color: white".into()], vec![attr("bgcolor", "#000"), attr("bgcolor", "#fff")]);
    assert_eq!(scope.inline_styles, ["color: blue", "color: red", "color: teal", "color: white"]);
    assert_eq!(scope.attrs, [attr("bgcolor", "#000"), attr("bgcolor", "#fff")]);
}

#[test]
fn a_large_batch_gives_the_same_sorted_list_of_distinct_values() {
    let mut scope = Scope { inline_styles: (0..50).map(|i| format!("color: #{i:06}")).collect(), ..Default::default() };
    let batch: Vec<String> = (25..125).rev().map(|i| format!("color: #{i:06}")).collect();
    scope.merge_markup(batch, Vec::new());
    let want: Vec<String> = (0..125).map(|i| format!("color: #{i:06}")).collect();
    assert_eq!(scope.inline_styles, want);
}

#[test]
fn a_feed_writing_a_new_value_per_card_keeps_the_list_bounded_and_sorted() {
    let mut scope = Scope::default();
    for card in 0..3 * MAX_KNOWN_MARKUP {
        scope.merge_markup(vec![format!("width: {card}px; background: teal"), "color: white".into()], Vec::new());
        assert!(scope.inline_styles.len() <= MAX_KNOWN_MARKUP, "{} values after card {card}", scope.inline_styles.len());
    }
    assert!(scope.inline_styles.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
}
