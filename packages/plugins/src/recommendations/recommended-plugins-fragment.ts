// `<recommended_plugins>`: the plugins worth installing, as a contextual user fragment, one line per
// plugin (`- <display name> (<id>)`) so the model can pass the id to `request_plugin_install`.
import { defineContextFragment, type ContextFragment } from '@skein/extension-api';
import type { RecommendedPlugin } from './recommendation-source.js';

/** The most plugins listed; the rest are counted as left out. */
export const MAX_RECOMMENDED_PLUGINS = 50;

export const RECOMMENDED_PLUGINS_FRAGMENT = defineContextFragment({
  kind: 'plugins.recommended',
  role: 'user',
  open: '<recommended_plugins>',
  close: '</recommended_plugins>',
});

export function renderRecommendedPlugins(plugins: readonly RecommendedPlugin[]): ContextFragment {
  const listed = plugins.slice(0, MAX_RECOMMENDED_PLUGINS).map((plugin) => `- ${plugin.displayName} (${plugin.id})`);
  const omitted = plugins.length > MAX_RECOMMENDED_PLUGINS ? ['- More plugins were left out to keep this list short.'] : [];
  return RECOMMENDED_PLUGINS_FRAGMENT.render(['These plugins are available to install but are not installed yet:', ...listed, ...omitted].join('\n'));
}
