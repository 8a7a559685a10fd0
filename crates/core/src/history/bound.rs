//! The bound on kept items: past `LIMITS` the oldest go first (`Index::put`), and the index counts
//! them so the panel can say so. One run's thumbnails are cut before the run is kept (`ITEM_BYTES`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    pub max_items: usize,
    pub max_bytes: u64,
}

/// 100 items or 8 MB, whichever comes first (the newest item always stays).
pub const LIMITS: Limits = Limits { max_items: 100, max_bytes: 8 * 1024 * 1024 };

/// One kept run at most: its oldest thumbnails are dropped past this.
pub const ITEM_BYTES: usize = 400 * 1024;
