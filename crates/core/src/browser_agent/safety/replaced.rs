//! Effects, not words: what a submit would do to text the page already had. The run keeps each
//! field's length as the page first showed it to the run (before any edit of the run's); a
//! submit of that field's form that would send it with more than `REPLACED_CHARS` of that text
//! gone needs a card, whatever the button says. DokuWiki, for one, deletes a page saved empty.

use serde::{Deserialize, Serialize};

/// More than this many characters of a field's own text gone is a replacement worth a card.
pub const REPLACED_CHARS: u32 = 200;
/// Fields kept per run: the oldest go first.
const KEPT: usize = 32;

/// A text field the run has touched, as the page first showed it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// The document it lives in (content script's `doc`): another document's index is another field.
    pub doc: String,
    pub index: u32,
    /// Its value's length in characters before the run's first edit.
    pub before: u32,
    /// Its form's selector; None outside any form.
    #[serde(default)]
    pub form: Option<String>,
    /// Its name on the page, for the card.
    #[serde(default)]
    pub name: String,
}

/// The fields the run has touched, kept in the run's checkpoint.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Fields {
    #[serde(default)]
    pub fields: Vec<Field>,
}

impl Fields {
    /// Keeps `field` if the run has not seen it yet: the first length seen is the page's own.
    pub fn saw(&mut self, field: Field) {
        if self.fields.iter().any(|f| f.doc == field.doc && f.index == field.index) {
            return;
        }
        if self.fields.len() >= KEPT {
            self.fields.remove(0);
        }
        self.fields.push(field);
    }

    /// The fields of `doc` that `sent` sends.
    pub fn sent_with<'a>(&'a self, doc: &'a str, sent: Sent<'a>) -> impl Iterator<Item = &'a Field> + 'a {
        self.fields.iter().filter(move |f| {
            f.doc == doc
                && match sent {
                    Sent::Form(form) => f.form.as_deref() == form,
                    Sent::Any => true,
                }
        })
    }
}

/// What a submit sends: the fields of one form (None: the fields outside any form), or, for
/// Enter with no field named, any of the document's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sent<'a> {
    Form(Option<&'a str>),
    Any,
}

/// What a submit does to one field's text: `before` characters the page had, `now` it would send.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Replacement {
    pub index: u32,
    /// The field's name on the page (may be empty).
    pub name: String,
    pub before: u32,
    pub now: u32,
}

impl Replacement {
    /// More than `REPLACED_CHARS` of the page's own text would be gone.
    pub fn replaces(&self) -> bool {
        self.before > self.now && self.before - self.now > REPLACED_CHARS
    }

    /// Why the card asks, for the card and the model.
    pub fn reason(&self) -> String {
        let field = if self.name.trim().is_empty() { format!("field [{}]", self.index) } else { format!("“{}”", self.name.trim()) };
        format!("submits {field} with {} of its {} characters gone", self.before - self.now, self.before)
    }
}

/// The replacement with the most text gone among `now` (index and length now) of `fields`, if
/// any is more than `REPLACED_CHARS`.
pub fn worst<'a>(fields: impl Iterator<Item = &'a Field>, now: &[(u32, u32)]) -> Option<Replacement> {
    fields
        .filter_map(|f| {
            let (_, len) = now.iter().find(|(i, _)| *i == f.index)?;
            Some(Replacement { index: f.index, name: f.name.clone(), before: f.before, now: *len })
        })
        .filter(Replacement::replaces)
        .max_by_key(|r| r.before - r.now)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(index: u32, before: u32, form: Option<&str>) -> Field {
        Field { doc: "d1".into(), index, before, form: form.map(str::to_string), name: "Page text".into() }
    }

    #[test]
    fn clearing_or_replacing_more_than_200_characters_is_a_replacement() {
        let r = |before, now| Replacement { index: 3, name: String::new(), before, now };
        assert!(r(4120, 0).replaces(), "cleared");
        assert!(r(4120, 12).replaces(), "replaced by a few words");
        assert!(r(201, 0).replaces());
        assert!(!r(200, 0).replaces(), "200 characters or fewer is not asked about");
        assert!(!r(4120, 4000).replaces(), "an edit that keeps most of the text");
        assert!(!r(10, 5000).replaces(), "adding text replaces nothing");
        assert_eq!(r(4120, 12).reason(), "submits field [3] with 4108 of its 4120 characters gone");
    }

    #[test]
    fn the_first_length_seen_is_kept_and_only_the_submitted_form_counts() {
        let mut fields = Fields::default();
        fields.saw(field(3, 4120, Some("form#edit")));
        // Seen again after the run cleared it: still the page's own length.
        fields.saw(field(3, 0, Some("form#edit")));
        fields.saw(field(9, 300, Some("form#search")));
        assert_eq!(fields.fields.len(), 2);
        let now = [(3, 0), (9, 0)];
        let edit = worst(fields.sent_with("d1", Sent::Form(Some("form#edit"))), &now).expect("the edit form clears 4,120 characters");
        assert_eq!((edit.index, edit.before, edit.now, edit.name.as_str()), (3, 4120, 0, "Page text"));
        assert_eq!(worst(fields.sent_with("d1", Sent::Form(Some("form#search"))), &[(9, 250)]), None, "50 characters gone");
        assert_eq!(worst(fields.sent_with("d2", Sent::Any), &now), None, "another document's fields are other fields");
        assert_eq!(worst(fields.sent_with("d1", Sent::Any), &now).map(|r| r.index), Some(3), "Enter with no field judges them all");
        assert_eq!(worst(fields.sent_with("d1", Sent::Form(None)), &now), None, "a button outside any form sends neither");
        assert_eq!(worst(fields.sent_with("d1", Sent::Form(Some("form#edit"))), &[]), None, "a field no longer on the page sends nothing");
    }

    #[test]
    fn a_run_keeps_a_bounded_number_of_fields() {
        let mut fields = Fields::default();
        for i in 0..100 {
            fields.saw(field(i, 1000, None));
        }
        assert_eq!(fields.fields.len(), KEPT);
        assert_eq!(fields.fields[0].index, 100 - KEPT as u32);
    }
}
