//! Times the theme build on CSS files given as arguments (a quick native profile).
fn main() {
    let sheets: Vec<dusk_core::dark::Sheet> = std::env::args()
        .skip(1)
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|css| dusk_core::dark::Sheet { css: css.into(), media: String::new() })
        .collect();
    let scope = dusk_core::dark::Scope { sheets, ..Default::default() };
    let t = std::time::Instant::now();
    let mut len = 0;
    for _ in 0..20 {
        len = dusk_core::dark::build(std::slice::from_ref(&scope))[0].len();
    }
    println!("{} bytes out, {:.2} ms per build", len, t.elapsed().as_secs_f64() * 1000.0 / 20.0);
}
