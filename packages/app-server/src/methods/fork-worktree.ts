// `thread/fork {worktree}` (Skein's own): the fork starts in a new git worktree holding the files as
// the source thread's checkpoints recorded them at the fork point. Refused, before anything is forked,
// when no checkpoint on this machine records them.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CheckpointError, forkIntoWorktree, type ForkWorktree } from '@skein/core';
import type { ThreadForkParams } from '@skein/protocol';
import { AppServerRequestError } from '../app-server-error.js';
import type { MethodContext } from '../method.js';

/** Adds the worktree `params.worktree` asks for; undefined when it asks for none. */
export async function forkWorktree(params: ThreadForkParams, context: MethodContext): Promise<ForkWorktree | undefined> {
  if (params.worktree === undefined || params.worktree === null) return undefined;
  const hub = context.server.threads;
  const source = await (await hub.store()).loadThread(params.threadId).catch(() => {
    throw AppServerRequestError.invalidRequest(`no rollout found for thread id ${params.threadId}`);
  });
  const turnIds = source.turns.flatMap((turn) => (turn.turnId === undefined ? [] : [turn.turnId]));
  const kept = keptTurns(turnIds, params);
  const chosen = params.worktree.path ?? undefined;
  if (chosen !== undefined && !path.isAbsolute(chosen)) throw AppServerRequestError.invalidRequest(`worktree.path must be absolute: ${chosen}`);
  const dest = (root: string) => chosen ?? path.join(context.server.config.config.homeDir, 'worktrees', randomUUID().slice(0, 8), path.basename(root));
  try {
    return await forkIntoWorktree(source.extensionState, { turnIds, kept }, source.meta.cwd, dest, hub.hostCommands);
  } catch (error) {
    if (error instanceof CheckpointError) throw AppServerRequestError.invalidRequest(error.message);
    throw error;
  }
}

/** How many of the source's turns the fork keeps (`lastTurnId` with it, `beforeTurnId` without). */
function keptTurns(turnIds: readonly string[], params: ThreadForkParams): number {
  const at = (turnId: string) => {
    const index = turnIds.indexOf(turnId);
    if (index < 0) throw AppServerRequestError.invalidRequest(`turn not found: ${turnId}`);
    return index;
  };
  if (params.lastTurnId !== undefined && params.lastTurnId !== null) return at(params.lastTurnId) + 1;
  if (params.beforeTurnId !== undefined && params.beforeTurnId !== null) return at(params.beforeTurnId);
  return turnIds.length;
}
