// Lifecycle hooks in code: an extension answers the same events, with the same input and output, as
// a user's command hooks (`[hooks]` in config.toml, hooks.json), and the same engine runs both —
// so a team chooses a script or a function, and clients see one kind of hook run either way.

/** The events hooks fire on, as the app-server names them (`hook/started`'s `eventName`). */
export type HookEventName =
  | 'preModelRequest'
  | 'postModelRequest'
  | 'preToolUse'
  | 'permissionRequest'
  | 'postToolUse'
  | 'preCompact'
  | 'postCompact'
  | 'sessionStart'
  | 'sessionEnd'
  | 'userPromptSubmit'
  | 'subagentStart'
  | 'subagentStop'
  | 'stop'
  | 'interrupt';

/**
 * What a hook is told: the JSON object a command hook reads on stdin. The shared fields are always
 * there; each event adds its own (`tool_name`, `tool_input`, `tool_response` and `tool_use_id` for
 * tool events, `prompt` for userPromptSubmit, `source` for sessionStart, `trigger` for the compaction
 * events, `stop_hook_active` and `last_assistant_message` for stop and subagentStop, `reason` for
 * sessionEnd). In a sub-agent's thread every event but sessionEnd also carries `agent_id` (the
 * sub-agent's thread id) and `agent_type`.
 */
export interface HookInput {
  readonly session_id: string;
  readonly turn_id?: string;
  /** The thread's rollout file; null for a thread that is not written. */
  readonly transcript_path: string | null;
  readonly cwd: string;
  /** The event, as hook configuration names it: `PreToolUse`, `Stop`, … */
  readonly hook_event_name: string;
  /** Absent for sessionEnd. */
  readonly model?: string;
  /** `default` or `bypassPermissions`, from the thread's approval policy (compaction events carry none, as in Codex). */
  readonly permission_mode?: string;
  readonly [field: string]: unknown;
}

/** What a hook answers: the JSON a command hook prints on stdout. Every field is optional. */
export interface HookOutput {
  /** `block` stops what the event is about (the tool call, the end of the turn) with `reason`. */
  readonly decision?: 'block' | 'approve' | undefined;
  readonly reason?: string | undefined;
  /** Shown to the user, not the model. */
  readonly systemMessage?: string | undefined;
  /** Claude's fields that Skein, as Codex, refuses on tool and permission events (the run fails, nothing changes). */
  readonly continue?: boolean | undefined;
  readonly stopReason?: string | undefined;
  readonly suppressOutput?: boolean | undefined;
  readonly hookSpecificOutput?:
    | {
        readonly hookEventName?: string | undefined;
        /** Text the model reads as a developer message. */
        readonly additionalContext?: string | undefined;
        /**
         * preToolUse: `deny` blocks the call with `permissionDecisionReason` (required); `allow` must
         * come with `updatedInput`, which replaces the tool's input (`{command}` for `Bash` and
         * `apply_patch`, the arguments for other tools). `ask` is refused.
         */
        readonly permissionDecision?: 'allow' | 'deny' | 'ask' | undefined;
        readonly permissionDecisionReason?: string | undefined;
        readonly updatedInput?: Readonly<Record<string, unknown>> | undefined;
        /** postToolUse: refused, as in Codex. */
        readonly updatedMCPToolOutput?: unknown;
        /** permissionRequest: answers the approval the command needs, so the user is not asked (`message` is why, for a deny). */
        readonly decision?:
          | {
              readonly behavior: 'allow' | 'deny';
              readonly message?: string | undefined;
              /** Refused, as in Codex. */
              readonly interrupt?: boolean | undefined;
              readonly updatedInput?: unknown;
              readonly updatedPermissions?: unknown;
            }
          | undefined;
      }
    | undefined;
}

/** One hook an extension contributes. */
export interface HookContributor {
  readonly event: HookEventName;
  /** For tool events, a regular expression the whole tool name must match (`Bash`, `apply_patch`); absent, every tool. */
  readonly matcher?: string;
  /**
   * Answers one event. Undefined lets it go on unchanged; `{decision: 'block', reason}` blocks as a
   * command hook's exit code 2 does. A throw is a failed run the client is told about, never a block.
   */
  run(input: HookInput, signal: AbortSignal): Promise<HookOutput | undefined> | HookOutput | undefined;
}
