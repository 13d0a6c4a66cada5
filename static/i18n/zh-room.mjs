/** 课堂房间的文字（演示者的房间面板、/join、学习者的提示条）：`zh` 目录的一部分。 */

/** @type {Record<string, string>} */
export const zhRoom = {
  "room.open": "开一个房间",
  "room.code": "房间码",
  "room.joinAt": "学习者在 {address} 加入",
  "room.qr": "二维码：扫描即可加入这个房间",
  "room.learners": "{n} 名学习者",
  "room.onStep": "各步人数：{steps}",
  "room.finished": "已完成：{n}",
  "room.moveTo": "把房间移到第几步",
  "room.move": "移动",
  "room.close": "关闭房间",
  "room.closed": "房间已关闭。",
  "room.failed": "房间服务器拒绝了：{message}",
  "room.learnerBanner": "房间 {code}：你的预测就是你的投票；老师可能把你带到某一步。",
  "room.learnerClosed": "老师已关闭房间 {code}。你可以自己继续这节课。",
  "join.title": "加入课堂房间",
  "join.lead": "输入老师屏幕上的房间码。不需要名字或账号：你的浏览器会生成一个随机 id。",
  "join.label": "房间码",
  "join.submit": "加入",
  "join.joining": "正在加入…",
  "join.noRooms": "本站没有课堂房间。",
  "join.error.unknown_room": "没有使用这个房间码的开放房间（房间只保留 6 小时）。请检查房间码。",
  "join.error.room_closed": "老师已关闭这个房间。",
  "join.error.offline": "连不上房间服务器。请检查网络。",
  "join.error.other": "房间服务器拒绝了：{message}",
};
