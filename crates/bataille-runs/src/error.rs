//! The error of a run's files: a message that names the file and what was being done, and the
//! error underneath (an I/O error, a state that does not decode). Shown as `message: source`
//! by a caller that prints the chain (the command line prints `{:#}` of an `anyhow` error).

use std::fmt;

/// A refused or failed step of a run, with what caused it.
#[derive(Debug)]
pub struct Error {
    /// The message; `None` for an error passed on as it is ([`Error::new`]).
    message: Option<String>,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

/// The result of this crate's steps.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of its own: the message says it all.
    pub fn msg(message: impl Into<String>) -> Error {
        Error { message: Some(message.into()), source: None }
    }

    /// Another error passed on as it is: shown as it shows itself, with its own causes.
    pub fn new(e: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error { message: None, source: Some(Box::new(e)) }
    }

    /// Whether the error underneath is an `E`: a refused question, say, rather than a file
    /// that could not be read.
    pub fn is<E: std::error::Error + 'static>(&self) -> bool {
        self.source.as_deref().is_some_and(|e| e.is::<E>())
    }

    /// The message and every cause after it, as `message: cause: ...`.
    pub fn chain(&self) -> String {
        let mut text = self.to_string();
        let mut next = std::error::Error::source(self);
        while let Some(e) = next {
            text.push_str(": ");
            text.push_str(&e.to_string());
            next = e.source();
        }
        text
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.message, &self.source) {
            (Some(m), _) => f.write_str(m),
            (None, Some(e)) => e.fmt(f),
            (None, None) => Ok(()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        let source = self.source.as_deref().map(|e| e as &(dyn std::error::Error + 'static));
        if self.message.is_some() { source } else { source.and_then(|e| e.source()) }
    }
}

impl From<std::io::Error> for Error {
    /// An I/O error on its own, shown as it is.
    fn from(e: std::io::Error) -> Error {
        Error::msg(e.to_string())
    }
}

/// Says what was being done when a step failed, as `anyhow`'s `Context` does.
pub trait Context<T> {
    /// The error, under `message`.
    fn context(self, message: impl Into<String>) -> Result<T>;
    /// The error, under the message `f` makes (only on failure).
    fn with_context<M: Into<String>>(self, f: impl FnOnce() -> M) -> Result<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> Context<T> for std::result::Result<T, E> {
    fn context(self, message: impl Into<String>) -> Result<T> {
        self.map_err(|e| Error { message: Some(message.into()), source: Some(Box::new(e)) })
    }

    fn with_context<M: Into<String>>(self, f: impl FnOnce() -> M) -> Result<T> {
        self.map_err(|e| Error { message: Some(f().into()), source: Some(Box::new(e)) })
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, message: impl Into<String>) -> Result<T> {
        self.ok_or_else(|| Error::msg(message))
    }

    fn with_context<M: Into<String>>(self, f: impl FnOnce() -> M) -> Result<T> {
        self.ok_or_else(|| Error::msg(f()))
    }
}

/// Returns an [`Error`] made by `format!`.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::Error::msg(format!($($arg)*)))
    };
}
pub(crate) use bail;

/// An [`Error`] made by `format!`.
macro_rules! error {
    ($($arg:tt)*) => {
        $crate::Error::msg(format!($($arg)*))
    };
}
pub(crate) use error;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_come_after_the_message() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = Err::<(), _>(io).context("cannot read x.csv").context("cannot resume").unwrap_err();
        assert_eq!(e.to_string(), "cannot resume");
        assert_eq!(e.chain(), "cannot resume: cannot read x.csv: no such file");
        assert_eq!(None::<u8>.context("nothing there").unwrap_err().chain(), "nothing there");
        let passed = Error::new(e);
        assert_eq!(passed.to_string(), "cannot resume");
        assert_eq!(passed.chain(), "cannot resume: cannot read x.csv: no such file");
    }
}
