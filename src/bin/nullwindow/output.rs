//! Standard output for every command.
//!
//! A reader that stops early (`nullwindow gen … | head -1`) closes the pipe, and Rust's `println!`
//! then panics ("failed printing to stdout: Broken pipe"). A closed pipe is no failure of the
//! command: here it ends the command quietly with status 141, as the conventional death by SIGPIPE
//! would. Any other write error (a full disk) is one `error:` line and status 2.

use std::fmt;
use std::io::{self, Write};

/// Writes `arguments` to standard output, ending the process as described above if it cannot.
pub fn write(arguments: fmt::Arguments<'_>) {
    if let Err(error) = io::stdout().lock().write_fmt(arguments) {
        fail(&error);
    }
}

/// Ends the process after a write to standard output failed with `error`.
pub fn fail(error: &io::Error) -> ! {
    if error.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    errln!("error: cannot write to standard output: {error}");
    std::process::exit(2);
}

/// `count` and the noun for it, singular for one: "1 node", "2 nodes".
pub fn counted(count: impl Into<u128>, one: &str, many: &str) -> String {
    let count = count.into();
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `print!` that ends the command quietly when standard output is closed.
macro_rules! out {
    ($($argument:tt)*) => {
        $crate::output::write(format_args!($($argument)*))
    };
}

/// `println!` that ends the command quietly when standard output is closed.
macro_rules! outln {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($argument:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($argument)*)))
    };
}

/// `eprintln!` that never panics: with standard error closed (`2>&-`) the line is lost, and the
/// command goes on to its own exit status rather than dying of the write.
macro_rules! errln {
    ($($argument:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($argument)*);
    }};
}

/// `eprint!` that never panics, as [`errln!`].
macro_rules! err {
    ($($argument:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($argument)*);
    }};
}

pub(crate) use {err, errln, out, outln};
