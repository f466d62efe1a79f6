// @skein/extension-api — everything an extension may import from Skein. Re-exports only.

export type { ContextContributor, ContextRequest } from './context-contributor.js';
export type { TurnInputContributor, TurnInputRequest } from './turn-input-contributor.js';
export type { HookContributor, HookEventName, HookInput, HookOutput } from './hook-contributor.js';
export type { ThreadEnvironments } from './thread-environments.js';
export type { HostNotices } from './host-notices.js';
export type { ThreadLifecycleContributor, ThreadLifecycleEvent } from './thread-lifecycle-contributor.js';
export type { ToolContributor, ToolRequest } from './tool-contributor.js';
export { defineCustomTool, defineFunctionTool } from './tool-handler.js';
export type { CustomToolHandler, FunctionToolHandler, LeafToolHandler, NamespaceToolHandler, ToolExposure, ToolHandler, ToolMetadata } from './tool-handler.js';
export type {
  Authorization,
  CommandApprovalCall,
  EnvironmentOs,
  PatchApprovalChange,
  ToolApprovals,
  ToolContext,
  ToolElicitation,
  ToolElicitationAnswer,
  ToolEnvironment,
  ToolInput,
} from './tool-context.js';
export { FatalToolError, ToolError } from './tool-result.js';
export type { ToolResult } from './tool-result.js';
export type { JsonValue, WorldStateContributor, WorldStateRequest } from './world-state-contributor.js';
export { MemoryExtensionData } from './extension-data.js';
export { EXTENSION_API_VERSION } from './api-version.js';
export type { DurableExtensionData, ExtensionData, ExtensionScopes } from './extension-data.js';
export type { ThreadInit } from './thread-init.js';
export { ExtensionRegistryBuilder, ExtensionRegistryError, defineExtension } from './extension-registry.js';
export type { Contribution, Extension, ExtensionRegistry } from './extension-registry.js';

// Wire types an extension works with, so it needs no other Skein import.
export {
  BUILT_IN_CONTEXT_FRAGMENTS,
  ContextFragment,
  CapabilityRootLocation,
  CoreSandboxPolicy,
  CustomToolSpec,
  FileSystemError,
  FileSystemErrorCode,
  FunctionToolSpec,
  PathUri,
  PathUriError,
  ResponseItem,
  SKILL_FRAGMENT,
  SelectedCapabilityRoot,
  ToolOutputBody,
  ToolSpec,
  UserInput,
  defineContextFragment,
  // Schemas built on first use: an extension's module is evaluated at every start of the host.
  lazySchema,
} from '@skein/protocol';
export type { ContextFragmentDefinition, ContextFragmentSpec } from '@skein/protocol';

// The filesystem an extension reads skills and files through, local or on a remote executor.
export type {
  CopyOptions,
  CreateDirectoryOptions,
  ExecutorFileSystem,
  ExecutorProcesses,
  FileMetadata,
  FileSystemCallOptions,
  FileSystemSandboxContext,
  GetMetadataOptions,
  ReadDirectoryEntry,
  RemoveOptions,
  StartProcessParams,
  WalkOptions,
  WalkOutcome,
} from '@skein/exec-server';
export type { PathConvention } from '@skein/protocol';
