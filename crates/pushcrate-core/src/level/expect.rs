//! What a level's designer expects of it (`expect = [...]`, format version
//! 2): level tests that `pushcrate analyze --verify` checks.

use std::fmt;
use std::str::FromStr;

use crate::rules::Player;

/// One expectation of a level.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expectation {
    /// `valid`: no error, of the format or of the analysis.
    Valid,
    /// `no-warnings`: no error and no warning.
    NoWarnings,
    /// `finding:CODE`: the analysis or the format reports this code (a
    /// level kept flawed on purpose names its flaw).
    Finding(String),
    /// `unwinnable`: the flag can never be brought home (the analysis finds
    /// the level invalid, A000, or a route walled off, A001).
    Unwinnable,
    /// `decided:N`: the solver proves that player N forces a win from the
    /// start, as the balance check's first step does.
    Decided(Player),
    /// `balanced`: the default balance check calls the level balanced.
    Balanced,
    /// `unbalanced:N`: the default balance check finds player N ahead (or
    /// the solver proves player N's forced win).
    Unbalanced(Player),
}

impl Expectation {
    /// Every form, as the format and its error messages list them.
    pub const FORMS: &'static str = "valid, no-warnings, finding:CODE, unwinnable, decided:1, decided:2, balanced, unbalanced:1, unbalanced:2";

    /// Whether checking it plays games (the balance check); the others are
    /// settled by the analysis and the solver in moments.
    #[must_use]
    pub const fn plays_games(&self) -> bool {
        matches!(self, Expectation::Balanced | Expectation::Unbalanced(_))
    }
}

/// Why an expectation could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("`{}` is not an expectation; the forms are {}", shown(text), Expectation::FORMS)]
pub struct ParseExpectationError {
    text: String,
}

/// The text as a message quotes it: at most 40 characters, escaped.
fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect::<String>().escape_debug().to_string();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn player(text: &str) -> Option<Player> {
    match text {
        "1" => Some(Player::One),
        "2" => Some(Player::Two),
        _ => None,
    }
}

impl FromStr for Expectation {
    type Err = ParseExpectationError;

    fn from_str(text: &str) -> Result<Expectation, ParseExpectationError> {
        let error = || ParseExpectationError { text: text.to_owned() };
        Ok(match text.split_once(':') {
            None => match text {
                "valid" => Expectation::Valid,
                "no-warnings" => Expectation::NoWarnings,
                "unwinnable" => Expectation::Unwinnable,
                "balanced" => Expectation::Balanced,
                _ => return Err(error()),
            },
            Some(("decided", p)) => Expectation::Decided(player(p).ok_or_else(error)?),
            Some(("unbalanced", p)) => Expectation::Unbalanced(player(p).ok_or_else(error)?),
            Some(("finding", code)) => {
                let mut chars = code.chars();
                let known = matches!(chars.next(), Some('A' | 'E' | 'W'))
                    && code.len() == 4
                    && chars.all(|c| c.is_ascii_digit());
                if !known {
                    return Err(error());
                }
                Expectation::Finding(code.to_owned())
            }
            Some(_) => return Err(error()),
        })
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expectation::Valid => f.write_str("valid"),
            Expectation::NoWarnings => f.write_str("no-warnings"),
            Expectation::Finding(code) => write!(f, "finding:{code}"),
            Expectation::Unwinnable => f.write_str("unwinnable"),
            Expectation::Decided(p) => write!(f, "decided:{}", p.number()),
            Expectation::Balanced => f.write_str("balanced"),
            Expectation::Unbalanced(p) => write!(f, "unbalanced:{}", p.number()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_back_as_written() {
        for text in Expectation::FORMS.split(", ").map(|f| f.replace("CODE", "A050")) {
            let expectation: Expectation = text.parse().unwrap();
            assert_eq!(expectation.to_string(), text);
        }
        for bad in [
            "",
            "Balanced",
            "decided:3",
            "unbalanced",
            "finding:A5",
            "finding:X050",
            "no_warnings",
            "valid:1",
        ] {
            assert!(bad.parse::<Expectation>().is_err(), "{bad}");
        }
    }
}
