// The hosted `web_search` tool: the Responses API runs the search itself and streams a
// `web_search_call` item, so the client only offers the spec. Its fields, their order and the modes
// follow Codex 0.171.0 (probed): `cached` searches an index without reaching sites, `live` may fetch
// pages, `indexed` is live over the index, `disabled` offers nothing.
import type { WebSearchSettings } from '@skein/config';
import type { HostedToolSpec } from '@skein/protocol';
import type { WebSearchContentType } from '../../model/model-catalog.js';

/** The spec for `settings` and the model's content types, or undefined when search is off. */
export function webSearchSpec(settings: WebSearchSettings, contentTypes: readonly WebSearchContentType[] | null): HostedToolSpec | undefined {
  if (settings.mode === 'disabled') return undefined;
  const { allowedDomains, contextSize, location } = settings;
  return {
    type: 'web_search',
    external_web_access: settings.mode !== 'cached',
    ...(settings.mode === 'indexed' ? { indexed_web_access: true } : {}),
    ...(allowedDomains === undefined ? {} : { filters: { allowed_domains: [...allowedDomains] } }),
    ...(location === undefined ? {} : { user_location: { type: 'approximate', ...location } }),
    ...(contextSize === undefined ? {} : { search_context_size: contextSize }),
    ...(contentTypes === null ? {} : { search_content_types: [...contentTypes] }),
  };
}
