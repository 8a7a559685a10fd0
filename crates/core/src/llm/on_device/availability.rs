//! `LanguageModel.availability()`, plus "absent": this browser has no Prompt API at all.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    /// No `LanguageModel` here (another browser, an older Chrome, Chromium without the model).
    Absent,
    /// The device can't run the model (hardware, disk, policy).
    Unavailable,
    /// It can, after a download the user starts from Options.
    Downloadable,
    Downloading,
    Available,
}

impl Availability {
    /// The API's answer; anything it may add later counts as not ready.
    pub fn parse(s: &str) -> Availability {
        match s {
            "available" => Availability::Available,
            "downloadable" => Availability::Downloadable,
            "downloading" => Availability::Downloading,
            _ => Availability::Unavailable,
        }
    }

    /// Whether the option can be chosen at all: the model exists or can be downloaded.
    pub fn selectable(self) -> bool {
        !matches!(self, Availability::Absent | Availability::Unavailable)
    }

    /// Whether Options offers the Download button.
    pub fn downloadable(self) -> bool {
        matches!(self, Availability::Downloadable | Availability::Downloading)
    }

    /// The `_locales` key of the line Options shows.
    pub fn message_key(self) -> &'static str {
        match self {
            Availability::Absent => "onDeviceAbsent",
            Availability::Unavailable => "onDeviceUnavailable",
            Availability::Downloadable => "onDeviceDownloadable",
            Availability::Downloading => "onDeviceDownloading",
            Availability::Available => "onDeviceAvailable",
        }
    }

    /// Why a run can't start now, said so the user knows what to do; None when it can.
    pub fn refusal(self) -> Option<&'static str> {
        match self {
            Availability::Available => None,
            Availability::Absent => Some("this browser has no built-in model (Prompt API). Choose another provider in Options."),
            Availability::Unavailable => Some("Chrome says this device can't run it now. Choose another provider in Options."),
            Availability::Downloadable => Some("the model has not been downloaded yet. Press Download in Options."),
            Availability::Downloading => Some("Chrome is still downloading the model. Try again when Options says it is ready."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_answers_map_to_what_options_offers() {
        assert_eq!(Availability::parse("available"), Availability::Available);
        assert_eq!(Availability::parse("after-download"), Availability::Unavailable);
        assert!(!Availability::Absent.selectable() && !Availability::Unavailable.selectable());
        assert!(Availability::Downloadable.selectable() && Availability::Downloadable.downloadable());
        assert!(!Availability::Available.downloadable());
        assert_eq!(Availability::Available.refusal(), None);
        assert!(Availability::Downloadable.refusal().unwrap().contains("Download"));
        assert_eq!(serde_json::to_value(Availability::Absent).unwrap(), "absent");
    }
}
