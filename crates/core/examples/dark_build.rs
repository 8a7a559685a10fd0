//! Times the theme build on CSS files given as arguments (a quick native profile).
mod theme_input;
fn main() {
    let scope = theme_input::scope_from_args();
    let t = std::time::Instant::now();
    let mut len = 0;
    for _ in 0..20 {
        len = dusk_core::dark::build(std::slice::from_ref(&scope))[0].len();
    }
    println!("{} bytes out, {:.2} ms per build", len, t.elapsed().as_secs_f64() * 1000.0 / 20.0);
}
