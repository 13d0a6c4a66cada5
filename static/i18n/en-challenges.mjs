/**
 * The playground's challenges in English (static/play/challenges.mjs), and the sentences of their
 * checker (`py.play.challenge.<reason>`: lab/playground/challenges.py's TEXTS): part of the
 * `en` catalogue in ./en.mjs. A challenge's own title, goal and hint are site content
 * (gallery/challenges/challenges.toml).
 */

/** @type {Record<string, string>} */
export const enChallenges = {
  "challenge.label": "Challenge",
  "challenge.pick": "Take a challenge…",
  "challenge.goal": "Goal",
  "challenge.hint": "Hint",
  "challenge.lesson": "The lesson behind it",
  "challenge.check": "Check my code",
  "challenge.checking": "Checking: the lab runs your code, crashes it and resumes it…",
  "challenge.solution": "Show solution",
  "challenge.hideSolution": "Hide solution",
  "challenge.useSolution": "Put the solution in the editor",
  "challenge.restart": "Start over",
  "challenge.solutionLabel": "A solution",
  "challenge.solved": "solved",
  "challenge.failed": "The check could not run: {message}",
  "challenge.stopped": "Stop ended it: the lab's worker was killed and another took over",
  "py.play.challenge.passed.ask_before_buying": "Passed: the approved purchase was charged once although the node ran again after the crash, and the rejected one was not charged.",
  "py.play.challenge.passed.business_key": "Passed: after the crash the node ran again and sent the same key, so the API answered with the first receipt: one charge per order.",
  "py.play.challenge.passed.email_once": "Passed: the failure was retried and the email went out once.",
  "py.play.challenge.passed.charge_in_task": "Passed: the node ran again after the crash, but the task's saved result answered it: one request, one charge. A crash after the charge and before that result is saved would still charge again: an idempotency key closes that window.",
  "py.play.challenge.not_asked": "The graph finished without asking: the purchase must wait for an interrupt() answer.",
  "py.play.challenge.charged_again": "Not yet: the approved purchase was charged {count} times. Resuming runs the node again from its first line, so a charge before interrupt() runs again.",
  "py.play.challenge.never_charged": "Not yet: the approved purchase was never charged.",
  "py.play.challenge.charged_rejected": "Not yet: the rejected purchase was charged. Charge only after a yes.",
  "py.play.challenge.no_payer": "No node calls charge(): the order must still be paid.",
  "py.play.challenge.not_crashed": "The run never reached the end of node {node}, where the check crashes the process.",
  "py.play.challenge.charged_after_crash": "Not yet: order {order} was charged {count} times. The process died after the charge and before the node's writes were saved; the resume ran the node again with a new key ({keys}).",
  "py.play.challenge.other_order": "Not yet: order {order} was charged {count} times, not once: the key must name the order, so two orders never share one.",
  "py.play.challenge.never_asked": "The graph finished without asking: the node must still ask with interrupt().",
  "py.play.challenge.bought_after_asking": "Not yet: nothing was bought before the question. The officer decides with the export in hand: keep the purchase before interrupt().",
  "py.play.challenge.requested_again": "Not yet: the node asked the API {count} times; its idempotency key kept it to one charge, but a task's saved result answers the node's second run without a request.",
  "py.play.challenge.never_failed": "The run did not fail: the stock service must still time out on its first call.",
  "py.play.challenge.sent_again": "Not yet: the email went out {count} times. The retry ran the node that sent it again, from its first line.",
  "py.play.challenge.never_sent": "Not yet: no email went out.",
  "py.play.challenge.run_failed": "The run ended in an error: {error}",
};
