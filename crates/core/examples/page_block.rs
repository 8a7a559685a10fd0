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
        // DUSK_TIMES=n: the median time of n snapshots of this read, on stderr (DUSK_READ_ONLY: of the reader alone).
        if let Some(n) = std::env::var("DUSK_TIMES").ok().and_then(|n| n.parse::<usize>().ok()) {
            let mut ms: Vec<f64> = (0..n.max(1))
                .map(|_| {
                    let t = std::time::Instant::now();
                    if std::env::var("DUSK_READ_ONLY").is_ok() {
                        std::hint::black_box(dusk_core::page::reader::read(&page.boxes, &page.blocks));
                    } else {
                        std::hint::black_box(dusk_core::page::snapshot::text_snapshot(&page, 12_000));
                    }
                    t.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            eprintln!("{file}: {:.2} ms", ms[ms.len() / 2]);
        }
        out.insert(file, block.into());
    }
    println!("{}", serde_json::Value::Object(out));
}
