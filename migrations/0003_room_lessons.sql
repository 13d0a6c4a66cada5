-- A room follows the presenter from lesson to lesson (POST /api/rooms/<code>/lesson): `rooms.lesson`
-- and `rooms.shape` are the lesson the room is on now, and what belongs to one lesson is kept under
-- its id, so one lesson's votes, progress and thread never mix into another's (going back to a lesson
-- finds its votes and thread again). 0001 and 0002 stay as applied; existing rows take their room's
-- lesson.

-- The lesson a learner's step (and `finished`) is in: the teacher counts only those on the room's lesson.
ALTER TABLE learners ADD COLUMN lesson TEXT NOT NULL DEFAULT '';
UPDATE learners SET lesson = (SELECT rooms.lesson FROM rooms WHERE rooms.code = learners.code);

-- One vote per learner per step of a lesson (the last one counts).
CREATE TABLE votes_by_lesson (
  code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
  lesson TEXT NOT NULL,
  learner TEXT NOT NULL,
  step INTEGER NOT NULL,
  choice INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (code, lesson, learner, step)
);
INSERT INTO votes_by_lesson (code, lesson, learner, step, choice, at)
  SELECT votes.code, rooms.lesson, votes.learner, votes.step, votes.choice, votes.at
  FROM votes JOIN rooms ON rooms.code = votes.code;
DROP TABLE votes;
ALTER TABLE votes_by_lesson RENAME TO votes;

-- The teacher's thread of each lesson (functions/_room/thread.js): learners read the room's lesson's.
CREATE TABLE thread_records_by_lesson (
  seq INTEGER PRIMARY KEY,           -- the order keys were first stored (a replaced record keeps it)
  code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
  lesson TEXT NOT NULL,              -- the lesson the teacher's lab published it from
  store TEXT NOT NULL,               -- "checkpoints", "blobs", "writes" or "sessions"
  key TEXT NOT NULL,                 -- the key as JSON text, e.g. ["thread-1","","1f0…"]
  record TEXT NOT NULL,              -- the record as JSON text
  UNIQUE (code, lesson, store, key)
);
INSERT INTO thread_records_by_lesson (seq, code, lesson, store, key, record)
  SELECT thread_records.seq, thread_records.code, rooms.lesson, thread_records.store, thread_records.key,
         thread_records.record
  FROM thread_records JOIN rooms ON rooms.code = thread_records.code;
DROP TABLE thread_records;
ALTER TABLE thread_records_by_lesson RENAME TO thread_records;
