//! The examples' input: a scope of the CSS files named on the command line.

pub fn scope_from_args() -> dusk_core::dark::Scope {
    // The first argument is the program's own name.
    let paths: Vec<String> = std::env::args().collect();
    let sheets =
        paths[1..].iter().filter_map(|p| std::fs::read_to_string(p).ok()).map(|css| dusk_core::dark::Sheet { css: css.into(), media: String::new() }).collect();
    dusk_core::dark::Scope { sheets, ..Default::default() }
}
