/**
 * The lab controller's side of the protocol (lab/controller/controller.py): its commands, which the
 * page sends through the worker's `lab` command (protocol.mjs), and what they answer - the view,
 * threads, frames, the ledger report. Documentation only: JSDoc types, no code.
 */

/**
 * A controller command's answer, as LabController.dispatch returns it; LabSession.command unwraps
 * it (returns `result`, throws a LabError with `type`, `message`, `notes`).
 * @typedef {{ok: true, result: any} | {ok: false, error: import("./protocol.mjs").ErrorInfo & {notes?: string[]}}} ControllerAnswer
 */

/**
 * The controller's commands: args -> result, in the order of lab/controller/command_table.py's
 * COMMANDS, then the lessons' (tests/test_command_table.py checks that every command is here, with its
 * arguments).
 * Run commands answer when their run stops, with a RunOutcome.
 * Refused while another tab writes the thread (writes): step, run, invoke, resume, answer, replay, fork,
 * checkout, reset, drop, prune.
 * Reads (change nothing a learner did; a lesson check sees the answer to the last other command):
 * catalog, restore, threads, state, frames, frame, branches, ledger, executions, view,
 * set_writer, link, export_thread, storage, lesson_command, lesson_check.
 * @typedef {object} ControllerCommands
 * @property {{args: {}, result: {cases: object[], variants: string[], durabilities: string[],
 *            storages: string[], seams: string[], commands: string[], graphs: Object<string, object>,
 *            session: Session | null}}} catalog
 * @property {{args: {case_id: string, variant?: string, durability?: Durability, thread_id?: string,
 *            storage?: "full" | "delta"}, result: {session: Session, graph: object}}} start
 *           (variant: one of the profile's; storage: "full", LangGraph's default, or "delta", the
 *           profile's keys opted in to DeltaChannel)
 * @property {{args: {observe_only?: boolean, thread_id?: string},
 *            result: {session: Session | null, state?: ThreadState, damaged?: Message}}} restore
 *   the session the journal remembers, or the saved thread `thread_id` (the one this tab had);
 *   a thread whose records no longer load comes back as `damaged` instead
 * @property {{args: {}, result: {current: string | null, threads: SavedThread[], pick: Verdict}}} threads
 *   every saved thread (the journal's sessions, until a reset), newest first; `pick`: whether the
 *   threads picker has anything to choose
 * @property {{args: {thread_id: string}, result: {session: Session, graph: object, state: ThreadState}}} open
 *   a saved thread becomes the session again (a paused run is closed first); an unknown, empty or
 *   over-255-character thread id is refused
 * @property {{args: {}, result: ThreadState}} state
 * @property {{args: {durability?: Durability}, result: RunOutcome}} step  one super-step
 * @property {{args: {durability?: Durability}, result: RunOutcome}} run   to the interrupt or the end
 * @property {{args: {input?: any, until?: "step" | "end", durability?: Durability}, result: RunOutcome}} invoke
 *            LangGraph's invoke(input) on the open thread: a new run from `input`, done or not (the
 *            playground's script: its next turn)
 * @property {{args: {until?: "step" | "end", durability?: Durability}, result: RunOutcome}} resume
 * @property {{args: {approve?: boolean, until?: "step" | "end", durability?: Durability, value?: any},
 *            result: RunOutcome}} answer   Approve / Reject, or `value` (any JSON) as the resume value
 * @property {{args: {seam: string, node?: string, step?: number, after?: [string, string | null]},
 *            result: {armed: {seam: string, node: string | null, step: number | null,
 *                             after: [string, string | null] | null}}}} arm_crash
 *            `after`: the crash waits (at most 10 s) until that seam of that node has happened
 * @property {{args: {}, result: {armed: null}}} disarm_crash
 * @property {{args: {}, result: {thread_id: string, frames: Frame[]}}} frames   oldest first
 * @property {{args: {checkpoint_id: string}, result: {frame: Frame, diff: object}}} frame
 * @property {{args: {checkpoint_id: string, until?: "step" | "end", durability?: Durability},
 *            result: RunOutcome}} replay
 * @property {{args: {checkpoint_id: string, values: object, as_node?: string},
 *            result: {checkpoint_id: string, frame: Frame}}} fork
 * @property {{args: {}, result: {head: string | null, nodes: object[], branches: object[]}}} branches
 * @property {{args: {checkpoint_id: string}, result: {checkpoint_id: string, frame: Frame}}} checkout
 *   switch branches: a copy of that checkpoint becomes the head (update_state(..., as_node="__copy__"))
 * @property {{args: {}, result: LedgerReport}} ledger
 *   the page's ledger rows as Python reads them (lab.controller.ledger_rules.annotate_ledger)
 * @property {{args: {}, result: {nodes: Object<string, {started: number, finished: number}>,
 *            runs: object[], last_resume: {run: number, kind: string, step: number,
 *            checkpoint_id: string, rerun: string[], restored: string[]} | null}}} executions
 * @property {{args: {}, result: LabView}} view
 *   everything the page draws (lab/controller/view.py); the page's store keeps the last one
 * @property {{args: {}, result: {threads_deleted: number}}} reset
 *   deletes every thread, the journal and (through the world) the ledger
 * @property {{args: {writer: "here" | "elsewhere"}, result: {writer: string}}} set_writer
 *   which tab writes the thread (the page holds a Web Lock per thread, thread-writer.mjs); while
 *   "elsewhere", view() is read-only and writing commands are refused
 * -- issue 10: links, damaged threads, thread files (lab/controller/thread_commands.py) --
 * @property {{args: {thread?: string | null, frame?: string | null, branch?: string | null},
 *            result: {thread_id: string | null, checkpoint_id: string | null, branch: string | null,
 *            notices: Message[]}}} link
 *   opens what a link names (a saved thread first); each part it cannot follow is a notice
 * @property {{args: {thread_id: string}, result: {dropped: string}}} drop
 *   deletes a saved thread's checkpoints and journal (offered for a thread that no longer loads)
 * @property {{args: {thread_id?: string}, result: {thread_id: string, file_name: string, size: number,
 *            data: string}}} export_thread   the thread file, base64
 * @property {{args: {data: string, size?: number}, result: {session: Session, graph: object,
 *            imported: {checkpoints: number, journal: number, ledger: number}}}} import_thread
 *   validates the whole file first (a refused one stores nothing), then opens its thread
 * -- issue 11: the storage panel (lab/controller/storage_panel.py) --
 * @property {{args: {}, result: {threads: object[], thread: object | null}}} storage
 *   every thread's bytes, and the open thread's bill checkpoint by checkpoint and what prune keeps
 * @property {{args: {}, result: {threads: object[], thread: object | null}}} prune
 *   keeps the open thread's newest checkpoint (prune(strategy="keep_latest")); answers as storage
 * -- issue 35: the guided lessons' commands (lab/lessons/commands.py), plugged in by the lab worker --
 * @property {{args: {lesson: string, step: string, part?: number | "action"},
 *            result: {name: ControllerCommandName, args: object}}} lesson_command
 *   the command a lesson step's move sends, ids filled in from the lab now (lab/lessons/play.py)
 * @property {{args: {lesson: string, step: string},
 *            result: {done: boolean, facts: object[]}}} lesson_check
 *   whether the step's facts hold on view() now, each with its value
 *
 * A refusal's error may carry `say`: its message as a code (`py.<code>` in the catalogues).
 */

/**
 * A sentence Python wrote: the page renders `py.<code>` from i18n.mjs with `params`.
 * @typedef {{code: string, params: object, text: string}} Message
 */

/**
 * @typedef {object} LabView what the `view` command answers
 * @property {number} seq                the controller's event count when read: drop an older answer
 * @property {{title: Message, outside_calls: Message}} words  the graph profile's words: what the
 *                                      diagram is called, what a node that calls out does
 * @property {{program: string | null, thread: string | null}} owner  what the view belongs to: the
 *                                      program as the page named it (play_load), the open thread
 * @property {object | null} session     {thread_id, case_id, variant, durability, storage}
 * @property {object | null} run         the live run: {run, kind, durability, paused[, step, next]}
 * @property {object | null} armed       the armed crash {seam, node}
 * @property {{phase: string, action: string | null, message: Message}} status
 * @property {Object<string, Verdict>} actions
 * @property {object} graph              the diagram; each node with {state, reason: Message, counts}
 * @property {{step: string[], nodes: Object<string, string[]>, any_node: string[],
 *             node_choice: Object<string, Verdict>}} seams  node_choice: per seam offered, whether a
 *                                      node may be chosen with it (a seam of the whole step: no)
 * @property {object | null} review      {request, already_done, say} while an interrupt is open
 * @property {Array<Frame & {diff: object}>} frames  oldest first (the root namespace's)
 * @property {Array<{checkpoint_ns: string, graph: string | null, count: number, frames?: Frame[]}>} namespaces
 *           the thread's namespaces: the root ("", its frames are `frames`) first, then each subgraph's
 *           ("<node>:<task id>", `graph` the node path that ran it), with its frames oldest first
 * @property {{head: string | null, nodes: object[], branches: object[]}} tree  each node with
 *                                      `travel: {back: Verdict, forward: Verdict}` (First / Previous,
 *                                      Next / Last from it), each branch with `scrub: Verdict`
 * @property {object} executions         as the `executions` command
 * @property {Object<string, Array<{name: string, task_id: string, run: number, step: number,
 *            state: "restored" | "running" | "saved" | "rerun" | "crashed" | "ran", reason: Message}>>}
 *           task_calls  per node, the @task calls of its latest execution (lab/controller/task_rows.py)
 * @property {LedgerReport} ledger
 * @property {LedgerReport} thread_ledger  the open thread's requests only (what a lesson shows)
 * @property {Array<{run: number, at: number, kind: string, message: Message}>} activity
 * @property {object} defaults           variants, durabilities, seams, node_states, delay (from Python)
 */

/** @typedef {keyof ControllerCommands} ControllerCommandName */
/** A Python rule's answer for one control: the page enables it, or shows `reason` (actions.mjs `showAction`). */
/** @typedef {{enabled: boolean, reason: Message | null}} Verdict */
/** @typedef {"sync" | "async" | "exit"} Durability */
/** @typedef {{thread_id: string, case_id: string, variant: string, durability: Durability, storage: "full" | "delta"}} Session */
/**
 * A thread saved in this browser, as `threads()` lists it.
 * @typedef {object} SavedThread
 * @property {string} thread_id
 * @property {string} case_id
 * @property {string} variant
 * @property {Durability} durability
 * @property {number} started_at   seconds since the epoch when it was first started
 * @property {number} checkpoints  how many checkpoints it has
 * @property {boolean} current     whether it is the lab's thread now
 * @property {Message | null} damaged  why its records no longer load (then Drop is offered), or null
 * @property {Verdict} open      whether Open can open it now (not during a run; not the thread open already)
 */

/**
 * @typedef {object} ThreadState
 * @property {Session} session
 * @property {object} values
 * @property {string[]} next
 * @property {object[]} interrupts
 * @property {string | null} checkpoint_id   the head
 * @property {{run: number, kind: string, paused: boolean} | null} run
 * @property {{seam: string, node: string | null} | null} crash_armed
 */

/**
 * How a run command's run stopped.
 * @typedef {{status: "paused", step: number, checkpoint_id: string, next: string[]}
 *   | {status: "interrupted" | "done", values: object, interrupts: object[], next: string[],
 *      checkpoint_id: string}
 *   | {status: "error", error: import("./protocol.mjs").ErrorInfo}
 *   | {status: "crashed", crash_point: import("./protocol.mjs").CrashInfo}
 *   | {status: "stopped"}} RunOutcome
 */

/**
 * One checkpoint as the page shows it (lab/controller/frames.py, frame_of).
 * @typedef {object} Frame
 * @property {string} checkpoint_id
 * @property {string} checkpoint_ns     "" for the graph the lab runs, "<node>:<task id>" for a subgraph's
 * @property {string | null} parent_id
 * @property {number} step
 * @property {string} source            "input" | "loop" | "update" | "fork"
 * @property {string} created_at
 * @property {string[]} next
 * @property {object} values
 * @property {object} channel_values
 * @property {Object<string, string>} channel_versions
 * @property {Object<string, Object<string, string>>} versions_seen
 * @property {string[] | null} updated_channels
 * @property {Array<[string, string, any]>} pending_writes   [node, channel, value]
 * @property {object[]} tasks
 * @property {object[]} interrupts
 * @property {object} metadata
 */

/**
 * @typedef {object} LedgerReport what the `ledger` command answers
 * @property {Array<import("./ledger.mjs").LedgerRow & {attempt: number, outcome: Message,
 *            flag: string | null, repeats: number | null}>} entries
 *   oldest first; `attempt`: the n-th request of the same business operation; `flag`: e.g. "charged ×2"
 * @property {Array<{operation: string[], kind: string, thread_id: string, node: string, purpose: string,
 *            times: number, label: string, ids: string[], causes: string[], explanation: Message}>} duplicates
 *   business operations (as the graph's profile groups its requests) done more than once
 * @property {{double: boolean, message: Message}} verdict
 * @property {{counts: Object<string, number>, say: Message[], cents: number}} totals
 *   executed requests per kind (replays excluded; the profile's operations first), each count in
 *   words, and the cents they moved
 */

export {};
