-- A class room (functions/_room/): one teacher, learners known only by a random id their browser made.
-- Every row below a room names its code; a query never reads a room's rows without that code.
CREATE TABLE rooms (
  code TEXT PRIMARY KEY,             -- the short code learners type (6 letters/digits, no look-alikes)
  teacher_key_hash TEXT NOT NULL,    -- SHA-256 of the teacher key, hex; the key itself is never stored
  lesson TEXT NOT NULL,              -- the lesson's id, e.g. "crash"
  shape TEXT NOT NULL,               -- JSON list: the number of choices of each step's question
  step INTEGER NOT NULL DEFAULT 0,   -- where the teacher has moved the room (0-based)
  closed INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,       -- milliseconds since the epoch
  expires_at INTEGER NOT NULL
);

CREATE TABLE learners (
  code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
  learner TEXT NOT NULL,
  step INTEGER NOT NULL DEFAULT 0,   -- the step the learner's page is on
  finished INTEGER NOT NULL DEFAULT 0,
  seen_at INTEGER NOT NULL,
  PRIMARY KEY (code, learner)
);

-- One vote per learner per step: a new vote replaces the old one (the last one counts).
CREATE TABLE votes (
  code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
  learner TEXT NOT NULL,
  step INTEGER NOT NULL,
  choice INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (code, learner, step)
);

-- Room creations per client, for the limit on floods; rows older than the window are deleted.
CREATE TABLE creations (
  client TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX creations_by_client ON creations (client, at);
