// Types for codex-mock-config.mjs.
export declare function codexMockConfig(url: string, extra?: string): string;
