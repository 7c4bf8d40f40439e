//! Lets cargo see agent files added to or removed from the support desk's
//! folders, which the `agents!` macro cannot watch on stable Rust.

fn main() {
    println!("cargo:rerun-if-changed=../support-desk/agents");
    println!("cargo:rerun-if-changed=../support-desk/.agents");
    println!("cargo:rustc-env=AGENTC_TRACKED=../support-desk/agents,../support-desk/.agents");
}
