//! Sealed text: the checksummed form of every state file of the workspace (checkpoints, merged
//! states, the census and blocks states, the record-search state).
//!
//! A sealed text is a body of lines, its first line naming the format and its version, then a
//! last line `checksum H` where H is the 64-bit FNV-1a hash of the body, in hexadecimal.
//! [`open`] refuses a text whose first line is not the expected one, or whose checksum does not
//! match (a torn or edited file), and reads a file whose line ends were turned into CRLF (by a
//! checkout on Windows, say), or whose last line lost its line end (by an editor), as the same
//! file.
//!
//! ```
//! use bataille_search::sealed::{open, seal, SealError};
//!
//! let text = seal("my state v1\ndone 3\n");
//! assert!(text.starts_with("my state v1\ndone 3\nchecksum "));
//! assert_eq!(open(&text, "my state v1").unwrap(), "my state v1\ndone 3\n");
//! assert_eq!(open(&text.replace('\n', "\r\n"), "my state v1").unwrap(), "my state v1\ndone 3\n");
//! assert_eq!(open(text.trim_end(), "my state v1").unwrap(), "my state v1\ndone 3\n");
//! assert_eq!(open(&text.replace("done 3", "done 4"), "my state v1"), Err(SealError::Checksum));
//! assert!(matches!(open(&text, "other v1"), Err(SealError::Format { .. })));
//! ```

use std::borrow::Cow;

/// Why a sealed text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// The first line is not the format expected.
    #[error("it is not a {expected:?} file (its first line is {found:?})")]
    Format {
        /// The first line expected.
        expected: String,
        /// The first line found (cut short).
        found: String,
    },
    /// No checksum line, or one that does not match the content.
    #[error("its checksum does not match its content (a torn or edited file)")]
    Checksum,
}

/// The 64-bit FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `body` (lines, each ending with `\n`) followed by its checksum line.
pub fn seal(body: &str) -> String {
    debug_assert!(body.ends_with('\n'), "a body of whole lines");
    format!("{body}checksum {:016x}\n", fnv1a(body.as_bytes()))
}

/// The body of the sealed `text`, checked: its first line is `magic` and its checksum
/// matches. CRLF line ends are read as LF.
pub fn open<'a>(text: &'a str, magic: &str) -> Result<Cow<'a, str>, SealError> {
    let text: Cow<'a, str> = if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    };
    let first = text.lines().next().unwrap_or("");
    if first != magic {
        let found: String = first.chars().take(60).collect();
        return Err(SealError::Format { expected: magic.to_string(), found });
    }
    let body_end = text.rfind("checksum ").ok_or(SealError::Checksum)?;
    let saved = text[body_end..]
        .strip_prefix("checksum ")
        .map(|t| t.strip_suffix('\n').unwrap_or(t))
        .and_then(|t| u64::from_str_radix(t, 16).ok());
    let body_ok = body_end > 0 && text.as_bytes()[body_end - 1] == b'\n';
    if !body_ok || saved != Some(fnv1a(&text.as_bytes()[..body_end])) {
        return Err(SealError::Checksum);
    }
    Ok(match text {
        Cow::Borrowed(t) => Cow::Borrowed(&t[..body_end]),
        Cow::Owned(mut t) => {
            t.truncate(body_end);
            Cow::Owned(t)
        }
    })
}
