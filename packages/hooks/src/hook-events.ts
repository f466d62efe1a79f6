// The fourteen hook events and the names each is known by: configuration (`PreToolUse`), the wire
// (`preToolUse`), trust keys (`pre_tool_use`) and run ids (`pre-tool-use`). Their order here is the
// order Codex 0.171.0 lists hooks in (`displayOrder`).
import type { HookEventName } from '@skein/extension-api';

/** One event and how it reads matchers. */
interface HookEventInfo {
  readonly name: HookEventName;
  /** Whether a group's `matcher` selects what the event is about (a tool's name); otherwise it is ignored. */
  readonly usesMatcher: boolean;
}

export const HOOK_EVENTS: readonly HookEventInfo[] = [
  { name: 'preModelRequest', usesMatcher: false },
  { name: 'postModelRequest', usesMatcher: false },
  { name: 'preToolUse', usesMatcher: true },
  { name: 'permissionRequest', usesMatcher: true },
  { name: 'postToolUse', usesMatcher: true },
  { name: 'preCompact', usesMatcher: true },
  { name: 'postCompact', usesMatcher: true },
  { name: 'sessionStart', usesMatcher: true },
  { name: 'sessionEnd', usesMatcher: false },
  { name: 'userPromptSubmit', usesMatcher: false },
  { name: 'subagentStart', usesMatcher: false },
  { name: 'subagentStop', usesMatcher: false },
  { name: 'stop', usesMatcher: false },
  { name: 'interrupt', usesMatcher: false },
];

const byConfigName = new Map(HOOK_EVENTS.map((event) => [configName(event.name), event]));

/** `PreToolUse`: how configuration and a hook's stdin name the event. */
export function configName(event: HookEventName): string {
  return event[0]!.toUpperCase() + event.slice(1);
}

/** `pre_tool_use`: the event in trust keys and hashes. */
export function snakeName(event: HookEventName): string {
  return event.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `pre-tool-use`: the event in run ids. */
export function kebabName(event: HookEventName): string {
  return event.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The event a configuration key names, if it names one. */
export function eventOfConfigName(name: string): HookEventInfo | undefined {
  return byConfigName.get(name);
}

/** The event's position in Codex's listing order. */
export function eventOrder(event: HookEventName): number {
  return HOOK_EVENTS.findIndex((info) => info.name === event);
}

/** Whether `event` reads matchers. */
export function usesMatcher(event: HookEventName): boolean {
  return HOOK_EVENTS.find((info) => info.name === event)?.usesMatcher ?? false;
}
