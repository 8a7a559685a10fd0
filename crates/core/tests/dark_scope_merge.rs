//! What a busy page's batches add joins the scope's sorted lists once each, in order.
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
