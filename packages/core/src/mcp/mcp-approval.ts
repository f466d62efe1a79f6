// Whether an MCP tool call may run, as Codex 0.171.0 decides it (probed): the tool's approval mode
// (`[mcp_servers.<name>.tools.<tool>] approval_mode`, else the server's `default_tools_approval_mode`,
// else `auto`), its read-only hint, and the thread's approval policy and sandbox. A call that needs
// approval is asked as an `mcpServer/elicitation/request` form; one that cannot be asked is refused.
import type { Config, McpServerToml } from '@skein/config';
import type { McpTool } from '@skein/mcp-client';
import type { ClientRequests } from '../session/client-requests.js';

/** The answer the model and the client read when the user said no. */
export const MCP_CALL_REJECTED = 'user rejected MCP tool call';
/** When the policy allows no question and the call needs one. */
export const MCP_CALL_NEEDS_APPROVAL = 'MCP tool call requires approval, but approval policy is never';

/** What approvals read: the thread's settings now, its client, and what the user allowed for the session. */
export interface McpApprovalContext {
  readonly config: () => Pick<Config, 'approvalPolicy' | 'sandboxMode'>;
  readonly client: ClientRequests | undefined;
  /** `<server>/<tool>` pairs the user allowed for the rest of the session. */
  readonly allowedForSession: Set<string>;
}

/** A call to decide on. */
export interface McpCallToApprove {
  readonly server: string;
  readonly serverConfig: McpServerToml;
  readonly tool: McpTool;
  readonly args: Readonly<Record<string, unknown>>;
  readonly turnId: string;
  readonly signal: AbortSignal;
}

/** Runs, or the reason it does not (the text the model and the item's error carry). */
export type McpApproval = { readonly run: true } | { readonly run: false; readonly reason: string };

const RUN: McpApproval = { run: true };

/** Decides, asking the client when the call needs approval and someone can be asked. */
export async function approveMcpCall(call: McpCallToApprove, context: McpApprovalContext): Promise<McpApproval> {
  const mode = call.serverConfig.tools?.[call.tool.name]?.approval_mode ?? call.serverConfig.default_tools_approval_mode ?? 'auto';
  if (mode === 'approve') return RUN;
  const key = `${call.server}/${call.tool.name}`;
  if (mode === 'auto') {
    if (call.tool.annotations?.['readOnlyHint'] === true) return RUN;
    if (context.allowedForSession.has(key)) return RUN;
  }
  const { approvalPolicy, sandboxMode } = context.config();
  const mayAsk = approvalPolicy !== 'never' && !(typeof approvalPolicy === 'object' && !approvalPolicy.granular.mcp_elicitations);
  if (!mayAsk) {
    // Nobody may be asked: with no sandbox at all the user chose to trust every action; otherwise no.
    return mode === 'auto' && sandboxMode === 'danger-full-access' ? RUN : { run: false, reason: MCP_CALL_NEEDS_APPROVAL };
  }
  const ask = context.client?.requestMcpElicitation?.bind(context.client);
  if (ask === undefined) return { run: false, reason: MCP_CALL_NEEDS_APPROVAL };
  const answer = await ask(
    {
      turnId: call.turnId,
      serverName: call.server,
      mode: 'form',
      message: `Allow the MCP server "${call.server}" to run its tool "${call.tool.name}"?`,
      requestedSchema: { type: 'object', properties: {} },
      meta: approvalMeta(call, mode === 'auto'),
    },
    call.signal,
  );
  if (answer.action !== 'accept') return { run: false, reason: MCP_CALL_REJECTED };
  const persist = (answer.meta as { persist?: unknown } | null | undefined)?.persist;
  // `always` would write the approval to config.toml; Skein keeps it for the session (see docs/mcp.md).
  if (mode === 'auto' && (persist === 'session' || persist === 'always')) context.allowedForSession.add(key);
  return RUN;
}

/** Codex's `_meta` for an approval: its kind, how long an approval may hold, and the call shown to the user. */
function approvalMeta(call: McpCallToApprove, persistable: boolean): Record<string, unknown> {
  const params = Object.entries(call.args);
  return {
    codex_approval_kind: 'mcp_tool_call',
    ...(persistable ? { persist: ['session', 'always'] } : {}),
    tool_name: call.tool.name,
    ...(call.tool.annotations === undefined ? {} : { tool_annotations: call.tool.annotations }),
    ...(call.tool.description === undefined ? {} : { tool_description: call.tool.description }),
    tool_params: call.args,
    tool_params_display: params.map(([name, value]) => ({ name, value, display_name: name })),
  };
}
