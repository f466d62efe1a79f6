// The initialize response's `platformFamily` and `platformOs`; its `userAgent` is core's (the model
// requests send the same one).
/** `platformFamily` and `platformOs` as Codex reports them. */
export function platformInfo(platform: NodeJS.Platform): { readonly platformFamily: string; readonly platformOs: string } {
  if (platform === 'win32') return { platformFamily: 'windows', platformOs: 'windows' };
  return { platformFamily: 'unix', platformOs: platform === 'darwin' ? 'macos' : platform };
}
