// Each frame that runs a layer allocates (and zero-fills) the whole initial memory, which is
// mostly the shadow stack: 256 KB instead of the default 1 MB is ample for these layers.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=262144");
    }
}
