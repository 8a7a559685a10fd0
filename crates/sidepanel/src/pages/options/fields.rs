//! The provider form's inputs, and moving values between them and `Settings`.

use crate::dom;
use dusk_core::llm::ProviderKind;
use dusk_core::settings::{ProviderSettings, Settings};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};

pub struct Fields {
    pub provider: HtmlSelectElement,
    model: HtmlInputElement,
    base_url: HtmlInputElement,
    api_key: HtmlInputElement,
    tools: HtmlSelectElement,
    vision: HtmlSelectElement,
    /// On-device only: "let the on-device model drive agents".
    drive_agents: HtmlInputElement,
}

fn tri_state(v: Option<bool>) -> &'static str {
    match v {
        None => "auto",
        Some(true) => "yes",
        Some(false) => "no",
    }
}

fn parse_tri_state(s: &str) -> Option<bool> {
    match s {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

impl Fields {
    pub fn build(form: &Element) -> Result<Fields, JsValue> {
        let mut kinds = vec![("", dusk_chrome::i18n::message("providerNone"))];
        kinds.extend(ProviderKind::ALL.iter().map(|k| (k.as_str(), k.display_name().to_string())));
        let auto = || vec![("auto", dusk_chrome::i18n::message("auto")), ("yes", dusk_chrome::i18n::message("yes")), ("no", dusk_chrome::i18n::message("no"))];
        let fields = Fields {
            provider: dom::select(form, "provider", "provider", &kinds)?,
            model: dom::input(form, "model", "model", "text")?,
            base_url: dom::input(form, "base-url", "baseUrl", "url")?,
            api_key: dom::input(form, "api-key", "apiKey", "password")?,
            tools: dom::select(form, "tools", "functionCalling", &auto())?,
            vision: dom::select(form, "vision", "vision", &auto())?,
            drive_agents: dom::input(form, "on-device-agents", "onDeviceDriveAgents", "checkbox")?,
        };
        if let Some(row) = fields.drive_agents.parent_element() {
            row.set_class_name("field check");
        }
        Ok(fields)
    }

    /// Shows the active provider, or an empty choice when none is set.
    pub fn show(&self, settings: &Settings) {
        self.provider.set_value(settings.provider.map(|k| k.as_str()).unwrap_or(""));
        self.switch_provider(settings);
    }

    /// Fills the inputs with the stored values for the selected kind, so each keeps its own key.
    pub fn switch_provider(&self, settings: &Settings) {
        let kind = ProviderKind::parse(&self.provider.value());
        // Chrome's model has no key, no URL and no native tools; only it has the agents switch.
        let on_device = kind.is_some_and(|k| k.is_on_device());
        for (input, hidden) in [(&self.model, on_device), (&self.base_url, on_device), (&self.api_key, on_device), (&self.drive_agents, !on_device)] {
            if let Some(row) = input.parent_element() {
                let _ = row.toggle_attribute_with_force("hidden", hidden);
            }
        }
        if let Some(row) = self.tools.parent_element() {
            let _ = row.toggle_attribute_with_force("hidden", on_device);
        }
        let Some(kind) = kind else {
            for input in [&self.model, &self.base_url, &self.api_key] {
                input.set_value("");
            }
            return;
        };
        let p = settings.provider_settings(kind);
        self.model.set_value(&p.model);
        self.model.set_placeholder(kind.default_model());
        self.offer_models(kind);
        self.base_url.set_value(&p.base_url);
        self.base_url.set_placeholder(kind.default_base_url());
        self.api_key.set_value(&p.api_key);
        self.tools.set_value(tri_state(p.supports_tools));
        self.vision.set_value(tri_state(p.supports_vision));
        self.drive_agents.set_checked(p.drive_agents);
    }

    /// The model field suggests the kind's known models (a datalist; any name may be typed).
    fn offer_models(&self, kind: ProviderKind) {
        let Ok(document) = dom::document() else { return };
        let list = match document.get_element_by_id("model-options") {
            Some(l) => l,
            None => match document.create_element("datalist") {
                Ok(l) => {
                    l.set_id("model-options");
                    let _ = self.model.after_with_node_1(&l);
                    let _ = self.model.set_attribute("list", "model-options");
                    l
                }
                Err(_) => return,
            },
        };
        list.set_inner_html("");
        for model in kind.known_models() {
            if let Ok(option) = document.create_element("option") {
                let _ = option.set_attribute("value", model);
                let _ = list.append_child(&option);
            }
        }
    }

    /// The provider as the form shows it; None when no provider is chosen.
    pub fn read(&self) -> Option<ProviderSettings> {
        let kind = ProviderKind::parse(&self.provider.value())?;
        Some(ProviderSettings {
            kind,
            model: self.model.value().trim().to_string(),
            base_url: self.base_url.value().trim().to_string(),
            api_key: self.api_key.value().trim().to_string(),
            supports_tools: parse_tri_state(&self.tools.value()),
            supports_vision: parse_tri_state(&self.vision.value()),
            drive_agents: kind.is_on_device() && self.drive_agents.checked(),
        })
    }

    /// Writes the form into `settings` and returns a copy to save.
    pub fn apply(&self, settings: &mut Settings) -> Settings {
        match self.read() {
            Some(p) => {
                settings.provider = Some(p.kind);
                settings.set_provider_settings(p);
            }
            None => settings.provider = None,
        }
        settings.clone()
    }
}
