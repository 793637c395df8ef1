package agent

// portProtocolDoc is the PORT PROTOCOL man section: the contract of
// 'fluzo-agent serve' that a front end (TUI, editor) programs against.
const portProtocolDoc = `fluzo-agent serve reads one JSON command per line on stdin. Every command
carries "v":1, an "id" of the client's choosing and "cmd"; unknown fields and
unknown commands are rejected. Each command is answered by exactly one line:

  {"v":1,"type":"ack","re":"<id>","data":{...}}
  {"v":1,"type":"error","re":"<id>","error":{"code":"...","message":"...","hint":"...","details":{...}}}

An ack means accepted, not done: outcomes follow as events and, for start_task
and resume, one result record (see RESULT RECORD). Other output lines are
events, committed to the store before they are written,

  {"v":1,"id":"evt_...","seq":12,"ts":"...","type":"permission.requested",
   "session":"ses_...","task":"tsk_...","attempt":"att_...","operation":"op_...",
   "trace":"...","data":{...}}

whose seq counts per session without gaps, and live updates such as
{"v":1,"type":"live.delta",...}, which are not stored, have no seq and may be
lost. One task runs at a time. On end of input, SIGTERM, SIGINT or SIGHUP the
running task is cancelled (even while it waits for an approval) and its
outcome recorded within 15 seconds; then serve exits 0 and releases the
workspace. A command line over 4 MiB (4194304 bytes) is answered with an
invalid_request error whose details name the limit (limit_bytes, reason
line_too_long); the line is skipped and later commands are answered.

Task commands (ack data after the arrow):

  start_task  request, [session], [verify], [no_verify], [allow: ["exec:cargo test", ...]], [worktree: true]
              -> {"state":"starting"}; workspace_busy while a task runs.
              With session the task joins that stored session (not_found when
              unknown); without it the task starts a new session.
              Without a verification command (verify, harness.verify_command
              or one quoted in the request) or "no_verify":true the task fails
              at once with reason verification_not_configured.
              "worktree":true runs it in a git worktree of its own, as run
              --worktree does (worktree.created; the result names it).
  approve     operation, [scope: "once" (default) | "task"]
              -> {"operation","verdict":"allow","scope"[,"grant"]}. "task" stores
              a task grant for exactly that operation and returns its id.
  deny        operation -> {"operation","verdict":"deny"}
  queue_intervention  text -> {"intervention":"msg_...","state":"queued"}
              Delivered in queue order at the next safe boundary (before the
              next model request), recorded as an intervention event with
              "state":"delivered".
  edit_intervention   intervention, text -> {"intervention","state":"queued"}
              Editable until delivered; then invalid_request. Unknown ids are
              not_found. Recorded as an intervention.edited event.
  withdraw_intervention intervention -> {"intervention","state":"withdrawn"}
              Takes a queued intervention back (it is never delivered),
              recorded as an intervention.withdrawn event; once delivered,
              invalid_request with "state":"delivered" in its details.
  set_yolo    on -> {"yolo":true|false,"scope":"session"}. Audited as a yolo
              event ({"on","scope"}) under the running task, or without a
              session when idle. Applies to the running task and later tasks
              of this serve process; never stored as a setting and never
              restored by resume.
  cancel      task -> {"task","state":"stopping"}; not_found unless it is the
              running task. Pending approvals become stale.
  force_stop  task, yes -> {"task","state":"stopping","forced":true}. Without
              "yes":true: confirmation_required, nothing is signalled.
  resume      task, [allow], [verify], [no_verify] -> {"state":"starting"}; invalid_request unless the
              task is blocked, interrupted or failed. Grants and YOLO of earlier
              attempts are not restored; unknown operations are not replayed.
  repair      task, feedback, [verify], [no_verify], [allow] -> {"state":"starting"}:
              a follow-up task in a worktree task's worktree, as fluzo-agent
              repair starts it; events and result follow like start_task's.
  review      task -> {"worktree":{...},"files":[...],"diff_id","patch"}: the
              worktree's change against its base, as review --json shows it.
  accept      task, [diff_id] -> {"worktree","files","diff_id"} and a
              worktree.accepted event: the change written into the working
              tree, uncommitted; worktree_conflict (changing nothing) over
              your own changes to its files; workspace_busy while a task runs.
  reject      task, yes: true -> {"worktree"}: the worktree and its branch
              removed (confirmation_required without yes; workspace_busy
              while a task runs).
  new_session [title] -> {"session":"ses_..."} and a session.created event: an
              empty session, for clients that name one before its first task
              (fluzo-agent acp).
  revoke_grant grant -> {"grant","state":"revoked"} and a grant.revoked event;
              the next operation the grant matched asks again. invalid_request
              when the grant is no longer issued, not_found when unknown.

Approvals and staleness: the operation id is the version of an approval
request. Each permission.requested event names a new operation, and only the
operation waiting now can be answered, once; an answer naming any other
(already answered, earlier, or unknown) is invalid_request "stale approval".

Queries (read-only):

  status      -> {"root","pid","state"[,"task","attempt","session","running_for"]}
  tasks       -> {"tasks":[task, ...]}
  session     session -> {"session","tasks":[task, ...]}; not_found when unknown
  sessions    [match], [offset], [limit <= 200] -> {"sessions":[{session,
              "tasks":{"state":count}}],"offset","more"}: one window of the
              workspace's sessions, newest first; match filters by title or id.
  resume_preview task -> {"preview":{"resumable","refusal","workspace":
              {"recorded","current","moved","identity"},"files":{"checked",
              "stale"},"unknown_operations","dropped_grants","yolo_before",
              "yolo_now","carried_turns","carried_tokens"}}: what resume would
              find and drop, computed by resume's own checks; writes nothing.
  task        task -> {"task","attempts","operations":{"att_...":[...]},"grants"[,"worktree"]}
              worktree, for a task that ran in one: its path, branch, base,
              state (active, accepted, rejected, removed) and tasks.
  events      [session], [task], [type], [after], [after_seq], [limit]
              -> {"events":[...],"next":N,"more":bool}. Pages are bounded:
              limit defaults to 1000 and is capped at 10000. after is the
              "next" of the previous page (0: from the start); after_seq keeps
              events of session whose seq is greater (needs session).
  diff        task -> {"task","live":true,"diff"} while the task runs (computed
              now against its baseline, without attribution), otherwise
              {"task","live":false,"attempt","diff"} from the diff.summary
              event recorded when its last attempt ended; not_found when no
              attempt ended. diff is the result's diff_summary: pre_existing
              paths and changed paths with pre_existing, kind (added,
              modified, deleted or reverted), uncertain, and added/removed:
              line counts against what the path held when the task began,
              absent when unknown (changed already then, reverted, binary or
              unreadable). Both carry "state" (the task's) and, once one ran,
              "verification" (its last verification.result record) with
              "edits_since_verification" (successful edits recorded after it).
              With path (one the summary lists), [offset], [limit]: one
              window of that path's unified diff against the baseline commit,
              {"task","state","live","patch":{"path","against","offset",
              "total","added","removed","lines":[...],"binary"}}: hunk lines
              from offset (limit defaults to 200, at most 1000; lines cut at
              2048 bytes), total and +/- counts of the whole diff, streamed
              so no window costs more memory than its lines. A file the
              baseline commit lacks is shown as added. Nothing is staged.
  diagnose    task, [spans] -> {"diagnosis":{...}}, the observe.diag record
              that fluzo-observe diag --json prints for the task (trace ids,
              attempts, operation counts, failures as sentences, usage with
              unknown kept unknown, budget events, compactions, Laya
              observations, telemetry archive summary; spans trees when
              "spans":true). The request is not shortened. While the task
              runs, "live_budget" adds its meters: used (active_seconds
              excluding waits on the user, tool_calls, total_tokens,
              tokens_estimated_requests, reserved_tokens) and limits (null
              when not set); turns are null in both (the loop's step limit
              counts them: see usage and harness.max_turns).
  replay      task, [after], [limit] -> {"task","entries":[...],"next":N,
              "more":bool}, one page of the timeline fluzo-observe replay
              --json prints: entries of type replay.step or replay.gap
              ({"seq","ts","actor","action","policy","outcome","event",...})
              whose seq is above after, in commit order. Pages are bounded
              as for events; "next" (the last entry's seq) is the after of
              the next page.
  settings    -> {"settings":[{"key","value","source",...}],"file"}, with
              provenance and each key's registry entry: type, unit,
              default, min/max, options, valid, privacy, apply, description,
              locked (set by --set: not changeable here), dev_menu, edited
              (applied this session, not saved), pending_restart
  config_change changes:[{"key","value"}], [save], [merge], [consent],
              [current_task], [origin] -> {"applied":[{"key","value","when"}],"saved",
              "settings",...}. Every value is validated against the
              registry and the result as a whole; nothing is applied unless
              all are valid (invalid_configuration, one diagnostic per key).
              A --set key is refused (locked). Model and pool limits reach
              the admission actor at once ("when":"now"), even while a task
              runs; task budgets (harness.max_turns, max_tool_calls,
              max_total_tokens, max_active_seconds; flagged task_budget)
              reach a running task before its next turn only with
              "current_task":true ("safe_boundary"; consumption never
              resets); other keys apply to the next task ("next_task") or
              only after a restart ("restart", pending). A security change
              (destinations, decision.enabled, ...) needs consent: refused
              with configuration_required unless "consent":true records the
              user's answer. save writes this session's applied edits and
              the new ones to .fluzo, only those keys, comments and layout
              kept, and applies the new ones only once written (a failed
              save applies nothing); a file
              changed since load is confirmation_required with
              "outside_change" and "conflicts" (keys edited on both sides)
              until sent again with "merge":true; a read-only file is a
              storage_error and nothing is written. origin is settings
              (default), theme_picker (tui.theme only) or dev_menu (only the
              keys flagged dev_menu); a save from either writes only those
              keys, other applied edits stay applied and unsaved. Each
              applied change is recorded as a
              config.changed event, values other than public preferences
              redacted.
  capacity    -> {"pools":[...]}, this process's admission state
  subscribe   [after], [limit] -> {"tasks","running","cursor","seqs":{"ses_...":N}
              [,"events","next","more"]}

Subscription and resync: after subscribe, every event committed later is
written as a line. Live events are not held back while the snapshot is taken:
keep every event whose seq is above the snapshot's seq for its session (one
may arrive just before the ack) and drop the others. Lines of one session
normally arrive in seq order, but two writers committing together may swap
neighbours, and a client may lose lines. Keep the last seq held per session;
when a line's seq is more than one above it, send

  {"v":1,"id":"r1","cmd":"events","session":"ses_...","after_seq":<last held>}

and follow "next" (as "after") until "more" is false, dropping seqs already
held; or subscribe again with "after" set to a cursor. The store is the
record: fluzo-store events shows the same events with the same seqs.

Error codes: invalid_request (malformed line, unknown field or command,
missing argument, stale approval, a task that cannot be resumed),
not_found, workspace_busy, confirmation_required, storage_error; a task's
own failures arrive in its result.`
