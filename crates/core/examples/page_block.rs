//! The chat's page block of each saved page read (a page_text reply with blocks, as JSON files
//! given as arguments) at the one-tab budget, printed as one JSON object: file → block.
fn main() {
    let mut out = serde_json::Map::new();
    for file in std::env::args().skip(1) {
        let Ok(json) = std::fs::read_to_string(&file) else { continue };
        let Ok(page) = serde_json::from_str::<dusk_core::protocol::page::PageText>(&json) else {
            eprintln!("{file}: not a page read");
            continue;
        };
        let block = dusk_core::page::snapshot::text_snapshot(&page, 12_000).block;
        out.insert(file, block.into());
    }
    println!("{}", serde_json::Value::Object(out));
}
