-- The teacher's thread, shared with the room (functions/_room/thread.js): the checkpoint saver's
-- records (lab/browser/page_storage.py's layout: stores checkpoints, blobs, writes; a key is a JSON
-- list, a record a JSON object) kept per room, readable with the room's code, written with its teacher
-- key. They go with the room (ON DELETE CASCADE) when it expires.
CREATE TABLE thread_records (
  seq INTEGER PRIMARY KEY,           -- the order keys were first stored (a replaced record keeps it)
  code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
  store TEXT NOT NULL,               -- "checkpoints", "blobs" or "writes"
  key TEXT NOT NULL,                 -- the key as JSON text, e.g. ["thread-1","","1f0…"]
  record TEXT NOT NULL,              -- the record as JSON text
  UNIQUE (code, store, key)
);
