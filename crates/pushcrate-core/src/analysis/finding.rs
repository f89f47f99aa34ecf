//! Findings: what the analysis reports, each with a stable code.

pub use crate::level::Severity;
use crate::rules::{Action, Bitboard, Cell};

macro_rules! finding_codes {
    ($($name:ident = $code:literal, $severity:ident, $doc:literal;)*) => {
        /// The stable code of each kind of finding; `docs/analysis.md`
        /// lists them all.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum FindingCode {
            $(#[doc = $doc] $name,)*
        }

        impl FindingCode {
            /// Every code, in order.
            pub const ALL: &'static [FindingCode] = &[$(FindingCode::$name,)*];

            /// The code as written in reports, such as `A010`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $(FindingCode::$name => $code,)* }
            }

            /// The severity of findings with this code.
            #[must_use]
            pub const fn severity(self) -> Severity {
                match self { $(FindingCode::$name => Severity::$severity,)* }
            }

            /// One line saying what the code means.
            #[must_use]
            pub const fn summary(self) -> &'static str {
                match self { $(FindingCode::$name => $doc,)* }
            }
        }
    };
}

finding_codes! {
    InvalidLevel = "A000", Error, "The level breaks the format's rules (see its E-codes) and cannot be analysed further.";
    RouteWalledOff = "A001", Error, "Walls alone cut a route: the level cannot be won by the flag.";
    RouteCutByCrates = "A002", Warning, "Initial crates cut a route; the path rule will not protect it until they break.";
    UnfairRace = "A010", Warning, "One player reaches the flag two or more actions before the other.";
    ForcedWin = "A011", Warning, "The solver proves that the player to move at the start forces a win, whatever the opponent does.";
    SureFlag = "A012", Warning, "The player to move at the start surely picks the flag up first: its way there runs over cells no crate may ever take, and the opponent cannot get in its way in time.";
    Chokepoint = "A020", Warning, "A sole-path cell lies on both players' routes: one crate fight decides both.";
    FlagInDeadEnd = "A021", Warning, "The flag lies in a dead end: one cell besides it lies on every route.";
    GoalThroughStart = "A022", Warning, "A player's goal is reachable only through the opponent's start square.";
    NoRoomForCrates = "A030", Warning, "No cell can take a crate at the start, though the rules allow placements.";
    CrateWinImpossible = "A031", Warning, "Too few crates can ever exist for a player to win by destroying them.";
    UnreachableFloor = "A032", Warning, "Floor cells that neither player can ever reach: walls shut them off from both starts.";
    Fencing = "A040", Warning, "A player away from its start can be shut in a pocket by a crate it may neither slide nor break.";
    Stall = "A041", Warning, "The bounded search found a reachable position where neither player can ever act but pass.";
    Standoff = "A042", Warning, "The first to the flag cannot bring it home past the other player standing guard: winning the race wins nothing, and games turn into waiting and chases (stalls, draws by repetition).";
    Asymmetric = "A050", Note, "The layout is not the same for both players under a half turn or a mirror.";
    Duplicate = "A051", Warning, "The level is the same as another level of the pack under rotation, mirroring or swapping the players.";
}

impl FindingCode {
    /// Whether this is an error.
    #[must_use]
    pub fn is_error(self) -> bool {
        self.severity() == Severity::Error
    }
}

impl std::fmt::Display for FindingCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Evidence for a finding, which the editor draws and the sandbox replays.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Witness {
    /// A path of cells, in order.
    Path {
        /// The cells.
        cells: Vec<Cell>,
    },
    /// A walled-in region that separates a route's ends.
    Cut {
        /// The region's cells.
        region: Vec<Cell>,
    },
    /// A line of actions from the level's start that replays in the sandbox.
    Line {
        /// The actions, in the notation of docs/rules.md.
        actions: Vec<Action>,
    },
}

/// One finding about a level.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Finding {
    /// The stable code.
    pub code: FindingCode,
    /// Its severity.
    pub severity: Severity,
    /// What was found, as a sentence without a final stop.
    pub message: String,
    /// The cells it concerns.
    pub cells: Vec<Cell>,
    /// The evidence, where there is one.
    pub witness: Option<Witness>,
}

impl Finding {
    /// A finding with no cells and no witness.
    #[must_use]
    pub fn new(code: FindingCode, message: impl Into<String>) -> Finding {
        Finding { code, severity: code.severity(), message: message.into(), cells: Vec::new(), witness: None }
    }

    /// The same finding concerning `cells`.
    #[must_use]
    pub fn cells(mut self, cells: Bitboard) -> Finding {
        self.cells = cells.iter().collect();
        self
    }

    /// The same finding with a witness.
    #[must_use]
    pub fn witness(mut self, witness: Witness) -> Finding {
        self.witness = Some(witness);
        self
    }
}
