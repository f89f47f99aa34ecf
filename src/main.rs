//! The `pushcrate` binary; see [`pushcrate::cli`].

fn main() -> std::process::ExitCode {
    pushcrate::cli::main()
}
