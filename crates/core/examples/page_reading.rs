//! Prints how core's reader reads one saved page read (a page_text reply with blocks, JSON): each
//! block with its box path, size, link text, font, and whether it is main content or which part.
fn main() {
    let file = std::env::args().nth(1).expect("a page read's JSON file");
    let page: dusk_core::protocol::page::PageText = serde_json::from_str(&std::fs::read_to_string(file).expect("readable")).expect("a page read");
    let reading = dusk_core::page::reader::read(&page.boxes, &page.blocks);
    let mut owner = vec![String::from("?"); page.blocks.len()];
    for &k in &reading.main {
        owner[k] = "MAIN".into();
    }
    for (n, p) in reading.parts.iter().enumerate() {
        for &k in &p.blocks {
            owner[k] = format!("[{}]{}", n + 1, p.kind.label());
        }
    }
    for (k, b) in page.blocks.iter().enumerate() {
        let mut path = Vec::new();
        let mut at = Some(b.parent as usize);
        while let Some(i) = at {
            let x = &page.boxes[i];
            path.push(format!(
                "{}#{}{}",
                x.tag,
                i,
                if x.name.is_empty() { String::new() } else { format!(".{}", x.name.split_whitespace().take(2).collect::<Vec<_>>().join(".")) }
            ));
            at = x.parent.map(|p| p as usize);
        }
        path.reverse();
        let text: String = b.text.as_deref().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ").chars().take(70).collect();
        println!(
            "{k:4} {:11} h{} c{:5} l{:5} n{:3} f{:4.1} x{:5.0} w{:5.0} y{:6.0} | {:70} | {}",
            owner[k],
            b.heading,
            b.chars,
            b.link_chars,
            b.links,
            b.font,
            b.rect[0],
            b.rect[2],
            b.rect[1],
            text,
            path.iter().rev().take(4).rev().cloned().collect::<Vec<_>>().join(" > ")
        );
    }
}
