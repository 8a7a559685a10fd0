//! Four labelled sliders for brightness, contrast, sepia and grayscale, shared by the popup (a
//! site's own) and options (every site's default).

use crate::dom;
use dusk_chrome::i18n;
use dusk_core::dark::adjust::{slider_reading, Adjust, AMOUNT_RANGE, PERCENT_RANGE};
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlInputElement};

/// The four range inputs, in the order brightness, contrast, sepia, grayscale.
#[derive(Clone)]
pub struct Sliders {
    inputs: Vec<(HtmlInputElement, Element)>,
}

const CONTROLS: [(&str, &str, (u8, u8)); 4] = [
    ("brightness", "darkAdjustBrightness", PERCENT_RANGE),
    ("contrast", "darkAdjustContrast", PERCENT_RANGE),
    ("sepia", "darkAdjustSepia", AMOUNT_RANGE),
    ("grayscale", "darkAdjustGrayscale", AMOUNT_RANGE),
];

fn values(a: Adjust) -> [u8; 4] {
    [a.brightness, a.contrast, a.sepia, a.grayscale]
}

/// Appends the sliders to `parent`; ids are `{prefix}-brightness` and so on.
pub fn render(parent: &Element, prefix: &str, adjust: Adjust) -> Result<Sliders, JsValue> {
    let mut inputs = Vec::new();
    for (((name, key, (min, max)), value), neutral) in CONTROLS.into_iter().zip(values(adjust)).zip(values(Adjust::default())) {
        let row = dom::append(parent, "div", "adjust-row", "")?;
        let id = format!("{prefix}-{name}");
        let label = dom::append_i18n(&row, "label", "", key)?;
        label.set_attribute("for", &id)?;
        let input: HtmlInputElement = dom::append(&row, "input", "", "")?.dyn_into()?;
        input.set_type("range");
        input.set_id(&id);
        input.set_min(&min.to_string());
        input.set_max(&max.to_string());
        input.set_step("5");
        input.set_value(&value.to_string());
        input.set_attribute("data-neutral", &neutral.to_string())?;
        let output = dom::append(&row, "output", "", "")?;
        output.set_id(&format!("{id}-value"));
        output.set_attribute("for", &id)?;
        show_value(&input, &output);
        inputs.push((input, output));
    }
    let sliders = Sliders { inputs };
    let shown = sliders.clone();
    sliders.on("input", move |_| shown.inputs.iter().for_each(|(i, o)| show_value(i, o)))?;
    Ok(sliders)
}

/// "Off" at the default, else "+10" / "−20"; the slider's spoken value says the same.
fn show_value(input: &HtmlInputElement, output: &Element) {
    let value = input.value().parse::<u8>().unwrap_or_default();
    let neutral = input.get_attribute("data-neutral").and_then(|n| n.parse::<u8>().ok()).unwrap_or_default();
    let text = slider_reading(value, neutral).unwrap_or_else(|| i18n::message("darkAdjustOff"));
    output.set_text_content(Some(&text));
    let _ = input.set_attribute("aria-valuetext", &text);
}

impl Sliders {
    pub fn value(&self) -> Adjust {
        let n = |i: usize| self.inputs[i].0.value().parse::<u8>().unwrap_or(values(Adjust::default())[i]);
        Adjust { brightness: n(0), contrast: n(1), sepia: n(2), grayscale: n(3) }.clamped()
    }

    pub fn set(&self, adjust: Adjust) {
        for ((input, output), v) in self.inputs.iter().zip(values(adjust)) {
            input.set_value(&v.to_string());
            show_value(input, output);
        }
    }

    /// Calls `f` with the sliders' value on every `event` ("input" while dragging, "change" on release).
    pub fn on(&self, event: &str, f: impl Fn(Adjust) + 'static) -> Result<(), JsValue> {
        let f = std::rc::Rc::new(f);
        for (input, _) in &self.inputs {
            let (f, me) = (f.clone(), self.clone());
            dom::on(input, event, move || f(me.value()))?;
        }
        Ok(())
    }
}

/// The muted line under the sliders: the AA promise.
pub fn aa_note(parent: &Element) -> Result<(), JsValue> {
    dom::append(parent, "p", "note", &i18n::message("darkAdjustAaNote")).map(|_| ())
}
