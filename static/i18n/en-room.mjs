/** The class room's words in English (presenter's room panel, /join, a learner's banner): part of `en`. */

/** @type {Record<string, string>} */
export const enRoom = {
  "room.open": "Open a room",
  "room.code": "Room code",
  "room.joinAt": "Learners join at {address}",
  "room.qr": "QR code: scan it to join this room",
  "room.learners": "{n} learners",
  "room.onStep": "On each step: {steps}",
  "room.finished": "Finished: {n}",
  "room.moveTo": "Move the room to step",
  "room.move": "Move",
  "room.close": "Close the room",
  "room.closed": "The room is closed.",
  "room.failed": "The room server refused: {message}",
  "room.learnerBanner": "Room {code}: your predictions are your votes; the teacher may move you to a step.",
  "room.learnerClosed": "The teacher has closed room {code}. You can go on with the lesson on your own.",
  "join.title": "Join a class room",
  "join.lead": "Type the code on the teacher's screen. No name or account: your browser makes a random id.",
  "join.label": "Room code",
  "join.submit": "Join",
  "join.joining": "Joining…",
  "join.noRooms": "This site has no class rooms.",
  "join.error.unknown_room": "There is no open room with this code (a room lasts 6 hours). Check the code.",
  "join.error.room_closed": "The teacher has closed this room.",
  "join.error.offline": "The room server cannot be reached. Check your connection.",
  "join.error.other": "The room server refused: {message}",
};
