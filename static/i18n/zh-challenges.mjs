/**
 * The playground's challenges in 简体中文 (static/play/challenges.mjs), and the sentences of their
 * checker (`py.play.challenge.<reason>`: lab/playground/challenges.py's TEXTS): part of the
 * `zh` catalogue in ./zh.mjs. A challenge's own title, goal and hint are site content
 * (gallery/challenges/challenges.toml).
 */

/** @type {Record<string, string>} */
export const zhChallenges = {
  "challenge.label": "挑战",
  "challenge.pick": "选一个挑战…",
  "challenge.goal": "目标",
  "challenge.hint": "提示",
  "challenge.lesson": "相关课程",
  "challenge.check": "检查我的代码",
  "challenge.checking": "正在检查：实验室运行你的代码，让它崩溃，再恢复它…",
  "challenge.solution": "显示答案",
  "challenge.hideSolution": "隐藏答案",
  "challenge.useSolution": "把答案放进编辑器",
  "challenge.restart": "重新开始",
  "challenge.solutionLabel": "一个答案",
  "challenge.solved": "已完成",
  "challenge.failed": "检查无法运行：{message}",
  "challenge.stopped": "“停止”结束了它：实验室的 worker 被结束，另一个接手",
  "py.play.challenge.passed.ask_before_buying": "通过：批准的购买只扣费一次，尽管崩溃后节点又运行了一次；驳回的购买没有扣费。",
  "py.play.challenge.passed.business_key": "通过：崩溃后节点再次运行，发出了同一个键，API 返回了第一次的回执：每个订单只扣费一次。",
  "py.play.challenge.passed.email_once": "通过：失败已重试，邮件只发了一封。",
  "py.play.challenge.passed.charge_in_task": "通过：崩溃之后节点又运行了一次，但任务保存的结果回答了它：一次请求，一次扣费。在扣费之后、这个结果保存之前崩溃，仍会再次扣费：幂等键能关上这个窗口。",
  "py.play.challenge.not_asked": "图没有提问就结束了：购买必须等待 interrupt() 的回答。",
  "py.play.challenge.charged_again": "还没有：批准的购买扣费了 {count} 次。恢复时节点从第一行重新运行，所以 interrupt() 之前的扣费又运行了一次。",
  "py.play.challenge.never_charged": "还没有：批准的购买从未扣费。",
  "py.play.challenge.charged_rejected": "还没有：驳回的购买被扣费了。只在回答“是”之后扣费。",
  "py.play.challenge.no_payer": "没有节点调用 charge()：订单仍然需要扣费。",
  "py.play.challenge.not_crashed": "运行没有到达节点 {node} 的结尾，检查要在那里让进程崩溃。",
  "py.play.challenge.charged_after_crash": "还没有：订单 {order} 扣费了 {count} 次。进程在扣费之后、节点的写入保存之前死掉；恢复时节点再次运行，用了一个新的键（{keys}）。",
  "py.play.challenge.other_order": "还没有：订单 {order} 扣费了 {count} 次，而不是一次：键必须写明订单，两个订单绝不共用一个键。",
  "py.play.challenge.never_asked": "图没有提问就结束了：节点仍要用 interrupt() 提问。",
  "py.play.challenge.bought_after_asking": "还没有：提问之前什么都没买。审核员要拿着导出做决定：把购买留在 interrupt() 之前。",
  "py.play.challenge.requested_again": "还没有：节点向 API 发了 {count} 次请求；它的幂等键让扣费只有一次，但任务保存的结果能在节点第二次运行时直接回答，不用再发请求。",
  "py.play.challenge.never_failed": "运行没有失败：库存服务第一次调用时仍必须超时。",
  "py.play.challenge.sent_again": "还没有：邮件发了 {count} 封。重试把发邮件的节点从第一行又运行了一次。",
  "py.play.challenge.never_sent": "还没有：没有发出邮件。",
  "py.play.challenge.run_failed": "运行以错误结束：{error}",
};
